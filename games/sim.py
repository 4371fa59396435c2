"""Shared helpers for the families' simulators: a bet's mean return and its 99.9% interval.

Simulations are statistics, never money: they report the mean net result per
unit of initial wager as a float, with a normal-approximation confidence
interval (the rounds are independent and every bet's net is bounded, so the
central limit theorem applies at the round counts used).

>>> r = bet_statistics(1000, [(1.0, 490), (-1.0, 510)])
>>> round(r.mean, 3), r.rounds
(-0.02, 1000)
>>> r.ci_low < -0.02 < r.ci_high
True
>>> contains(r, Fraction(1, 50))
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from games.catalog import BetSimulation

#: two-sided 99.9% normal quantile (scipy.stats.norm.ppf(0.9995))
Z_999 = 3.2905267314919255


def bet_statistics(rounds: int, outcomes: Iterable[tuple[float, int]]) -> BetSimulation:
    """A bet whose net per unit is ``x`` in ``n`` of the ``rounds``, for each ``(x, n)``."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    pairs = list(outcomes)
    if sum(n for _, n in pairs) != rounds:
        raise ValueError("outcome counts must add up to the rounds")
    mean = sum(x * n for x, n in pairs) / rounds
    second = sum(x * x * n for x, n in pairs) / rounds
    return _result(rounds, mean, max(second - mean * mean, 0.0))


def from_samples(nets: npt.ArrayLike) -> BetSimulation:
    """A bet from one net result per round (per unit of initial wager)."""
    arr = np.asarray(nets, dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("need a non-empty one-dimensional array of nets")
    return _result(arr.size, float(arr.mean()), float(arr.var()))


def _result(rounds: int, mean: float, variance: float) -> BetSimulation:
    se = math.sqrt(variance / rounds)
    return BetSimulation(
        rounds=rounds,
        mean=mean,
        std_error=se,
        ci_low=mean - Z_999 * se,
        ci_high=mean + Z_999 * se,
    )


def contains(sim: BetSimulation, house_edge: Fraction) -> bool:
    """True if the exact return ``-house_edge`` lies in the simulation's 99.9% interval."""
    ret = -house_edge
    return Fraction(sim.ci_low) <= ret <= Fraction(sim.ci_high)
