"""Blackjack: Pinnacle ($500), Pinnacle High Stakes ($5,000) and 21st Century with Buster Bet.

The family-module contract of :mod:`games.catalog`:

``VARIANTS``
    the three tables, loaded and validated from ``paytables/*.toml`` (``spec = 1``; each
    names its rules page; gaps filled by a standard rule are listed in the table's ``notes``).
``new_game(variant, seats=1, *, context)``
    a fresh :class:`~games.blackjack.engine.BlackjackRound` (nothing carries over).
``house_edge(variant)``
    ``main`` (Pinnacle tables: recursive composition-dependent analysis of the basic-strategy
    chart, float64, ``exact=False, analysis=True``, checked by a shipped 10^7-round
    simulation; 21st Century: the shipped 10^7-round simulation of its chart,
    ``exact=False``; both from ``data/simulated.json``), ``insurance`` (exact) and
    ``buster`` (exact, 21st Century): :mod:`games.blackjack.exact`.
``simulate(variant, rounds, seed)``
    the vectorised NumPy simulator (:mod:`games.blackjack.simulate`).
``autoplay(engine, seat)``
    the scripted player of :mod:`games.blackjack.autoplay`: minimum bet, no insurance,
    then the table's strategy chart (``paytables/strategies/*.toml``).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from games.blackjack.autoplay import autoplay
from games.blackjack.engine import BlackjackRound
from games.blackjack.exact import buster_edge, insurance_edge, main_edge
from games.blackjack.rules import BlackjackRules, load_variants
from games.blackjack.simulate import main_run, simulate
from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge, SimulationRun
from games.core.player_dealer import rotation_from

VARIANTS: tuple[Variant[BlackjackRules], ...] = load_variants()

#: rounds and seed of the on-the-fly simulation of a main bet with no shipped run
MAIN_SIM_ROUNDS = 2_000_000
MAIN_SIM_SEED = 20261130

__all__ = [
    "MAIN_SIM_ROUNDS",
    "MAIN_SIM_SEED",
    "VARIANTS",
    "BlackjackRound",
    "BlackjackRules",
    "autoplay",
    "house_edge",
    "new_game",
    "simulate",
]


def new_game(
    variant: Variant[BlackjackRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> BlackjackRound:
    """A fresh round; on 21st Century Blackjack the Player/Dealer rotation comes from
    ``context.previous`` (the table's last round) or ``context.carry`` (as logged)."""
    start = rotation_from(context, BlackjackRound, variant.id, seats)
    return BlackjackRound(variant, seats, carry=start)


def _strategy(rules: BlackjackRules) -> str:
    return (
        f"the {rules.strategy} chart (paytables/strategies/{rules.strategy.replace('-', '_')}"
        ".toml), flat bet, no insurance"
    )


def _main_edge(variant: Variant[BlackjackRules]) -> HouseEdge:
    """The main bet: the chart's analysis where the rules allow it, else the shipped
    10^7-round simulation (a shorter one on the fly when no shipped run fits the rules)."""
    rules = variant.rules
    run = main_run(variant)
    analysable = (
        rules.surrender_min_total is None and not rules.bust_push_totals and rules.max_hands <= 2
    )
    if analysable:
        return HouseEdge(
            edge=Fraction(round(main_edge(rules) * 10**9), 10**9),
            exact=False,
            analysis=True,
            method="recursive composition-dependent analysis of the strategy chart, float64",
            note="not exact: the dealer's cards are drawn from the shoe less the player's "
            "first two cards and the up card only (not the player's draws), given no dealer "
            "natural; the simulation checks it",
            strategy=_strategy(rules),
            simulation=run,
        )
    if run is None:
        sim = simulate(variant, MAIN_SIM_ROUNDS, MAIN_SIM_SEED).bets["main"]
        run = SimulationRun.of(sim, MAIN_SIM_SEED)
    return HouseEdge(
        edge=run.edge,
        exact=False,
        method="simulation of the strategy chart",
        note="not exact: surrender, the bust pushes and up to four hands leave no count "
        "small enough; insurance and the Buster Bet are exact",
        strategy=_strategy(rules),
        simulation=run,
    )


@functools.cache
def _edges(variant_id: str) -> dict[str, HouseEdge]:
    variant = next(v for v in VARIANTS if v.id == variant_id)
    rules = variant.rules
    out = {"main": _main_edge(variant)}
    out["insurance"] = HouseEdge(
        edge=insurance_edge(rules),
        exact=True,
        method="enumeration of the player's two cards and the hole card over the shoe less "
        "the dealer's ace",
        note="per unit of insurance wagered",
    )
    if rules.buster:
        out["buster"] = HouseEdge(
            edge=buster_edge(rules),
            exact=True,
            method="enumeration of every dealer drawing sequence from a full shoe",
            note="the player's cards are not removed (side-bet convention)",
        )
    return out


def house_edge(variant: Variant[BlackjackRules]) -> dict[str, HouseEdge]:
    """House edge of each bet (positive favours the house), per unit of that bet."""
    return dict(_edges(variant.id))
