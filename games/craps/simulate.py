"""Vectorised craps simulation (NumPy), for checking the exact figures, never for play.

Each bet is played ``rounds`` times from the moment it is made until it is settled,
each round on its own dice from a seeded ``numpy.random.Generator``. The bet's chain
(:func:`games.craps.exact.step`, the engine's own rules) is compiled into two small
tables indexed by (state, dice pair): the net result in integer units of
``1/scale`` of the stake, and the next state (-1 once settled). All live rounds then
advance one roll at a time as array operations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from games.core.engine import Variant
from games.core.figures import BetSimulation, SimulationResult
from games.craps.exact import PAIRS, State, starts, step, unit_value
from games.craps.paytable import CrapsPaytable
from games.craps.rules import CrapsRules

Z999 = 3.2905267314919255  # two-sided 99.9% normal quantile
_CHUNK = 1_000_000


@dataclass(frozen=True, slots=True)
class Chain:
    """A bet's compiled chain: values in 1/scale units, next-state table (-1 = settled)."""

    values: npt.NDArray[np.int64]  # shape (states, 36)
    nexts: npt.NDArray[np.int16]
    scale: int


def compile_chain(start: State, t: CrapsPaytable) -> Chain:
    """The chain of the bet made in ``start``, as value and next-state tables."""
    states: list[State] = [start]
    index = {start: 0}
    rows: list[list[tuple[Fraction, int]]] = []
    i = 0
    while i < len(states):
        row = []
        for pair in PAIRS:
            out, nxt = step(states[i], pair, t)
            if nxt is None:
                row.append((unit_value(states[i][0], out, t), -1))
                continue
            if nxt not in index:
                index[nxt] = len(states)
                states.append(nxt)
            row.append((Fraction(0), index[nxt]))
        rows.append(row)
        i += 1
    scale = math.lcm(*(v.denominator for row in rows for v, _ in row))
    values = np.array([[int(v * scale) for v, _ in row] for row in rows], dtype=np.int64)
    nexts = np.array([[n for _, n in row] for row in rows], dtype=np.int16)
    return Chain(values=values, nexts=nexts, scale=scale)


def play(chain: Chain, rounds: int, rng: np.random.Generator) -> tuple[int, int]:
    """Play ``rounds`` bets to settlement; return (sum, sum of squares) in 1/scale units."""
    total = 0
    total_sq = 0
    left = rounds
    while left:
        n = min(left, _CHUNK)
        left -= n
        state = np.zeros(n, dtype=np.int16)
        value = np.zeros(n, dtype=np.int64)
        live = np.arange(n)
        while live.size:
            pairs = rng.integers(0, 36, size=live.size, dtype=np.int16)
            s = state[live]
            value[live] += chain.values[s, pairs]
            nxt = chain.nexts[s, pairs]
            state[live] = nxt
            live = live[nxt >= 0]
        total += int(value.sum())
        total_sq += int(np.square(value, dtype=np.int64).sum())
    return total, total_sq


def summarise(total: int, total_sq: int, rounds: int, scale: int) -> BetSimulation:
    """Mean net per unit wagered with its standard error and 99.9% interval."""
    mean = total / (rounds * scale)
    var = max(total_sq / (rounds * scale * scale) - mean * mean, 0.0)
    se = math.sqrt(var / rounds) if rounds > 1 else math.inf
    return BetSimulation(
        rounds=rounds, mean=mean, std_error=se, ci_low=mean - Z999 * se, ci_high=mean + Z999 * se
    )


def simulate_bet(start: State, t: CrapsPaytable, rounds: int, seed: int) -> BetSimulation:
    """The bet made in ``start``, played ``rounds`` times on dice seeded by ``seed``."""
    chain = compile_chain(start, t)
    total, total_sq = play(chain, rounds, np.random.default_rng(seed))
    return summarise(total, total_sq, rounds, chain.scale)


def simulate(variant: Variant[CrapsRules], rounds: int, seed: int) -> SimulationResult:
    """Each bet made ``rounds`` times and played to settlement on seeded NumPy dice."""
    if rounds < 2:
        raise ValueError("simulate needs at least 2 rounds")
    t = variant.rules.paytable
    bets = {}
    for i, (name, start) in enumerate(starts().items()):
        bets[name] = simulate_bet(start, t, rounds, seed * 1000 + i)
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)
