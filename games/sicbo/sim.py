"""Vectorised sic bo simulation (NumPy), for checking the exact figures, never for play.

Every bet is compiled once into a 216-entry table of its net result per roll (in whole
units: every Macau pay is whole-number-to-one), indexed by ``36*(a-1) + 6*(b-1) + (c-1)``;
a simulated round is one index drawn from a seeded ``numpy.random.Generator``.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from games.catalog import BetSimulation
from games.sicbo.bets import all_bet_names
from games.sicbo.odds import ROLLS, net
from games.sicbo.paytable import SicBoPaytable

Z999 = 3.2905267314919255
_CHUNK = 2_000_000


def value_tables(t: SicBoPaytable) -> tuple[npt.NDArray[np.int64], int, tuple[str, ...]]:
    """(bets x 216 table of net results in 1/scale units, scale, bet names)."""
    names = all_bet_names()
    values = [[net(n, d, t) for d in ROLLS] for n in names]
    scale = math.lcm(*(v.denominator for row in values for v in row))
    table = np.array([[int(v * scale) for v in row] for row in values], dtype=np.int64)
    return table, scale, names


def simulate_all(t: SicBoPaytable, rounds: int, seed: int) -> dict[str, BetSimulation]:
    """Every bet made once per round, all on the same ``rounds`` rolls."""
    table, scale, names = value_tables(t)
    rng = np.random.default_rng(seed)
    total = np.zeros(len(names), dtype=np.int64)
    total_sq = np.zeros(len(names), dtype=np.int64)
    left = rounds
    while left:
        n = min(left, _CHUNK)
        left -= n
        counts = np.bincount(rng.integers(0, 216, size=n), minlength=216).astype(np.int64)
        total += table @ counts
        total_sq += (table * table) @ counts
    out = {}
    for i, name in enumerate(names):
        mean = int(total[i]) / (rounds * scale)
        var = max(int(total_sq[i]) / (rounds * scale * scale) - mean * mean, 0.0)
        se = math.sqrt(var / rounds)
        out[name] = BetSimulation(
            rounds=rounds,
            mean=mean,
            std_error=se,
            ci_low=mean - Z999 * se,
            ci_high=mean + Z999 * se,
        )
    return out
