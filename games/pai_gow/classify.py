"""Vectorised classification of many pai gow hands at once: the one NumPy copy of the rules.

:func:`best_five` gives each row of card bits the code of the best five-card kind it
holds (:data:`BEST_FIVE`), by the same rules as the scalar
:func:`games.pai_gow.bonus.bonus_hands`: rank counts and rank and suit bit masks, with
the joker joining the aces (ace-or-filler) or the largest rank group (wild), and
filling one gap of a straight, flush or straight flush. Two callers share it:

* :func:`classify_rows` (the simulator): ``(N, 7)`` card indices (52 is the joker), the
  rarely paid seven-card kinds laid over the best five (:data:`KINDS`);
* :func:`games.pai_gow.exact.joker_hand_counts`: every six-card set with the joker,
  counted by best five (the rare kinds are listed there one by one).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from games.poker.pai_gow_joker import JokerRule

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

#: the kinds of the best five cards, worst to best (a straight that also holds three of
#: a kind apart: trips pay more than a straight on page 003)
BEST_FIVE = (
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
)
#: every kind :func:`classify_rows` names: the best five, then the seven-card kinds
KINDS = (
    *BEST_FIVE,
    "seven-card-straight-flush-joker",
    "royal-flush-deuces",
    "seven-card-straight-flush",
)
CODE = {k: i for i, k in enumerate(KINDS)}


def _popcount(x: Ints) -> Ints:
    out = np.zeros_like(x)
    y = x.copy()
    while y.any():
        out += y & 1
        y >>= 1
    return out


@functools.cache
def tables() -> tuple[Ints, Ints, Ints]:
    """Over 13-bit rank masks: most ranks held in one straight's five (ace low counts),
    in one seven-rank run, and of ten to ace."""
    masks = np.arange(1 << 13, dtype=np.int64)
    ext = (masks << 1) | ((masks >> 12) & 1)
    five = np.max([_popcount((ext >> low) & 0b11111) for low in range(10)], axis=0)
    seven = np.max([_popcount((ext >> low) & 0b1111111) for low in range(8)], axis=0)
    royal = _popcount((masks >> 8) & 0b11111)
    return five, seven, royal


@dataclass(frozen=True, slots=True)
class Shape:
    """What :func:`best_five` found per row: the code, and per suit the rank mask and
    the cards held (the seven-card kinds are read from these)."""

    code: Ints
    suit_masks: tuple[Ints, ...]
    suit_held: tuple[Ints, ...]
    royal: Bools


def best_five(bits: Ints, suits: Ints, counts: Ints, j: Ints, joker: JokerRule) -> Shape:
    """The :data:`BEST_FIVE` code of each row.

    ``bits``: ``(N, k)`` rank bit of each card (0 for the joker); ``suits``: its suit
    (-1 for the joker); ``counts``: ``(N, 13)`` real cards per rank; ``j``: 1 where the
    row holds the joker, else 0.
    """
    n = len(bits)
    five_t, _, royal_t = tables()
    need = 5 - j
    straight = five_t[np.bitwise_or.reduce(bits, axis=1)] >= need
    flush, sflush, rflush = (np.zeros(n, dtype=bool) for _ in range(3))
    masks, helds = [], []
    for suit in range(4):
        in_suit = suits == suit
        mask = np.bitwise_or.reduce(np.where(in_suit, bits, 0), axis=1)
        held = in_suit.sum(axis=1)
        flush |= held + j >= 5
        sflush |= five_t[mask] >= need
        rflush |= royal_t[mask] >= need
        masks.append(mask)
        helds.append(held)
    top = counts.max(axis=1)
    pairs = (counts >= 2).sum(axis=1)
    aces = counts[:, 12]
    if joker is JokerRule.ACE_OR_FILLER:  # the joker is one more ace
        c1 = np.maximum(top, aces + j)
        pairs = pairs + ((j == 1) & (aces == 1))
        five = np.where(c1 == 5, CODE["five-aces"], -1)
    else:  # the wild joker joins the largest group
        c1 = top + j
        pairs = pairs + ((j == 1) & (top == 1))
        five = np.where(
            (top == 4) & (j == 1),
            np.where(aces == 4, CODE["five-aces"], CODE["five-of-a-kind"]),
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
    return Shape(code=code, suit_masks=tuple(masks), suit_held=tuple(helds), royal=rflush)


def classify_rows(cards: npt.ArrayLike, joker: JokerRule) -> Ints:
    """The :data:`KINDS` code of each seven-card row."""
    arr = np.asarray(cards, dtype=np.int64)
    n = len(arr)
    _, seven_t, _ = tables()
    is_joker = arr == 52
    j = is_joker.any(axis=1).astype(np.int64)
    r = np.where(is_joker, 0, arr >> 2)
    s = np.where(is_joker, -1, arr & 3)
    bits = np.where(is_joker, 0, np.int64(1) << r)
    rows = np.arange(n, dtype=np.int64)[:, None] * 13
    counts = np.bincount((rows + r)[~is_joker], minlength=n * 13).reshape(n, 13)
    shape = best_five(bits, s, counts, j, joker)
    seven_nat = np.zeros(n, dtype=bool)
    seven_jok = np.zeros(n, dtype=bool)
    for mask, held in zip(shape.suit_masks, shape.suit_held, strict=True):
        seven_nat |= (j == 0) & (seven_t[mask] == 7)
        seven_jok |= (j == 1) & (held == 6) & (seven_t[mask] == 6)
    code = shape.code
    code = np.where(seven_jok, CODE["seven-card-straight-flush-joker"], code)
    code = np.where(shape.royal & (counts[:, 0] == 2), CODE["royal-flush-deuces"], code)
    code = np.where(seven_nat, CODE["seven-card-straight-flush"], code)
    out: Ints = code
    return out
