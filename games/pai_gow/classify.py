"""Vectorised bonus classification of many seven-card hands at once (for simulation).

Each row of an ``(N, 7)`` array of card indices (52 is the joker) gets the code
of the best-paying kind of hand it holds (:data:`KINDS`), by the same rules as
the scalar :func:`games.pai_gow.bonus.bonus_hands`: rank counts and rank and
suit bit masks, with the joker joining the aces (ace-or-filler) or the largest
rank group (wild), and filling one gap of a straight, flush or straight flush.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from games.poker.pai_gow_joker import JokerRule

KINDS = (
    "high-card",
    "pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
    "royal-flush",
    "five-of-a-kind",
    "five-aces",
    "straight+three-of-a-kind",
    "seven-card-straight-flush-joker",
    "royal-flush-deuces",
    "seven-card-straight-flush",
)
CODE = {k: i for i, k in enumerate(KINDS)}


def _popcount(x: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    out = np.zeros_like(x)
    y = x.copy()
    while y.any():
        out += y & 1
        y >>= 1
    return out


@functools.cache
def tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Over 13-bit rank masks: most ranks held in one straight's five (ace low counts),
    in one seven-rank run, and of ten to ace."""
    masks = np.arange(1 << 13, dtype=np.int64)
    ext = (masks << 1) | ((masks >> 12) & 1)
    five = np.max([_popcount((ext >> low) & 0b11111) for low in range(10)], axis=0)
    seven = np.max([_popcount((ext >> low) & 0b1111111) for low in range(8)], axis=0)
    royal = _popcount((masks >> 8) & 0b11111)
    return five, seven, royal


def classify_rows(cards: npt.ArrayLike, joker: JokerRule) -> npt.NDArray[np.int64]:
    """The :data:`KINDS` code of each seven-card row."""
    arr = np.asarray(cards, dtype=np.int64)
    n = len(arr)
    five_t, seven_t, royal_t = tables()
    is_joker = arr == 52
    j = is_joker.any(axis=1).astype(np.int64)
    r = np.where(is_joker, 0, arr >> 2)
    s = np.where(is_joker, -1, arr & 3)
    bits = np.where(is_joker, 0, np.int64(1) << r)
    rows = np.arange(n, dtype=np.int64)[:, None] * 13
    counts = np.bincount((rows + r)[~is_joker], minlength=n * 13).reshape(n, 13)
    need = 5 - j
    straight = five_t[np.bitwise_or.reduce(bits, axis=1)] >= need
    flush = np.zeros(n, dtype=bool)
    sflush = np.zeros(n, dtype=bool)
    rflush = np.zeros(n, dtype=bool)
    seven_nat = np.zeros(n, dtype=bool)
    seven_jok = np.zeros(n, dtype=bool)
    for suit in range(4):
        in_suit = s == suit
        mask = np.bitwise_or.reduce(np.where(in_suit, bits, 0), axis=1)
        held = in_suit.sum(axis=1)
        flush |= held + j >= 5
        sflush |= five_t[mask] >= need
        rflush |= royal_t[mask] >= need
        seven_nat |= (j == 0) & (seven_t[mask] == 7)
        seven_jok |= (j == 1) & (held == 6) & (seven_t[mask] == 6)
    top = counts.max(axis=1)
    if joker is JokerRule.ACE_OR_FILLER:
        counts[:, 12] += j
        c1 = counts.max(axis=1)
        pairs = (counts >= 2).sum(axis=1)
        five = np.where(c1 == 5, CODE["five-aces"], -1)
    else:
        c1 = top + j
        pairs = (counts >= 2).sum(axis=1) + ((j == 1) & (top == 1))
        five = np.where(
            (top == 4) & (j == 1),
            np.where(counts[:, 12] == 4, CODE["five-aces"], CODE["five-of-a-kind"]),
            -1,
        )
    group = np.select(
        [c1 >= 4, (c1 == 3) & (pairs >= 2), c1 == 3, pairs >= 2, c1 == 2],
        [
            CODE["four-of-a-kind"],
            CODE["full-house"],
            CODE["three-of-a-kind"],
            CODE["two-pair"],
            CODE["pair"],
        ],
        CODE["high-card"],
    )
    code = np.maximum.reduce(
        [
            group,
            five,
            np.where(straight, CODE["straight"], -1),
            np.where(flush, CODE["flush"], -1),
            np.where(sflush, CODE["straight-flush"], -1),
            np.where(rflush, CODE["royal-flush"], -1),
        ]
    )
    code = np.where((code == CODE["straight"]) & (c1 >= 3), CODE["straight+three-of-a-kind"], code)
    code = np.where(seven_jok, CODE["seven-card-straight-flush-joker"], code)
    code = np.where(rflush & (counts[:, 0] == 2), CODE["royal-flush-deuces"], code)
    code = np.where(seven_nat, CODE["seven-card-straight-flush"], code)
    out: npt.NDArray[np.int64] = code
    return out
