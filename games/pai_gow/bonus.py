"""The bonus hands of Bonus Pai Gow (003) and Fortune (004): the player's seven cards as dealt.

:func:`bonus_hands` names every bonus hand the seven cards hold, best first;
a table pays the largest entry of its pay table among them (:func:`bonus_pay`).
Seven-card straight flushes take seven suited cards in sequence (A-2-3-4-5-6-7
the lowest, 8 to ace the highest); "with joker" means six suited cards and the
joker filling the sequence. "Royal flush plus a pair of deuces" is seven cards
holding a royal flush and a pair of 2s (rules README).

>>> from games.core.cards import parse_cards
>>> bonus_hands(parse_cards("As Ks Qs Js Ts 2c 2d"), JokerRule.ACE_OR_FILLER)
('royal-flush-deuces', 'royal-flush')
>>> bonus_hands(parse_cards("9h 8h 7h 6h 5h 4h X"), JokerRule.ACE_OR_FILLER)
('seven-card-straight-flush-joker', 'straight-flush')
>>> bonus_hands(parse_cards("9h 9c 9d 6h 5s X 2c"), JokerRule.WILD)
('four-of-a-kind',)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from games.core.cards import Card
from games.core.money import Ratio
from games.pai_gow.rules import SideBet
from games.poker.category import Category
from games.poker.keys import ACE, category_of_key
from games.poker.pai_gow_joker import JokerRule, paigow_best5

#: best-five category -> bonus hand name (five of a kind is split by rank below)
CATEGORY_HAND = {
    Category.ROYAL_FLUSH: "royal-flush",
    Category.STRAIGHT_FLUSH: "straight-flush",
    Category.FOUR_OF_A_KIND: "four-of-a-kind",
    Category.FULL_HOUSE: "full-house",
    Category.FLUSH: "flush",
    Category.THREE_OF_A_KIND: "three-of-a-kind",
    Category.STRAIGHT: "straight",
}

#: the seven-rank windows of a seven-card straight flush, as rank sets (ace low = 1)
WINDOWS = tuple(frozenset(range(low, low + 7)) for low in range(1, 9))


def _ranks_with_low_ace(cards: Sequence[Card]) -> set[int]:
    out = {int(c.rank) for c in cards}
    if ACE in out:
        out.add(1)
    return out


def seven_card_straight_flush(cards: Sequence[Card]) -> str | None:
    """``'seven-card-straight-flush'``, ``'...-joker'`` or None."""
    real = [c for c in cards if not c.is_joker]
    if len({c.suit for c in real}) != 1 or len({c.rank for c in real}) != len(real):
        return None
    ranks = _ranks_with_low_ace(real)
    for w in WINDOWS:
        inside = {r for r in ranks if r in w}
        if len(real) == 7 and inside == w:
            return "seven-card-straight-flush"
        if len(real) == 6 and len(inside) == 6:
            return "seven-card-straight-flush-joker"
    return None


def best_five_hand(
    cards: Sequence[Card], joker: JokerRule, wheel_second: bool = True
) -> str | None:
    """The bonus name of the best five of the cards (None below three of a kind)."""
    key, _five = paigow_best5(cards, joker=joker, wheel_second=wheel_second)
    cat = category_of_key(key)
    if cat is Category.FIVE_OF_A_KIND:
        return "five-aces" if (key >> 20) & 31 == ACE else "five-of-a-kind"
    return CATEGORY_HAND.get(cat)


def bonus_hands(
    cards: Sequence[Card], joker: JokerRule, wheel_second: bool = True
) -> tuple[str, ...]:
    """Every bonus hand the seven cards hold, best first."""
    out: list[str] = []
    seven = seven_card_straight_flush(cards)
    deuces = [c for c in cards if not c.is_joker and int(c.rank) == 2]
    if len(deuces) == 2:
        rest = [c for c in cards if c not in deuces]
        if best_five_hand(rest, joker, wheel_second) == "royal-flush":
            out.append("royal-flush-deuces")
    if seven is not None:
        out.insert(0, seven)
    best = best_five_hand(cards, joker, wheel_second)
    if best is not None:
        out.append(best)
    if best == "straight" and _holds_trips(cards, joker):
        out.append("three-of-a-kind")  # five other cards of the seven make three of a kind
    return tuple(out)


def _holds_trips(cards: Sequence[Card], joker: JokerRule) -> bool:
    counts = Counter(int(c.rank) for c in cards if not c.is_joker)
    top = max(counts.values())
    if any(c.is_joker for c in cards):
        return top >= 2 if joker is JokerRule.WILD else top >= 3 or counts[ACE] >= 2
    return top >= 3


def bonus_pay(side: SideBet, hands: Sequence[str]) -> tuple[str, Ratio] | None:
    """The entry of the table that pays most among ``hands``, or None."""
    paid = [(Fraction(side.pays[h].num, side.pays[h].den), h) for h in hands if h in side.pays]
    if not paid:
        return None
    name = max(paid)[1]
    return name, side.pays[name]


def envy_amount(side: SideBet, hands: Sequence[str]) -> tuple[str, int] | None:
    """The one Envy payout another seat's hand earns (its largest entry), or None."""
    paid = [(side.envy[h], h) for h in hands if h in side.envy]
    if not paid:
        return None
    amount, name = max(paid)
    return name, amount
