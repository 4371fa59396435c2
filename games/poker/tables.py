"""Lookup tables for the standard high-hand evaluator, built once on first use.

Two facts make a best-of-seven evaluation a couple of table reads:

* Without a flush, the best hand depends only on the multiset of ranks. A
  multiset is coded in base 5 (``sum(5 ** (rank - 2))``, each count at most 4),
  which is additive over cards. ``nonflush[code]`` holds the best dense rank of
  every multiset of 5, 6 or 7 cards, filled by dynamic programming: the best of
  ``n`` cards is the best of its ``n - 1``-card sub-multisets.
* Among at most seven cards a flush (five of one suit) rules out quads and full
  houses (they need at least three other suits), so when a flush is present it
  is the hand: ``flush[mask]`` holds the best flush or straight flush of a
  13-bit rank mask, filled the same way.

Dense ranks number the 7,462 distinct five-card values 1 (7-5-4-3-2 offsuit)
to 7,462 (royal flush) in the order of :func:`games.poker.keys.key5`. The same
tables, split for NumPy, serve :mod:`games.poker.batch`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from games.poker.category import Category
from games.poker.keys import category_of_key, key5

RANKS = tuple(range(2, 15))
POW5 = tuple(5**i for i in range(13))
#: base-5 code split for NumPy: ranks 2..8 in the low part, 9..A in the high part
LOW_RANKS = 7
LOW_BASE = 5**LOW_RANKS


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the standard evaluator looks up. Built by :func:`tables`."""

    keys: tuple[int, ...]  # dense rank -> sparse key (index 0 unused)
    dense: dict[int, int]  # sparse key -> dense rank
    nonflush: dict[int, int]  # base-5 rank code (5..7 cards) -> best dense rank
    flush: tuple[int, ...]  # 13-bit rank mask -> best flush dense rank (0: no flush)
    category_start: tuple[int, ...]  # Category value -> first dense rank of it (0: none)


def _code(ranks: tuple[int, ...]) -> int:
    return sum(POW5[r - 2] for r in ranks)


@functools.cache
def tables() -> Tables:
    """Build (once) and return the lookup tables."""
    multisets: list[tuple[int, ...]] = [
        ms for ms in combinations_with_replacement(RANKS, 5) if max(ms.count(r) for r in ms) <= 4
    ]
    distinct = list(combinations(RANKS, 5))
    all_keys = {key5(ms, flush=False) for ms in multisets}
    all_keys.update(key5(rs, flush=True) for rs in distinct)
    keys = (0, *sorted(all_keys))
    dense = {k: i for i, k in enumerate(keys) if i}

    nonflush: dict[int, int] = {_code(ms): dense[key5(ms, flush=False)] for ms in multisets}
    # One more card at a time, on the codes alone: a code's digit is that rank's count, so
    # each n-card multiset passes its best on to every (n + 1)-card one it is part of
    # (one with a rank added that it holds fewer than four of).
    level = list(nonflush)
    for _size in (6, 7):
        nxt: dict[int, int] = {}
        for code in level:
            best = nonflush[code]
            for p in POW5:
                if code // p % 5 < 4 and nxt.get(code + p, 0) < best:
                    nxt[code + p] = best
        nonflush.update(nxt)
        level = list(nxt)

    flush = [0] * (1 << 13)
    for rs in distinct:
        flush[sum(1 << (r - 2) for r in rs)] = dense[key5(rs, flush=True)]
    for mask in range(1 << 13):
        if mask.bit_count() > 5:
            flush[mask] = max(flush[mask & ~(1 << b)] for b in range(13) if mask >> b & 1)

    start = [0] * len(Category)
    for i in range(len(keys) - 1, 0, -1):
        start[category_of_key(keys[i])] = i
    return Tables(
        keys=keys,
        dense=dense,
        nonflush=nonflush,
        flush=tuple(flush),
        category_start=tuple(start),
    )
