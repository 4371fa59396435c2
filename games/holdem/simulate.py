"""Vectorised Monte Carlo of the hold'em games (statistics only, never used for play).

Each round deals nine distinct cards: the player's two, the dealer's two, five
community cards. The player follows :mod:`games.holdem.strategy`. Nets are per
unit of ante for ``ante`` (Pinnacle: ante and call; UTH: ante, blind and play)
and per unit of the side bet for ``bonus`` (lost on a fold) and ``trips`` (on a fold
scored on the board alone, :mod:`games.holdem.trips`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from games.core.engine import Variant
from games.core.figures import SimulationResult, SimulationRun
from games.core.money import Ratio
from games.core.shipped import entry, shipped_run
from games.holdem.rules import HoldemRules
from games.holdem.strategy import casino_call, uth_flop, uth_preflop, uth_river
from games.holdem.trips import trips_nets
from games.poker.batch import categories, rank_batch
from games.poker.category import Category
from games.sim import deal_cards, simulate_batches

BATCH = 250_000
F64 = npt.NDArray[np.float64]


def _table(pays: Mapping[Category, Ratio], missing: float) -> F64:
    out = np.full(11, missing)
    for cat, r in pays.items():
        out[cat] = r.num / r.den
    return out


def casino_nets(rules: HoldemRules, cards: npt.NDArray[np.int64]) -> dict[str, F64]:
    hole, dealer, board = cards[:, :2], cards[:, 2:4], cards[:, 4:9]
    call = casino_call(hole, board[:, :3])
    p = rank_batch(np.concatenate([hole, board], axis=1), validate=False)
    d = rank_batch(np.concatenate([dealer, board], axis=1), validate=False)
    ante = _table(rules.ante_pays, 0.0)[categories(p)]
    m = rules.call_multiple
    value = np.where(
        d < rules.qualifier, ante, np.where(p > d, ante + m, np.where(p < d, -1.0 - m, 0.0))
    )
    first = rank_batch(np.concatenate([hole, board[:, :3]], axis=1), validate=False)
    cats = categories(first)
    bonus = _table(rules.bonus, -1.0)[cats]
    if rules.bonus_pair_of_aces is not None:
        aces = (cats == Category.PAIR) & _pair_of_aces(np.concatenate([hole, board[:, :3]], axis=1))
        r = rules.bonus_pair_of_aces
        bonus = np.where(aces, r.num / r.den, bonus)
    return {"ante": np.where(call, value, -1.0), "bonus": np.where(call, bonus, -1.0)}


def _pair_of_aces(five: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    out: npt.NDArray[np.bool_] = (five // 4 == 12).sum(axis=1) == 2
    return out


def ultimate_nets(rules: HoldemRules, cards: npt.NDArray[np.int64]) -> dict[str, F64]:
    hole, dealer, board = cards[:, :2], cards[:, 2:4], cards[:, 4:9]
    mult = np.where(uth_preflop(hole), 4.0, 0.0)
    rest = np.flatnonzero(mult == 0)
    mult[rest] = np.where(uth_flop(hole[rest], board[rest, :3]), 2.0, 0.0)
    rest = rest[mult[rest] == 0]
    mult[rest] = np.where(uth_river(hole[rest], board[rest]), 1.0, 0.0)
    p = rank_batch(np.concatenate([hole, board], axis=1), validate=False)
    d = rank_batch(np.concatenate([dealer, board], axis=1), validate=False)
    cats = categories(p)
    qual = (d >= rules.qualifier).astype(np.float64)
    blind = _table(rules.blind, 0.0)[cats]
    win = mult + qual + blind
    lose = -mult - qual - 1.0
    value = np.where(p > d, win, np.where(p < d, lose, 0.0))
    return {
        "ante": np.where(mult > 0, value, -2.0),
        "trips": trips_nets(rules, hole, board, folded=mult == 0),
    }


def simulate(variant: Variant[HoldemRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` rounds of every bet, the player following the documented play."""
    rules = variant.rules
    nets_of = casino_nets if rules.style == "casino" else ultimate_nets

    def nets(rng: np.random.Generator, n: int) -> dict[str, F64]:
        return nets_of(rules, deal_cards(rng, n, 9))

    return simulate_batches(variant.id, rounds, seed, BATCH, nets)


def figure_rules(rules: HoldemRules) -> dict[str, Any]:
    """Everything in the rules a simulated figure depends on, as plain data (a shipped
    run's key)."""

    def pays(table: Mapping[Category, Ratio]) -> dict[str, str]:
        return {c.name.lower(): str(r) for c, r in sorted(table.items())}

    return {
        "style": rules.style,
        "qualifier": rules.qualifier,
        "call_multiple": rules.call_multiple,
        "ante_pays": pays(rules.ante_pays),
        "bonus": pays(rules.bonus),
        "bonus_pair_of_aces": str(rules.bonus_pair_of_aces) if rules.bonus_pair_of_aces else None,
        "blind": pays(rules.blind),
        "trips": pays(rules.trips),
    }


#: the package whose ``simulated.json`` holds the shipped runs, their seed and command
DATA = "games.holdem.data"
SHIP_SEED = 20261130
BUILT_BY = "python bench/bench_holdem_best.py --rounds 100000000 --write-data"


def ship_entries(variant: Variant[HoldemRules], rounds: int, seed: int = SHIP_SEED) -> Any:
    """The ``simulated.json`` entries (``<variant>/<bet>``) of a ``rounds``-round run."""
    sim = simulate(variant, rounds, seed)
    built_by = BUILT_BY if rounds == 100_000_000 else f"{BUILT_BY} (rounds {rounds})"
    return {
        f"{variant.id}/{bet}": entry(
            SimulationRun.of(b, seed, built_by), figure_rules(variant.rules)
        )
        for bet, b in sim.bets.items()
    }


def shipped_runs(variant: Variant[HoldemRules], bets: tuple[str, ...]) -> dict[str, SimulationRun]:
    """The shipped runs of ``bets`` made under ``variant``'s rules ({} unless all are)."""
    rules = figure_rules(variant.rules)
    runs = {b: shipped_run(DATA, f"{variant.id}/{b}", rules) for b in bets}
    return {b: r for b, r in runs.items() if r is not None} if all(runs.values()) else {}
