"""The definition of five-card hand order, as a sparse integer key.

Every evaluator in this package reduces to :func:`key5`: the category in the
high bits, then the ranks that break ties, most significant first, five bits
each. Ranks are listed by group (the quads before the kicker, the trips before
the pair, the higher pair first) and then by rank, so comparing keys is
comparing hands by the usual poker rules. A straight is keyed by twice its top
card, which leaves room for the pai gow rule that puts A-2-3-4-5 between the
ace-high and the king-high straight (key 27, between 28 and 26).

The standard evaluator (:mod:`games.poker.rank5`) renumbers these keys densely;
the pai gow evaluators use them as they are.

>>> from games.poker.category import Category
>>> category_of_key(key5((14, 13, 12, 11, 10), flush=True)) is Category.ROYAL_FLUSH
True
>>> key5((14, 5, 4, 3, 2), flush=False) < key5((6, 5, 4, 3, 2), flush=False)
True
>>> key5((14, 5, 4, 3, 2), False, wheel_second=True) > key5((13, 12, 11, 10, 9), False)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.poker.category import Category

FIELD_BITS = 5
CATEGORY_SHIFT = 5 * FIELD_BITS
ACE = 14
WHEEL = (14, 5, 4, 3, 2)
#: straight keys: twice the top card; the wheel is 10 (lowest) or 27 (second highest)
WHEEL_LOW = 10
WHEEL_SECOND = 2 * ACE - 1


def pack(category: Category, fields: Sequence[int]) -> int:
    """The key of a category and its tie-break fields (at most five, each below 32)."""
    key = int(category)
    for i in range(5):
        key = (key << FIELD_BITS) | (fields[i] if i < len(fields) else 0)
    return key


def category_of_key(key: int) -> Category:
    """The category a key encodes."""
    return Category(key >> CATEGORY_SHIFT)


def grouped(ranks: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``(count, rank)`` pairs, largest group first, then highest rank first."""
    return tuple(sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True))


def straight_field(ranks: Sequence[int], *, wheel_second: bool = False) -> int:
    """The straight key field of five ranks, or 0 if they are not a straight."""
    desc = sorted(ranks, reverse=True)
    if len(set(desc)) != 5:
        return 0
    if desc[0] - desc[4] == 4:
        return 2 * desc[0]
    if tuple(desc) == WHEEL:
        return WHEEL_SECOND if wheel_second else WHEEL_LOW
    return 0


def key5(ranks: Sequence[int], flush: bool, wheel_second: bool = False) -> int:
    """The key of five cards given their ranks (2..14) and whether they are one suit.

    Five equal ranks (possible only with a wild card) are five of a kind.
    """
    if len(ranks) != 5:
        raise ValueError("key5 needs exactly five ranks")
    groups = grouped(ranks)
    shape = tuple(n for n, _ in groups)
    tops = [r for _, r in groups]
    if shape == (5,):
        return pack(Category.FIVE_OF_A_KIND, tops)
    if shape == (4, 1):
        return pack(Category.FOUR_OF_A_KIND, tops)
    if shape == (3, 2):
        return pack(Category.FULL_HOUSE, tops)
    if shape == (3, 1, 1):
        return pack(Category.THREE_OF_A_KIND, tops)
    if shape == (2, 2, 1):
        return pack(Category.TWO_PAIR, tops)
    if shape == (2, 1, 1, 1):
        return pack(Category.PAIR, tops)
    straight = straight_field(tops, wheel_second=wheel_second)
    if straight and flush:
        cat = Category.ROYAL_FLUSH if straight == 2 * ACE else Category.STRAIGHT_FLUSH
        return pack(cat, [straight])
    if flush:
        return pack(Category.FLUSH, tops)
    if straight:
        return pack(Category.STRAIGHT, [straight])
    return pack(Category.HIGH_CARD, tops)


def key2(ranks: Sequence[int]) -> int:
    """The key of a two-card (pai gow low) hand, comparable with five-card keys."""
    if len(ranks) != 2:
        raise ValueError("key2 needs exactly two ranks")
    hi, lo = sorted(ranks, reverse=True)
    if hi == lo:
        return pack(Category.PAIR, [hi])
    return pack(Category.HIGH_CARD, [hi, lo])
