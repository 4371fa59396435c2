"""Pinnacle Hold'em (page 000 + README gap 2, Casino Hold'em) and Ultimate Texas Hold'em (page 004).

The family contract (:mod:`games.catalog`):

``VARIANTS``: ``pinnacle-holdem`` and ``ultimate-texas-holdem`` (``paytables/*.toml``).
``new_game(variant, seats=1, *, context=NEW_TABLE)``: a :class:`~games.holdem.engine.HoldemRound`.
``house_edge(variant)``: ``ante`` per unit of ante (Pinnacle: ante and call; UTH:
ante, blind and play), ``bonus`` (Pinnacle, lost on a fold) and ``trips`` (UTH) per
unit of the side bet. Pinnacle Hold'em by simulation of the documented strategy
(:mod:`games.holdem.strategy`; exact=False). Ultimate Texas Hold'em exact: ``ante``
under best play (:mod:`games.holdem.uth_exact`, every decision from exact values),
``trips`` by a count over the seven-card hands (:mod:`games.holdem.trips`; on a fold
it is scored on the board alone, which changes no pay under best play or the
documented strategy).
``simulate(variant, rounds, seed)``: :mod:`games.holdem.simulate`.
``autoplay(engine, seat)``: :mod:`games.holdem.autoplay`.

Decision names: Pinnacle Hold'em ``call`` / ``fold``; Ultimate Texas Hold'em
``bet-4x`` / ``bet-3x`` / ``check`` preflop, ``bet-2x`` / ``check`` on the flop,
``bet-1x`` / ``fold`` on the river.
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge, SimulationRun
from games.core.player_dealer import rotation_from
from games.holdem.autoplay import autoplay
from games.holdem.engine import HoldemRound
from games.holdem.rules import PACKAGED, HoldemRules, load_packaged
from games.holdem.simulate import shipped_runs, simulate
from games.holdem.trips import trips_edge
from games.holdem.uth_exact import DEALS, fingerprint, packaged_result

VARIANTS: tuple[Variant[HoldemRules], ...] = tuple(load_packaged(name) for name in PACKAGED)

#: rounds (by game style) and seed of the simulation behind :func:`house_edge`; casino
#: hold'em's ante varies a lot round to round, so it gets ten times the rounds
EDGE_ROUNDS: dict[str, int] = {"casino": 4_000_000, "ultimate": 400_000}
EDGE_SEED = 20261130
_EDGE_CACHE: dict[str, dict[str, SimulationRun]] = {}
#: the documented strategies the simulated figures assume
STRATEGY = {
    "casino": "call with a hidden pair, a four-flush or a straight or better, else when the "
    "exact call EV of the situation's rank pattern, adjusted for its suit pattern, is at "
    "least -1 ante (games.holdem.strategy.casino_call)",
    "ultimate": "the documented basic strategy (games.holdem.strategy: the 4x list, a hidden "
    "pair or better for 2x, fewer than 21 dealer outs for 1x)",
}


def new_game(
    variant: Variant[HoldemRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> HoldemRound:
    """A fresh round. On a table with the Player/Dealer position (page 004) the rotation
    comes from ``context.previous`` (the table's last round, over) or ``context.carry``
    (the same, as logged); a new table offers it to seat 0 first."""
    start = rotation_from(context, HoldemRound, variant.id, seats)
    return HoldemRound(variant, seats, carry=start)


def house_edge(variant: Variant[HoldemRules]) -> dict[str, HouseEdge]:
    """House edge per unit of each bet's initial wager (see the module docstring).

    Ultimate Texas Hold'em: both exact (:func:`_ultimate_edges`). Pinnacle Hold'em:
    simulated, each figure with its run (:func:`_simulated`)."""
    if variant.rules.style == "ultimate":
        exact = _ultimate_edges(variant)
        if "ante" in exact:
            return exact
        return {**_simulated(variant), **exact}
    return _simulated(variant)


def _ultimate_edges(variant: Variant[HoldemRules]) -> dict[str, HouseEdge]:
    """Trips exact by a count; the ante exact best play when the shipped sums are for
    these rules (``data/uth_best.json``; otherwise it is left to the simulation)."""
    rules = variant.rules
    out = {
        "trips": HouseEdge(
            edge=trips_edge(rules),
            exact=True,
            method="count over all 133,784,560 seven-card hands",
            note=(
                "for a player who never folds, and the same for best play and the documented "
                "strategy: neither folds a hand that rule 6 (on a fold, the board alone) "
                "pays otherwise (best play: counted over every deal, bench/results/"
                "uth_trips_folds.md); games.holdem.trips"
            ),
            strategy="never folds (the same figure for best play and the documented strategy)",
        )
    }
    best, data = packaged_result()
    if data["rules"] == fingerprint(rules):
        out["ante"] = HouseEdge(
            edge=best.edge,
            exact=True,
            method=(
                f"best play, every decision (4x, 2x, 1x or fold) from exact expected values "
                f"over all {DEALS:,} deals"
            ),
            note=(
                f"ante, blind and play per unit of ante; games.holdem.uth_exact, sums in "
                f"data/uth_best.json ({data['command']}); the scripted player's strategy "
                "(games.holdem.strategy) is simpler: croupier games simulate plays it"
            ),
            strategy="best play: at each decision the larger exact expected value, given "
            "the cards the player sees and best play after it",
        )
    return {bet: out[bet] for bet in ("ante", "trips") if bet in out}


def _simulated(variant: Variant[HoldemRules]) -> dict[str, HouseEdge]:
    """Every bet's edge by simulation of the documented strategy, with its run: the
    shipped 10^8-round run (``data/simulated.json``) while it is for these rules, else a
    shorter run now."""
    bets = ("ante", "bonus") if variant.rules.style == "casino" else ("ante", "trips")
    runs = shipped_runs(variant, bets)
    if not runs:
        if variant.id not in _EDGE_CACHE:
            sim = simulate(variant, EDGE_ROUNDS[variant.rules.style], EDGE_SEED)
            _EDGE_CACHE[variant.id] = {
                b: SimulationRun.of(s, EDGE_SEED) for b, s in sim.bets.items()
            }
        runs = _EDGE_CACHE[variant.id]
    notes = {
        "ante": "ante and call per unit of ante"
        if variant.rules.style == "casino"
        else "ante, blind and play per unit of ante",
        "bonus": "per unit of the bonus, lost on a fold",
        "trips": "per unit of the trips bet",
    }
    return {
        bet: HouseEdge(
            edge=run.edge,
            exact=False,
            method="simulation of the strategy below",
            note=f"{notes[bet]}; not exact: the strategy is not counted over every deal "
            "here (bench/bench_holdem_best.py checks its calls against exact call EVs)",
            strategy=STRATEGY[variant.rules.style],
            simulation=run,
        )
        for bet, run in runs.items()
    }


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]
