"""Vectorised roulette simulation (NumPy), for checking the exact figures, never for play.

Each bet is compiled into a table of its net result per pocket (in halves of the stake, so
la partage stays integral); a simulated round is one pocket drawn uniformly from a seeded
``numpy.random.Generator``, and every bet is settled on the same spins.
"""

from __future__ import annotations

import math

import numpy as np

from games.catalog import BetSimulation
from games.roulette.layout import layout_for
from games.roulette.paytable import RouletteRules
from games.roulette.rules import outcome

Z999 = 3.2905267314919255
_CHUNK = 2_000_000
_SCALE = 2


def simulate_all(rules: RouletteRules, rounds: int, seed: int) -> dict[str, BetSimulation]:
    layout = layout_for(rules.wheel.zeros)
    names = tuple(layout.bets)
    table = np.array(
        [[int(outcome(layout, rules, b, p)[1] * _SCALE) for p in layout.pockets] for b in names],
        dtype=np.int64,
    )
    rng = np.random.default_rng(seed)
    total = np.zeros(len(names), dtype=np.int64)
    total_sq = np.zeros(len(names), dtype=np.int64)
    left = rounds
    pockets = len(layout.pockets)
    while left:
        n = min(left, _CHUNK)
        left -= n
        counts = np.bincount(rng.integers(0, pockets, size=n), minlength=pockets)
        total += table @ counts.astype(np.int64)
        total_sq += (table * table) @ counts.astype(np.int64)
    out = {}
    for i, name in enumerate(names):
        mean = int(total[i]) / (rounds * _SCALE)
        var = max(int(total_sq[i]) / (rounds * _SCALE * _SCALE) - mean * mean, 0.0)
        se = math.sqrt(var / rounds)
        out[name] = BetSimulation(
            rounds=rounds,
            mean=mean,
            std_error=se,
            ci_low=mean - Z999 * se,
            ci_high=mean + Z999 * se,
        )
    return out
