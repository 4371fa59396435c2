"""Standard five-card high hands: a dense rank, its category, its name.

A :data:`HandRank` is an ``int`` from 1 (7-5-4-3-2 of mixed suits, the worst
hand) to 7,462 (a royal flush): one number per distinct hand value, so equal
ranks are exact ties (copies) and a larger rank always wins.

>>> from games.core.cards import parse_cards
>>> r = rank5(parse_cards("As Ks Qs Js Ts"))
>>> r, category(r)
(7462, <Category.ROYAL_FLUSH: 9>)
>>> rank5(parse_cards("7c 5d 4h 3s 2c"))
1
>>> describe(rank5(parse_cards("Kh Kd Ks 5c 5h")))
'full house, kings full of fives'
>>> rank5(parse_cards("Ah 2d 3c 4s 5h")) < rank5(parse_cards("6h 2d 3c 4s 5h"))
True
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import NewType

from games.core.cards import DECK, Card
from games.poker.category import Category
from games.poker.errors import InvalidHand
from games.poker.keys import CATEGORY_SHIFT, FIELD_BITS, WHEEL_LOW
from games.poker.tables import POW5, tables

HandRank = NewType("HandRank", int)

#: number of distinct five-card hand values
DISTINCT_HANDS = 7462

_INDEX: dict[Card, int] = {c: c.index for c in DECK}

_RANK_WORDS = {
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}


def check_cards(cards: Sequence[Card], sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Card indices of ``cards`` after checking count, jokers and duplicates."""
    if len(cards) not in sizes:
        want = " or ".join(str(n) for n in sizes)
        raise InvalidHand(f"a hand needs {want} cards, got {len(cards)}")
    try:
        idx = tuple([_INDEX[c] for c in cards])
    except (KeyError, TypeError):
        for c in cards:
            if not isinstance(c, Card):
                raise InvalidHand(f"not a card: {c!r}") from None
        raise InvalidHand("the joker has no value in a standard hand") from None
    if len(set(idx)) != len(idx):
        raise InvalidHand("duplicate card in hand: " + " ".join(str(c) for c in cards))
    return idx


def rank_indices(idx: Sequence[int]) -> HandRank:
    """Best dense rank of 5 to 7 distinct card indices (no checks: callers check)."""
    t = tables()
    code = 0
    suits = [0, 0, 0, 0]
    for i in idx:
        code += POW5[i >> 2]
        suits[i & 3] += 1
    for s in range(4):
        if suits[s] >= 5:
            mask = 0
            for i in idx:
                if i & 3 == s:
                    mask |= 1 << (i >> 2)
            return HandRank(t.flush[mask])
    return HandRank(t.nonflush[code])


def rank5(cards: Sequence[Card]) -> HandRank:
    """The dense rank of exactly five cards."""
    return rank_indices(check_cards(cards, (5,)))


def category(rank: int) -> Category:
    """The category of a dense rank."""
    if not 1 <= rank <= DISTINCT_HANDS:
        raise InvalidHand(f"not a hand rank: {rank}")
    starts = tables().category_start
    return Category(bisect_right(starts, rank, hi=Category.ROYAL_FLUSH + 1) - 1)


def fields(rank: int) -> tuple[int, ...]:
    """The tie-break ranks of a dense rank (2..14, groups first; a straight: its top)."""
    category(rank)  # range check
    key = tables().keys[rank]
    out = []
    for i in range(4, -1, -1):
        f = (key >> (i * FIELD_BITS)) & ((1 << FIELD_BITS) - 1)
        if f:
            out.append(f)
    cat = Category(key >> CATEGORY_SHIFT)
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        return (5 if out[0] == WHEEL_LOW else out[0] // 2,)
    return tuple(out)


def describe(rank: int) -> str:
    """A short English name for a dense rank: ``'two pair, aces and eights'``."""
    cat = category(rank)
    f = fields(rank)
    one = {r: w[0] for r, w in _RANK_WORDS.items()}
    many = {r: w[1] for r, w in _RANK_WORDS.items()}
    if cat is Category.ROYAL_FLUSH:
        return "royal flush"
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        return f"{cat.label}, {one[f[0]]} high"
    if cat in (Category.FLUSH, Category.HIGH_CARD):
        return f"{cat.label}, {one[f[0]]} high"
    if cat is Category.FULL_HOUSE:
        return f"full house, {many[f[0]]} full of {many[f[1]]}"
    if cat is Category.TWO_PAIR:
        return f"two pair, {many[f[0]]} and {many[f[1]]}"
    return f"{cat.label}, {many[f[0]]}"
