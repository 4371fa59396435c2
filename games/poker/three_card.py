"""Three-card hands (Three Card Poker, Tri-Card Poker): straights beat flushes.

Order, best first (California page 004): straight flush (A-K-Q suited, the
"mini royal", at the top; 3-2-A the lowest), three of a kind, straight (A-K-Q
highest, 3-2-A lowest), flush, pair, high card; kickers play.

A :data:`ThreeCardRank` is dense: 1 (5-3-2 of mixed suits) to :data:`DISTINCT_HANDS3`.

>>> from games.core.cards import parse_cards
>>> category3(rank3(parse_cards("As Ks Qs")))
<Category3.MINI_ROYAL: 6>
>>> rank3(parse_cards("Ah 2d 3c")) > rank3(parse_cards("Kh 9h 2h"))
True
>>> rank3(parse_cards("Ah 2d 3c")) < rank3(parse_cards("4h 2d 3c"))
True
>>> rank3(parse_cards("5c 3d 2h"))
1
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations, combinations_with_replacement
from typing import NewType

import numpy as np
import numpy.typing as npt

from games.core.cards import Card
from games.poker.errors import InvalidHand
from games.poker.keys import grouped
from games.poker.rank5 import check_cards

ThreeCardRank = NewType("ThreeCardRank", int)


class Category3(IntEnum):
    """Three-card categories, worst to best."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5
    MINI_ROYAL = 6  # A-K-Q suited: the top straight flush, paid apart on some tables

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


def key3(ranks: Sequence[int], flush: bool) -> int:
    """Sparse key of three cards by rank (2..14) and whether they share a suit."""
    groups = grouped(ranks)
    shape = tuple(n for n, _ in groups)
    tops = [r for _, r in groups]
    if shape == (3,):
        cat, fields = Category3.THREE_OF_A_KIND, tops
    elif shape == (2, 1):
        cat, fields = Category3.PAIR, tops
    else:
        hi, mid, lo = tops
        top = hi if hi - lo == 2 else (3 if (hi, mid, lo) == (14, 3, 2) else 0)
        if top and flush:
            cat = Category3.MINI_ROYAL if top == 14 else Category3.STRAIGHT_FLUSH
            fields = [top]
        elif top:
            cat, fields = Category3.STRAIGHT, [top]
        elif flush:
            cat, fields = Category3.FLUSH, tops
        else:
            cat, fields = Category3.HIGH_CARD, tops
    key = int(cat)
    for i in range(3):
        key = (key << 4) | (fields[i] if i < len(fields) else 0)
    return key


@functools.cache
def _tables() -> tuple[dict[int, int], tuple[int, ...], npt.NDArray[np.int16]]:
    """(sparse key -> dense rank, category starts, (flush, hi, mid, lo) -> dense rank)."""
    ranks = range(2, 15)
    keys = {key3(ms, False) for ms in combinations_with_replacement(ranks, 3)}
    keys.update(key3(rs, True) for rs in combinations(ranks, 3))
    ordered = sorted(keys)
    dense = {k: i + 1 for i, k in enumerate(ordered)}
    starts = [0] * len(Category3)
    for k in reversed(ordered):
        starts[k >> 12] = dense[k]
    table = np.zeros((2, 15, 15, 15), dtype=np.int16)
    for ms in combinations_with_replacement(ranks, 3):
        lo, mid, hi = ms
        table[0, hi, mid, lo] = dense[key3(ms, False)]
        if len(set(ms)) == 3:
            table[1, hi, mid, lo] = dense[key3(ms, True)]
    return dense, tuple(starts), table


#: number of distinct three-card hand values
DISTINCT_HANDS3 = len(_tables()[0])


def rank3(cards: Sequence[Card]) -> ThreeCardRank:
    """The dense rank of exactly three cards."""
    check_cards(cards, (3,))
    flush = cards[0].suit == cards[1].suit == cards[2].suit
    return ThreeCardRank(_tables()[0][key3([int(c.rank) for c in cards], flush)])


def category3(rank: int) -> Category3:
    """The category of a dense three-card rank."""
    if not 1 <= rank <= DISTINCT_HANDS3:
        raise InvalidHand(f"not a three-card rank: {rank}")
    return Category3(bisect_right(_tables()[1], rank) - 1)


def rank3_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """Dense ranks of each row of an ``(N, 3)`` array of card indices 0..51."""
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] != 3 or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidHand(f"need an (N, 3) integer array, got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise InvalidHand("card index out of range 0..51")
    suits = arr & 3
    flush = ((suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])).astype(np.intp)
    r = np.sort((arr >> 2) + 2, axis=1)
    result: npt.NDArray[np.int16] = _tables()[2][flush, r[:, 2], r[:, 1], r[:, 0]]
    return result


def category3_batch(ranks: npt.ArrayLike) -> npt.NDArray[np.intp]:
    """Category values of an array of dense three-card ranks."""
    starts = np.asarray(_tables()[1][1:])
    return np.searchsorted(starts, np.asarray(ranks), side="right")
