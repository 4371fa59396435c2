"""Which decisions a blackjack hand may take now, and the reason when it may not.

Pure checks over the table's rules and a seat's state, so :meth:`BlackjackRound.verify
<games.blackjack.engine.BlackjackRound.verify>` and ``legal_actions`` give one answer: a
decision is legal exactly when its refusal here is None. Every reason is one line a player
reads (the kiosk shows it as is).

>>> from games.blackjack import VARIANTS
>>> from games.blackjack.seats import PlayerHand, SeatState
>>> from games.core.cards import parse_cards
>>> seat = SeatState(main=1000, hands=[PlayerHand(cards=list(parse_cards("8s 8d")), stake=1000)])
>>> play_refusal(VARIANTS[0].rules, seat, 0, "split", "") is None
True
>>> play_refusal(VARIANTS[0].rules, seat, 0, "surrender", "")
'no surrender at this table'
"""

from __future__ import annotations

from games.blackjack.hand import can_split_cards
from games.blackjack.rules import BlackjackRules
from games.blackjack.seats import SeatState
from games.core.errors import IllegalAction

#: every decision name the family knows, in the order its refusal lists them
DECISIONS = (
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "even-money",
    "no-insurance",
)
#: the decisions of a hand in play, in the order ``legal_actions`` tries them
PLAY_DECISIONS = ("hit", "stand", "double", "split", "surrender")
#: the answers to the dealer's ace (insurance, or even money for a natural)
INSURANCE_DECISIONS = frozenset({"insurance", "even-money", "no-insurance"})


def parse_amount(arg: str, what: str) -> int:
    """The whole, positive cents of a decision's amount (a double for less, insurance)."""
    try:
        value = int(arg)
    except ValueError:
        raise IllegalAction(f"{what} amount must be whole cents, got {arg!r}") from None
    if value <= 0:
        raise IllegalAction(f"{what} amount must be positive, got {value}")
    return value


def insurance_offer(rules: BlackjackRules, seat: SeatState) -> frozenset[str]:
    """What a seat may answer to the dealer's ace (empty: it has answered, or has no hand)."""
    if not seat.main or seat.insurance_decided:
        return frozenset()
    if rules.even_money and seat.hands[0].natural:
        return frozenset({"even-money", "no-insurance"})
    return frozenset({"insurance", "no-insurance"})


def insurance_refusal(
    rules: BlackjackRules, seat: SeatState, n: int, decision: str, arg: str
) -> str | None:
    """Why seat ``n``'s answer to the dealer's ace is refused, or None if it is allowed."""
    offer = insurance_offer(rules, seat)
    if decision not in offer:
        if not offer:
            return f"seat {n} has no insurance decision to make"
        return f"{decision} is not offered now; choose {' or '.join(sorted(offer))}"
    if decision == "insurance" and arg:
        try:
            amount = parse_amount(arg, "insurance")
        except IllegalAction as exc:
            return str(exc)
        half = seat.main // 2
        if rules.insurance == "half" and amount != half:
            return f"insurance is exactly half the bet ({half} cents)"
        if amount > half:
            return f"insurance may be at most half the bet ({half} cents)"
    return None


def play_refusal(
    rules: BlackjackRules, seat: SeatState, h: int, decision: str, arg: str
) -> str | None:
    """Why ``decision`` on the seat's hand ``h`` is refused now, or None if it is allowed."""
    if decision in ("hit", "stand"):
        return None
    if decision == "double":
        return _double_refusal(rules, seat, h, arg)
    if decision == "split":
        return _split_refusal(rules, seat, h)
    if decision == "surrender":
        return _surrender_refusal(rules, seat, h)
    return f"{decision!r} is not a decision now"


def _double_refusal(rules: BlackjackRules, seat: SeatState, h: int, arg: str) -> str | None:
    hand = seat.hands[h]
    if len(hand.cards) != 2:
        return "double is allowed only on the first two cards of a hand"
    if hand.from_split and not rules.double_after_split:
        return "double after split is not allowed at this table"
    if arg:
        try:
            amount = parse_amount(arg, "double")
        except IllegalAction as exc:
            return str(exc)
        if not rules.double_for_less and amount != hand.stake:
            return f"double must equal the bet ({hand.stake} cents); no double for less"
        if amount > hand.stake:
            return f"double may not exceed the bet ({hand.stake} cents)"
    return None


def _split_refusal(rules: BlackjackRules, seat: SeatState, h: int) -> str | None:
    hand = seat.hands[h]
    if len(hand.cards) != 2:
        return "split is allowed only on the first two cards of a hand"
    if not can_split_cards(hand.cards[0], hand.cards[1], rules.split):
        what = "cards of equal value" if rules.split == "same-value" else "a pair or two faces"
        return f"split needs {what}"
    if len(seat.hands) >= rules.max_hands:
        return f"no more splits: at most {rules.max_hands} hands"
    return None


def _surrender_refusal(rules: BlackjackRules, seat: SeatState, h: int) -> str | None:
    hand = seat.hands[h]
    if rules.surrender_min_total is None:
        return "no surrender at this table"
    if hand.from_split or len(seat.hands) > 1:
        return "a split hand may not surrender"
    if hand.doubled:
        return "a doubled hand may not surrender"
    total, _ = hand.total
    if total < rules.surrender_min_total:
        return f"surrender needs a total of {rules.surrender_min_total} or more"
    return None


__all__ = [
    "DECISIONS",
    "INSURANCE_DECISIONS",
    "PLAY_DECISIONS",
    "insurance_offer",
    "insurance_refusal",
    "parse_amount",
    "play_refusal",
]
