"""Vectorised sic bo simulation (NumPy), for checking the exact figures, never for play.

Every bet is compiled once into a 216-entry table of its net result per roll (in whole
units: every Macau pay is whole-number-to-one), indexed by ``36*(a-1) + 6*(b-1) + (c-1)``;
a simulated round is one index drawn from a seeded ``numpy.random.Generator``, and every
bet is settled on the same rolls (:func:`games.sim.simulate_value_table`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from games.core.engine import Variant
from games.core.figures import SimulationResult
from games.sicbo.bets import all_bet_names
from games.sicbo.exact import ROLLS, net
from games.sicbo.rules import SicBoRules
from games.sim import simulate_value_table


def value_tables(t: SicBoRules) -> tuple[npt.NDArray[np.int64], int, tuple[str, ...]]:
    """(bets x 216 table of net results in 1/scale units, scale, bet names)."""
    names = all_bet_names()
    values = [[net(n, d, t) for d in ROLLS] for n in names]
    scale = math.lcm(*(v.denominator for row in values for v in row))
    table = np.array([[int(v * scale) for v in row] for row in values], dtype=np.int64)
    return table, scale, names


def simulate(variant: Variant[SicBoRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` rolls with every bet on each."""
    table, scale, names = value_tables(variant.rules)
    return simulate_value_table(variant.id, table, scale, names, rounds, seed)
