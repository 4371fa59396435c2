"""Three card tables take no backline bet: the refusal, in the page's words.

Page 004 names backline betting twice: 21st Century Blackjack's "Multiple Players may bet on
the same hand", and the 6 Card Bonus's "Backline betting may not be permitted on the 6 Card
Bonus wager." Its Three Card Poker rules allow a backline bet on no other wager (and page 001's
Tri-Card Poker knows none), so a three card table refuses every backline bet; the 6 Card
Bonus refusal quotes its line.

>>> refusal("six-card-bonus")
'Backline betting may not be permitted on the 6 Card Bonus wager (page 004, 6 Card Bonus)'
"""

from __future__ import annotations

#: page 004, 6 Card Bonus
SIX_CARD_BONUS_LINE = "Backline betting may not be permitted on the 6 Card Bonus wager"


def refusal(bet: str) -> str:
    """Why a backline bet on ``bet`` is refused at a three card table."""
    if bet == "six-card-bonus":
        return f"{SIX_CARD_BONUS_LINE} (page 004, 6 Card Bonus)"
    return (
        f"three card poker takes no backline bet on the {bet or 'hand'}: page 004 allows "
        "backline bets only on 21st Century Blackjack, and not on the 6 Card Bonus"
    )


__all__ = ["SIX_CARD_BONUS_LINE", "refusal"]
