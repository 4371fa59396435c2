"""What the families' simulators share: a bet's mean return with its 99.9% interval, and draws.

Simulations are statistics, never money: they report the mean net result per
unit of initial wager as a float, with a normal-approximation confidence
interval (the rounds are independent and every bet's net is bounded, so the
central limit theorem applies at the round counts used).

* :func:`bet_statistics`: a bet from (net per unit, rounds with that net) pairs.
* :func:`simulate_value_table`: every bet of a game whose one uniform outcome (a
  pocket, a roll of three dice) settles everything, from an integer table of nets per
  outcome (roulette, sic bo).
* :func:`draw_positions`: distinct card positions off the top of a full shoe
  (baccarat, Casino War).
* :func:`contains`: does an exact edge lie in a simulation's interval.

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
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from games.core.figures import BetSimulation, SimulationResult

#: two-sided 99.9% normal quantile (scipy.stats.norm.ppf(0.9995))
Z_999 = 3.2905267314919255
#: outcomes drawn per NumPy call by :func:`value_table_statistics`
VALUE_CHUNK = 2_000_000


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


def simulate_value_table(
    variant: str,
    table: npt.NDArray[np.int64],
    scale: int,
    names: Sequence[str],
    rounds: int,
    seed: int,
) -> SimulationResult:
    """Every bet made once per round, all on the same ``rounds`` uniform outcomes.

    ``table[i, k]`` is bet ``names[i]``'s net on outcome ``k`` in ``1/scale`` units of
    the stake (integers, so the sums are exact); each round is one outcome drawn
    uniformly from a NumPy generator seeded ``seed``.
    """
    if rounds < 2:
        raise ValueError("simulate needs at least 2 rounds")
    outcomes = table.shape[1]
    rng = np.random.default_rng(seed)
    total = np.zeros(len(names), dtype=np.int64)
    total_sq = np.zeros(len(names), dtype=np.int64)
    left = rounds
    while left:
        n = min(left, VALUE_CHUNK)
        left -= n
        counts = np.bincount(rng.integers(0, outcomes, size=n), minlength=outcomes)
        total += table @ counts.astype(np.int64)
        total_sq += (table * table) @ counts.astype(np.int64)
    out = {}
    for i, name in enumerate(names):
        mean = int(total[i]) / (rounds * scale)
        var = max(int(total_sq[i]) / (rounds * scale * scale) - mean * mean, 0.0)
        out[name] = _result(rounds, mean, var)
    return SimulationResult(variant=variant, rounds=rounds, seed=seed, bets=out)


def draw_positions(
    rng: np.random.Generator, n: int, cards: int, shoe_size: int
) -> npt.NDArray[np.int16]:
    """``n`` rows of ``cards`` distinct positions in a shoe of ``shoe_size`` (uniform).

    Rows that drew the same physical card twice are drawn again: rejection keeps every
    ordered sequence of distinct cards equally likely, as dealing off a shuffled shoe.
    """
    out = rng.integers(0, shoe_size, size=(cards, n), dtype=np.int16)
    while True:
        bad = np.zeros(n, dtype=bool)
        for i in range(cards):
            for j in range(i + 1, cards):
                bad |= out[i] == out[j]
        nbad = int(np.count_nonzero(bad))
        if not nbad:
            return out
        out[:, bad] = rng.integers(0, shoe_size, size=(cards, nbad), dtype=np.int16)


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
