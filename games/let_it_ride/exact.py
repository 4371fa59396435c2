"""Exact returns of Let'Em Ride under the best strategy, by enumeration.

Every bet up is paid the same multiple ``m(hand)`` of its stake (``-1`` below a
pair of tens), so each decision stands alone: the first raise is worth making
exactly when ``E[m | three cards] > 0``, the second when ``E[m | four cards] > 0``,
and the ante always rides. Per unit of ante the best return is therefore

    E[m] + E[max(E[m | 3 cards], 0)] + E[max(E[m | 4 cards], 0)].

We value all C(52, 5) = 2,598,960 hands once (the shared batch evaluator), then
sum ``m`` into every three- and four-card subset of each hand with a
combinatorial (colex) index and ``np.bincount``: each three-card set collects
its C(49, 2) = 1,176 completions, each four-card set its 48. All sums are
integers (the pays are whole-number odds), so the result is an exact Fraction.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from games.let_it_ride.rules import RideRules
from games.poker.batch import combinations_array, rank_batch
from games.poker.rank5 import category

HANDS3, HANDS4, HANDS5 = comb(52, 3), comb(52, 4), comb(52, 5)


@functools.cache
def _all_hands() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    cards = combinations_array(52, 5).astype(np.int64)
    return cards, rank_batch(cards, validate=False)


def colex(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The colex index of each row of ascending card indices among all k-subsets."""
    k = cards.shape[1]
    table = np.array([[comb(n, j) for j in range(k + 1)] for n in range(52)], dtype=np.int64)
    out = np.zeros(len(cards), dtype=np.int64)
    for j in range(k):
        out += table[cards[:, j], j + 1]
    return out


def multiples(rules: RideRules) -> npt.NDArray[np.int64]:
    """``m`` per dense rank (index 0..7462): the win multiple, or -1."""
    out = np.full(7463, -1, dtype=np.int64)
    for r in range(rules.lowest_win, 7463):
        ratio = rules.pays[category(r)]
        if ratio.den != 1:
            raise ValueError("exact Let'Em Ride needs whole-number odds")
        out[r] = ratio.num
    return out


@functools.cache
def _tables(
    pays_key: tuple[tuple[int, int, int], ...], lowest: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    from games.core.money import Ratio
    from games.poker.category import Category

    rules = RideRules(pays={Category(c): Ratio(n, d) for c, n, d in pays_key}, lowest_win=lowest)
    cards, ranks = _all_hands()
    m = multiples(rules)[ranks]
    s3 = np.zeros(HANDS3, dtype=np.int64)
    for idx in combinations(range(5), 3):
        s3 += np.bincount(colex(cards[:, list(idx)]), weights=m, minlength=HANDS3).astype(np.int64)
    s4 = np.zeros(HANDS4, dtype=np.int64)
    for four in combinations(range(5), 4):
        s4 += np.bincount(colex(cards[:, list(four)]), weights=m, minlength=HANDS4).astype(np.int64)
    return s3, s4, int(m.sum())


def decision_sums(rules: RideRules) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """``(S3, S4, S5)``: sums of ``m`` over each 3-set's and 4-set's completions, and all hands."""
    key = tuple(sorted((int(c), r.num, r.den) for c, r in rules.pays.items()))
    return _tables(key, rules.lowest_win)


def raise_first(rules: RideRules, cards: list[int]) -> bool:
    """Best first decision for three card indices."""
    s3, _, _ = decision_sums(rules)
    return bool(s3[int(colex(np.array([sorted(cards)], dtype=np.int64))[0])] > 0)


def raise_second(rules: RideRules, cards: list[int]) -> bool:
    """Best second decision for four card indices (three own and the first community card)."""
    _, s4, _ = decision_sums(rules)
    return bool(s4[int(colex(np.array([sorted(cards)], dtype=np.int64))[0])] > 0)


def ante_return(rules: RideRules) -> Fraction:
    """Expected net per unit of ante (all three bets) under the best strategy."""
    s3, s4, s5 = decision_sums(rules)
    first = Fraction(int(np.maximum(s3, 0).sum()), HANDS3 * comb(49, 2))
    second = Fraction(int(np.maximum(s4, 0).sum()), HANDS4 * 48)
    return Fraction(s5, HANDS5) + first + second
