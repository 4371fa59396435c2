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
* :func:`deal_cards` and :func:`simulate_batches`: rows of cards off a shuffled deck,
  and the batch loop that tallies each bet's nets (the poker families).

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
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
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


# --- the card games' batch simulators ---------------------------------------------------


def deal_cards(rng: np.random.Generator, n: int, k: int) -> npt.NDArray[np.int64]:
    """``n`` rows of ``k`` distinct card indices (0..51), uniform over ordered deals.

    The cards with the ``k`` smallest of 52 uniform keys, in key order: the
    first ``k`` cards of a uniformly shuffled deck.
    """
    keys = rng.random((n, 52))
    subset = np.argpartition(keys, k, axis=1)[:, :k]
    order = np.argsort(np.take_along_axis(keys, subset, axis=1), axis=1)
    return np.take_along_axis(subset, order, axis=1).astype(np.int64)


#: one batch of a simulation: (the generator, rows) -> bet -> net per unit, one per row
Batch = Callable[[np.random.Generator, int], Mapping[str, npt.NDArray[np.float64]]]


def simulate_batches(
    variant: str, rounds: int, seed: int, batch: int, nets: Batch
) -> SimulationResult:
    """Run ``nets`` on batches of at most ``batch`` rows until ``rounds`` rows, then tally.

    Each bet's nets are counted by value (a bet's net takes few values), so the
    statistics are :func:`bet_statistics` of the counts, bets in the order first seen.
    """
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rng = np.random.default_rng(seed)
    tallies: dict[str, Counter[float]] = {}
    done = 0
    while done < rounds:
        n = min(batch, rounds - done)
        for bet, net in nets(rng, n).items():
            values, counts = np.unique(net, return_counts=True)
            tally = tallies.setdefault(bet, Counter())
            tally.update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
        done += n
    bets = {b: bet_statistics(rounds, list(t.items())) for b, t in tallies.items()}
    return SimulationResult(variant=variant, rounds=rounds, seed=seed, bets=bets)
