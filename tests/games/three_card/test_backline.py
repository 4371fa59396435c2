"""Three card tables refuse every backline bet; the 6 Card Bonus in its page's words."""

from __future__ import annotations

import pytest

from games.core import BetRefused
from games.core.backline import backline_positions
from games.three_card import VARIANTS, new_game


def test_no_backline_bet_on_the_six_card_bonus() -> None:
    """004, 6 Card Bonus: "Backline betting may not be permitted on the 6 Card Bonus wager."."""
    game = new_game(next(v for v in VARIANTS if v.id == "three-card-poker"), 2)
    with pytest.raises(BetRefused) as info:
        backline_positions(game, 0, "six-card-bonus")
    assert "Backline betting may not be permitted on the 6 Card Bonus wager" in str(info.value)


@pytest.mark.parametrize("bet", ["ante", "pair-plus", "play"])
def test_no_backline_bet_on_any_other_wager(bet: str) -> None:
    """004 names backline betting only for 21st Century Blackjack ("Multiple Players may
    bet on the same hand") and to refuse it on the 6 Card Bonus; its Three Card Poker rules
    and 001's Tri-Card Poker allow it on no wager, so none is taken."""
    for variant in VARIANTS:
        with pytest.raises(BetRefused, match="no backline bet"):
            backline_positions(new_game(variant, 1), 0, bet)
