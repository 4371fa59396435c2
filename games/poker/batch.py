"""Vectorised high-hand evaluation for simulation and exhaustive counts.

:func:`rank_batch` takes an ``(N, k)`` integer array of card indices (``k`` = 5,
6 or 7; index = ``(rank - 2) * 4 + suit``, as in :mod:`games.core.cards`) and
returns the ``N`` dense ranks :func:`games.poker.rank5.rank_indices` gives, in
the same total order, using the tables of :mod:`games.poker.tables` laid out for
NumPy:

* each card has a packed 64-bit code: its base-5 rank digit for ranks 2..8 in
  bits 0-16, for ranks 9..A in bits 17-30, and a one in its suit's 4-bit
  counter at bits 32-47. Summing a hand's codes counts ranks and suits at once.
* the two rank parts index two small maps whose sum indexes one dense
  ``int16`` table of best non-flush ranks (about 11 MB);
* a suit counter of 5 or more (found by adding 3 and testing bit 3) marks the
  few flush hands, which are looked up by their 13-bit rank mask instead.

:func:`exhaustive_counts7` counts the categories of all C(52, 7) hands by
running this over every five-card suffix of every two-card prefix, reusing the
summed codes of the 2,598,960 five-card sets.

>>> import numpy as np
>>> from games.core.cards import parse_cards
>>> hands = np.array([[c.index for c in parse_cards("As Ks Qs Js Ts 2c 2d")]])
>>> rank_batch(hands).tolist()
[7462]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from math import comb

import numpy as np
import numpy.typing as npt

from games.poker.category import Category
from games.poker.errors import InvalidHand
from games.poker.tables import LOW_BASE, LOW_RANKS, tables

IntArray = npt.NDArray[np.integer]
I64 = npt.NDArray[np.int64]

LOW_MASK = (1 << 17) - 1
HIGH_SHIFT = 17
HIGH_MASK = (1 << 14) - 1
SUIT_SHIFT = 32
FLUSH_PROBE = 0x3333
FLUSH_BITS = 0x8888


@dataclass(frozen=True, slots=True)
class BatchTables:
    card_code: I64  # (52,) packed rank/suit code per card
    card_mask: I64  # (52,) 1 << (16 * suit + rank - 2)
    low_map: npt.NDArray[np.int32]  # low base-5 part -> row offset
    high_map: npt.NDArray[np.int32]  # high base-5 part -> column
    nonflush: npt.NDArray[np.int16]  # row offset + column -> best non-flush rank
    flush: npt.NDArray[np.int16]  # 13-bit mask -> best flush rank
    flush_suit: npt.NDArray[np.int8]  # (flush bits >> 3) -> suit
    rank_category: npt.NDArray[np.int8]  # dense rank -> Category


@functools.cache
def batch_tables() -> BatchTables:
    """Lay the scalar tables out as NumPy arrays (once)."""
    t = tables()
    lows = sorted({code % LOW_BASE for code in t.nonflush})
    highs = sorted({code // LOW_BASE for code in t.nonflush})
    low_map = np.zeros(LOW_BASE, dtype=np.int32)
    high_map = np.zeros(5 ** (13 - LOW_RANKS), dtype=np.int32)
    for i, lo in enumerate(lows):
        low_map[lo] = i * len(highs)
    for j, hi in enumerate(highs):
        high_map[hi] = j
    nonflush = np.zeros(len(lows) * len(highs), dtype=np.int16)
    for code, value in t.nonflush.items():
        nonflush[low_map[code % LOW_BASE] + high_map[code // LOW_BASE]] = value

    card_code = np.zeros(52, dtype=np.int64)
    card_mask = np.zeros(52, dtype=np.int64)
    for i in range(52):
        r, s = divmod(i, 4)
        digit = 5**r if r < LOW_RANKS else (5 ** (r - LOW_RANKS)) << HIGH_SHIFT
        card_code[i] = digit | (1 << (SUIT_SHIFT + 4 * s))
        card_mask[i] = 1 << (16 * s + r)
    flush_suit = np.zeros((FLUSH_BITS >> 3) + 1, dtype=np.int8)
    for s in range(4):
        flush_suit[1 << (4 * s)] = s
    rank_category = np.zeros(len(t.keys), dtype=np.int8)
    for c, start in enumerate(t.category_start):
        if start:
            rank_category[start:] = c
    return BatchTables(
        card_code=card_code,
        card_mask=card_mask,
        low_map=low_map,
        high_map=high_map,
        nonflush=nonflush,
        flush=np.asarray(t.flush, dtype=np.int16),
        flush_suit=flush_suit,
        rank_category=rank_category,
    )


def _check(cards: IntArray) -> None:
    if cards.ndim != 2 or cards.shape[1] not in (5, 6, 7):
        raise InvalidHand(f"need an (N, 5), (N, 6) or (N, 7) array, got shape {cards.shape}")
    if not np.issubdtype(cards.dtype, np.integer):
        raise InvalidHand(f"card indices must be integers, got {cards.dtype}")
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise InvalidHand("card index out of range 0..51 (the joker has no standard value)")


def _lookup(code: I64, mask_of_rows: npt.NDArray[np.intp] | None, cards: IntArray) -> I64:
    """Ranks from summed codes; ``cards`` supplies the rank masks of flush rows."""
    bt = batch_tables()
    idx = bt.low_map[code & LOW_MASK] + bt.high_map[(code >> HIGH_SHIFT) & HIGH_MASK]
    out: I64 = bt.nonflush[idx].astype(np.int64)
    probe = (((code >> SUIT_SHIFT) & 0xFFFF) + FLUSH_PROBE) & FLUSH_BITS
    rows = np.flatnonzero(probe) if mask_of_rows is None else mask_of_rows
    if rows.size:
        masks = bt.card_mask[cards[rows]].sum(axis=1)
        suit = bt.flush_suit[probe[rows] >> 3].astype(np.int64)
        out[rows] = bt.flush[(masks >> (16 * suit)) & 0x1FFF]
    return out


def rank_batch(cards: IntArray, *, validate: bool = True) -> I64:
    """Dense ranks of the best five of each row of ``cards`` (``(N, 5..7)`` indices).

    With ``validate`` (the default) a row holding the same card twice raises
    :class:`~games.poker.errors.InvalidHand`; simulations that build their own
    hands may pass ``validate=False`` to skip that check.
    """
    arr = np.asarray(cards)
    _check(arr)
    bt = batch_tables()
    code = np.zeros(arr.shape[0], dtype=np.int64)
    for j in range(arr.shape[1]):
        code += bt.card_code[arr[:, j]]
    if validate and arr.size:
        total = np.zeros(arr.shape[0], dtype=np.int64)
        union = np.zeros(arr.shape[0], dtype=np.int64)
        for j in range(arr.shape[1]):
            m = bt.card_mask[arr[:, j]]
            total += m
            union |= m
        bad = np.flatnonzero(total != union)
        if bad.size:
            raise InvalidHand(f"row {int(bad[0])} holds a card twice")
    return _lookup(code, None, arr)


def categories(ranks: IntArray) -> npt.NDArray[np.int8]:
    """The :class:`~games.poker.category.Category` value of each dense rank."""
    return batch_tables().rank_category[np.asarray(ranks)]


def combinations_array(n: int, k: int) -> npt.NDArray[np.int8]:
    """All k-subsets of ``range(n)`` in lexicographic order, as a ``(C(n, k), k)`` array.

    The subsets whose smallest element is at least ``s`` are a suffix of it.
    """
    if not 0 < k <= n <= 127:
        raise ValueError("need 0 < k <= n <= 127")
    # rows of the (k-1)-subsets of range(s+1, n), built from the top down
    prev = [np.arange(s, n, dtype=np.int8).reshape(-1, 1) for s in range(n + 1)]
    for width in range(2, k + 1):
        cur: list[npt.NDArray[np.int8]] = [np.zeros((0, width), dtype=np.int8)] * (n + 1)
        for s in range(n - width, -1, -1):
            tail = prev[s + 1]
            head = np.full((tail.shape[0], 1), s, dtype=np.int8)
            cur[s] = np.concatenate([np.hstack([head, tail]), cur[s + 1]])
        prev = cur
    out = prev[0]
    assert out.shape[0] == comb(n, k)
    return out


def exhaustive_counts7() -> dict[Category, int]:
    """Category counts over all 133,784,560 seven-card hands, by evaluating each."""
    return _by_category(exhaustive_histogram(7))


def exhaustive_counts6() -> dict[Category, int]:
    """Category counts of the best five of all 20,358,520 six-card sets."""
    return _by_category(exhaustive_histogram(6))


def exhaustive_histogram(k: int) -> I64:
    """How many of the C(52, k) sets (k = 5, 6 or 7) have each dense rank.

    Every set is evaluated: for each prefix of its ``k - 5`` lowest cards, the
    summed codes of the five-card sets above the prefix (a suffix of the
    lexicographic list) get the prefix's code added, then go through the tables.
    """
    if k not in (5, 6, 7):
        raise ValueError("k must be 5, 6 or 7")
    bt = batch_tables()
    fives = combinations_array(52, 5)
    first = fives[:, 0].astype(np.intp)
    start = np.searchsorted(first, np.arange(53), side="left")
    code5 = bt.card_code[fives].sum(axis=1)
    mask5 = bt.card_mask[fives].sum(axis=1)
    hist = np.zeros(len(bt.rank_category), dtype=np.int64)
    prefixes = [()] if k == 5 else [tuple(p) for p in combinations_array(47, k - 5).tolist()]
    for prefix in prefixes:
        lo = start[prefix[-1] + 1] if prefix else 0
        code = code5[lo:] + int(bt.card_code[list(prefix)].sum())
        idx = bt.low_map[code & LOW_MASK] + bt.high_map[(code >> HIGH_SHIFT) & HIGH_MASK]
        values = bt.nonflush[idx]
        probe = (((code >> SUIT_SHIFT) & 0xFFFF) + FLUSH_PROBE) & FLUSH_BITS
        rows = np.flatnonzero(probe)
        if rows.size:
            masks = mask5[lo:][rows] + int(bt.card_mask[list(prefix)].sum())
            suit = bt.flush_suit[probe[rows] >> 3].astype(np.int64)
            values[rows] = bt.flush[(masks >> (16 * suit)) & 0x1FFF]
        hist += np.bincount(values, minlength=len(hist))
    return hist


def exhaustive_counts5() -> dict[Category, int]:
    """Category counts over all 2,598,960 five-card hands."""
    return _by_category(np.bincount(rank_batch(combinations_array(52, 5), validate=False)))


def _by_category(hist: IntArray) -> dict[Category, int]:
    cats = batch_tables().rank_category[: len(hist)]
    return {c: int(np.asarray(hist)[cats == c].sum()) for c in Category}
