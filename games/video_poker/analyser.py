"""The exact return of a 52-card video poker pay table under best holds.

The method is the standard one (the published analysers of "Jazbo" and the Wizard
of Odds): counts of final hands for every subset of the deck, then inclusion-exclusion
per deal.

1. Every one of the 2,598,960 five-card hands is classified once
   (:func:`games.video_poker.classes.classify`) and mapped to its pay line.
2. :class:`SubsetCounts`: for every subset ``S`` of 0..4 cards, how many five-card
   hands of each line contain ``S`` (``C(52, k)`` rows per size, ~290,000 rows in all;
   a five-card subset is the hand itself).
3. A deal ``D`` held at ``H`` draws ``5 - |H|`` of the 47 unseen cards; the final hands
   are those that contain ``H`` and none of the discards ``D \\ H``, so their line
   counts are ``sum over T in D \\ H of (-1)^|T| * N(H + T)``: the 32 subset rows of a
   deal times one fixed 32 x 32 matrix of signs (:data:`SIGNS`) give all 32 holds'
   outcome counts at once.
4. Deals are taken one per suit class (134,459 of them, each weighted by the number
   of deals it stands for): a hold's value does not change when suits are renamed.

Every value is an integer: a hold keeping ``k`` cards has ``C(47, 5 - k)`` draws, and
values are compared as numerators over :data:`DRAW_LCM` (the least common multiple of
those draw counts), so the best hold and the return are exact.

Ties between holds of equal value take the first in :data:`HOLD_ORDER`: more cards
held first, then the hold whose held positions come first in dealt order.

>>> from games.video_poker.pays import JACKS_OR_BETTER_9_6
>>> a = analyse(JACKS_OR_BETTER_9_6, 5)  # doctest: +SKIP
>>> float(a.expected_return)  # doctest: +SKIP
0.995439...
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm

import numpy as np
import numpy.typing as npt

from games.core.cards import Card
from games.poker.batch import combinations_array
from games.video_poker.classes import Wild, classify, line_of_class
from games.video_poker.pays import PayTable

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

#: all five-card deals from 52 cards
DEALS = comb(52, 5)
#: draws after holding k cards: C(47, 5 - k)
DRAWS: tuple[int, ...] = tuple(comb(47, 5 - k) for k in range(6))
#: the common denominator of hold values (7,669,695)
DRAW_LCM = lcm(*DRAWS)
#: C(n, k) for n < 53, k < 6: the combinatorial number system
BIN: I64 = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)

POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(5) if m >> i & 1) for m in range(32)
)
POPCOUNT: I64 = np.array([len(p) for p in POSITIONS], dtype=np.int64)
#: SIGNS[h, m] = (-1)^(|m| - |h|) when hold h is inside subset m, else 0
SIGNS: F64 = np.array(
    [
        [(-1.0) ** (POPCOUNT[m] - POPCOUNT[h]) if h & m == h else 0.0 for m in range(32)]
        for h in range(32)
    ]
)
#: each hold's value times this is its numerator over DRAW_LCM
SCALE: I64 = np.array([DRAW_LCM // DRAWS[k] for k in POPCOUNT], dtype=np.int64)
#: hold masks in tie-break order: more cards held, then earlier positions held
HOLD_ORDER: tuple[int, ...] = tuple(
    sorted(range(32), key=lambda m: (-len(POSITIONS[m]), POSITIONS[m]))
)
_ORDER = np.array(HOLD_ORDER, dtype=np.int64)


def colex(cards: npt.NDArray[np.integer]) -> I64:
    """The combinatorial (colex) number of each row of ascending card indices."""
    c = np.asarray(cards, dtype=np.int64)
    out = np.zeros(c.shape[:-1], dtype=np.int64)
    for i in range(c.shape[-1]):
        out += BIN[c[..., i], i + 1]
    return out


@functools.cache
def all_hands() -> I64:
    """All 2,598,960 hands as ascending rows, row ``i`` the hand of colex number ``i``."""
    hands = combinations_array(52, 5).astype(np.int64)
    out = np.empty_like(hands)
    out[colex(hands)] = hands
    return out


@functools.cache
def hand_classes(wild: Wild) -> npt.NDArray[np.int8]:
    """The class of every hand, indexed by colex number."""
    return classify(all_hands(), wild)


@functools.cache
def suit_classes() -> tuple[I64, I64]:
    """One (ascending) hand per suit class (134,459) and how many deals each stands for.

    Renaming suits permutes a hand's four 13-bit suit masks, so the masks sorted and
    packed are one key per class.
    """
    c = all_hands()
    rank_bit = np.int64(1) << (c >> 2)
    masks = np.stack([np.where(c & 3 == s, rank_bit, 0).sum(axis=1) for s in range(4)], axis=1)
    masks.sort(axis=1)
    key = (masks << (13 * np.arange(4, dtype=np.int64))).sum(axis=1)
    _, first, weight = np.unique(key, return_index=True, return_counts=True)
    return c[first], weight.astype(np.int64)


@dataclass(frozen=True, slots=True)
class SubsetCounts:
    """Line counts of the five-card hands containing each subset of 0..4 cards.

    ``rows[k][colex(S)]`` has one column per line of ``keys`` and a last column for
    hands no line pays; ``final[colex(hand)]`` is the line of each five-card hand.
    """

    wild: Wild
    keys: tuple[str, ...]
    rows: tuple[I32, ...]
    final: npt.NDArray[np.int8]

    @property
    def width(self) -> int:
        """Columns per row: the lines and the unpaid column."""
        return len(self.keys) + 1


@functools.cache
def subset_counts(wild: Wild, keys: tuple[str, ...]) -> SubsetCounts:
    """Build (once per deck rule and line list) the subset counts; ~2 s."""
    width = len(keys) + 1
    line = line_of_class(wild, keys)[hand_classes(wild)]
    hands = all_hands()
    rows = []
    for k in range(5):
        total = np.zeros(comb(52, k) * width, dtype=np.int64)
        for pos in itertools.combinations(range(5), k):
            sub = colex(hands[:, list(pos)]) if k else np.zeros(hands.shape[0], dtype=np.int64)
            total += np.bincount(sub * width + line, minlength=total.size)
        rows.append(total.reshape(-1, width).astype(np.int32))
    return SubsetCounts(wild, keys, tuple(rows), line.astype(np.int8))


def hold_counts(counts: SubsetCounts, hands: I64) -> I64:
    """Outcome counts ``(n, 32, width)`` of every hold (bit i: position i held) of each hand.

    ``hands`` are ``(n, 5)`` ascending distinct card indices.
    """
    n = hands.shape[0]
    width = counts.width
    sub = np.empty((32, n, width), dtype=np.float64)
    for m, pos in enumerate(POSITIONS):
        k = len(pos)
        if k == 5:
            sub[m] = np.eye(width)[counts.final[colex(hands)]]
        elif k == 0:
            sub[m] = counts.rows[0][0]
        else:
            sub[m] = counts.rows[k][colex(hands[:, list(pos)])]
    out = SIGNS @ sub.reshape(32, -1)  # exact: every term is an integer below 2^53
    return np.rint(out).astype(np.int64).reshape(32, n, width).transpose(1, 0, 2)


def best_of(values: I64) -> I64:
    """The best hold mask of each row of scaled values ``(n, 32)``, ties by HOLD_ORDER."""
    out: I64 = _ORDER[np.argmax(values[:, _ORDER], axis=1)]
    return out


@dataclass(frozen=True, slots=True)
class Analysis:
    """The exact result of one pay table at one coin count under best holds.

    ``hands[i]`` (ascending card indices) stands for ``weights[i]`` deals; ``best[i]``
    is its best hold mask and ``value[i]`` that hold's pay in coins times
    :data:`DRAW_LCM`. ``outcomes[j]`` counts final hands on line ``j`` (last: unpaid)
    over all deals, in units of ``1 / (DEALS * DRAW_LCM)``.
    """

    table: PayTable
    coins: int
    hands: I64
    weights: I64
    best: I64
    value: I64
    outcomes: tuple[int, ...]

    @property
    def expected_return(self) -> Fraction:
        """Coins returned per coin bet, under best holds."""
        total = int((self.weights * self.value).sum(dtype=np.int64))
        return Fraction(total, DEALS * DRAW_LCM * self.coins)

    def table_rows(self) -> Iterator[tuple[str, str, int, Fraction]]:
        """The best-hold table: each suit class's deal, the cards it keeps, deals, value.

        Cards read ``"As Ks Qs Js 3c"`` (ascending index); the value is in coins.
        """
        for hand, weight, mask, value in zip(
            self.hands, self.weights, self.best, self.value, strict=True
        ):
            cards = [Card.from_index(int(c)) for c in hand]
            kept = " ".join(str(cards[i]) for i in POSITIONS[int(mask)]) or "-"
            yield " ".join(str(c) for c in cards), kept, int(weight), Fraction(int(value), DRAW_LCM)

    def probabilities(self) -> dict[str, Fraction]:
        """The probability of finishing on each line (``"nothing"``: no line pays)."""
        names = (*self.table.keys, "nothing")
        return {n: Fraction(c, DEALS * DRAW_LCM) for n, c in zip(names, self.outcomes, strict=True)}


def analyse(table: PayTable, coins: int, chunk: int = 8192, holds: I64 | None = None) -> Analysis:
    """Every deal x every hold of ``table`` with ``coins`` bet, by suit class.

    With ``holds`` (one mask per suit class, e.g. another table's ``best``) those holds
    are played instead of this table's best ones: what ignoring a Mystery stop costs.
    """
    pays = np.array([*table.pays(coins), 0], dtype=np.int64)
    counts = subset_counts(table.wild, table.keys)
    hands, weights = suit_classes()
    best = np.empty(hands.shape[0], dtype=np.int64)
    value = np.empty(hands.shape[0], dtype=np.int64)
    outcomes = np.zeros(counts.width, dtype=np.int64)
    for lo in range(0, hands.shape[0], chunk):
        part = slice(lo, lo + chunk)
        c = hold_counts(counts, hands[part])
        scaled = (c @ pays) * SCALE
        b = best_of(scaled) if holds is None else holds[part]
        best[part] = b
        rows = np.arange(b.size)
        value[part] = scaled[rows, b]
        outcomes += (c[rows, b] * (SCALE[b] * weights[part])[:, None]).sum(axis=0)
    return Analysis(table, coins, hands, weights, best, value, tuple(int(x) for x in outcomes))


@functools.cache
def cached_analysis(table: PayTable, coins: int) -> Analysis:
    """:func:`analyse`, kept per (table, coins) for the figures asked again."""
    return analyse(table, coins)


def table_return(table: PayTable, coins: int) -> Fraction:
    """The exact return of ``table`` at ``coins`` under best holds (cached per table)."""
    return cached_analysis(table, coins).expected_return
