"""Vectorised roulette simulation (NumPy), for checking the exact figures, never for play.

Each bet is compiled into a table of its net result per pocket (in halves of the stake, so
la partage stays integral); a simulated round is one pocket drawn uniformly from a seeded
``numpy.random.Generator``, and every bet is settled on the same spins
(:func:`games.sim.simulate_value_table`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from games.core.engine import Variant
from games.core.figures import SimulationResult
from games.roulette.layout import layout_for
from games.roulette.rules import RouletteRules, outcome
from games.sim import simulate_value_table

SCALE = 2  # nets in halves of the stake


def value_table(rules: RouletteRules) -> tuple[npt.NDArray[np.int64], tuple[str, ...]]:
    """(bets x pockets table of net results in halves of the stake, bet names)."""
    layout = layout_for(rules.wheel.zeros)
    names = tuple(layout.bets)
    table = np.array(
        [[int(outcome(layout, rules, b, p)[1] * SCALE) for p in layout.pockets] for b in names],
        dtype=np.int64,
    )
    return table, names


def simulate(variant: Variant[RouletteRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` spins with every bet of the variant's wheel on each."""
    table, names = value_table(variant.rules)
    return simulate_value_table(variant.id, table, SCALE, names, rounds, seed)
