"""Pai gow poker family: Pinnacle, online, Bonus Pai Gow and Fortune Pai Gow.

Rules come from the casino's pages (``shared/rules/000_*`` Pinnacle, ``001_*``
online, ``003_*`` Bonus Pai Gow, ``004_*`` Fortune) and the published house way
of ``docs/house-way.md`` (rules README gap 5). The family contract
(:mod:`games.catalog`):

``VARIANTS``
    the four tables, loaded from ``paytables/*.toml``.
``new_game(variant, seats=1, *, context=NEW_TABLE)``
    a :class:`~games.pai_gow.engine.PaiGowRound`; on a player-banked table
    (page 002) it starts from the bank rotation of ``context.previous`` (the table's
    finished last game) or of ``context.carry`` (that game's ``carry().encode()``, as
    logged).
``house_edge(variant)``
    the side bets exactly, by counting all 154,143,080 seven-card hands
    (:mod:`games.pai_gow.exact`); the main bet by simulation of house way
    against house way (``exact=False``): the 10^7-game tallies shipped in
    ``data/simulated.json``, with their rounds, seed and 99.9% interval.
``simulate(variant, rounds, seed)``
    vectorised Monte Carlo (:mod:`games.pai_gow.simulate`).
``autoplay(engine, seat)``
    the scripted player (:mod:`games.pai_gow.autoplay`): minimum main bet, house way.

>>> [v.id for v in VARIANTS]
['pai-gow-pinnacle', 'pai-gow-online', 'pai-gow-bonus', 'pai-gow-fortune', 'pai-gow-land']
"""

from __future__ import annotations

import math
from fractions import Fraction

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge, SimulationRun
from games.core.money import format_cents
from games.core.player_dealer import PlayerDealerCarry
from games.pai_gow.autoplay import autoplay
from games.pai_gow.bank import BankCarry
from games.pai_gow.engine import PaiGowRound
from games.pai_gow.exact import TOTAL, envy_per_seat, side_return
from games.pai_gow.rules import MAIN_BET, PaiGowRules, load_packaged
from games.pai_gow.simulate import (
    STRATEGY,
    MainTally,
    main_tally,
    main_win_per_unit,
    simulate,
    tally,
)
from games.sim import Z_999

VARIANTS: tuple[Variant[PaiGowRules], ...] = tuple(
    load_packaged(name) for name in ("pinnacle", "online", "bonus", "fortune", "land")
)

#: the on-the-fly simulation of the main bet when no shipped tally fits the rules
MAIN_EDGE_ROUNDS = 60_000
MAIN_EDGE_SEED = 20261130


def new_game(
    variant: Variant[PaiGowRules],
    seats: int = 1,
    *,
    context: GameContext = NEW_TABLE,
) -> PaiGowRound:
    """A fresh game for ``seats`` player seats.

    ``context.previous`` is the same table's last game, finished (None for a new table
    or after a restart: the dealer banks the first hand); ``context.carry`` is the same
    state as logged data, for the replayer. Give one or neither. ValueError if
    ``previous`` is not a finished game of this variant or ``carry`` is malformed.
    A seat in ``context.new_players`` (its player is not the last game's) is handed no
    part of the rotation that the page gives a player (:meth:`BankCarry.without`).
    """
    previous, carry = context.previous, context.carry
    if previous is not None and carry is not None:
        raise ValueError("give previous or carry, not both")
    start: BankCarry | PlayerDealerCarry | None = None
    if previous is not None:
        if not isinstance(previous, PaiGowRound) or previous.variant.id != variant.id:
            raise ValueError(f"previous is not a game of {variant.id}")
        start = previous.carry()
    elif carry is not None and variant.rules.player_dealer:  # page 004's rotation
        start = PlayerDealerCarry.decode(carry, seats)
    elif carry is not None:
        start = BankCarry.decode(carry, seats)
    if isinstance(start, BankCarry) and context.new_players:
        start = start.without(context.new_players)  # a player/dealer rotation is the table's
    return PaiGowRound(variant, seats, carry=start)


def main_edge(
    variant: Variant[PaiGowRules], rounds: int | None = None, seed: int = MAIN_EDGE_SEED
) -> HouseEdge:
    """The main bet's edge at the minimum bet, from a house-way-vs-house-way tally: the
    shipped 10^7-game one (``rounds`` None), else a run of ``rounds`` games (or of
    :data:`MAIN_EDGE_ROUNDS` when no shipped tally fits the rules)."""
    rules = variant.rules
    run = main_tally(rules) if rounds is None else None
    if run is None:
        n = rounds or MAIN_EDGE_ROUNDS
        wins, pushes, losses, _ = tally(rules.joker, rules.wheel_second, n, seed)
        run = MainTally(n, seed, wins, pushes, losses)
    win = main_win_per_unit(rules, variant.limits[MAIN_BET].minimum)
    mean = (win * run.wins - run.losses) / run.rounds
    second = (win * win * run.wins + run.losses) / run.rounds
    half = Fraction(repr(Z_999 * math.sqrt(float(second - mean * mean) / run.rounds)))
    return HouseEdge(
        edge=-mean,
        exact=False,
        method="simulation of house way against house way",
        note=f"player wins {run.wins:,}, pushes {run.pushes:,}, banker wins {run.losses:,}; "
        f"at the {format_cents(variant.limits[MAIN_BET].minimum)} minimum; not exact: both "
        "seven-card deals set by the house way are too many to count (a side bet, where "
        "the table has one, is exact)",
        strategy=STRATEGY,
        simulation=SimulationRun(
            rounds=run.rounds,
            seed=run.seed,
            edge=-mean,
            low=-mean - half,
            high=-mean + half,
            built_by=run.built_by,
        ),
    )


def house_edge(variant: Variant[PaiGowRules]) -> dict[str, HouseEdge]:
    """The main bet by simulation; the side bet exactly (at its minimum stake, no envy)."""
    rules = variant.rules
    out = {MAIN_BET: main_edge(variant)}
    side = rules.side
    if side is None:
        return out
    method = f"enumeration of all {TOTAL:,} seven-card hands of the 53-card deck"
    limit = variant.limits[side.name]
    edge = -side_return(side, rules.joker, limit.minimum)
    note = f"at the {format_cents(limit.minimum)} minimum"
    if side.envy:
        envy = envy_per_seat(side, rules.joker)
        at = max(side.envy_minimum, limit.minimum)
        note += (
            f"; Envy adds {float(envy) / 100:.4f} dollars per other seat per game to a bet "
            f"of {format_cents(side.envy_minimum)} or more ({float(envy / at):.4%} of a "
            f"{format_cents(at)} bet)"
        )
    out[side.name] = HouseEdge(edge=edge, exact=True, method=method, note=note)
    if side.payout_cap:
        capped = -side_return(side, rules.joker, limit.maximum)
        out[f"{side.name}-at-maximum"] = HouseEdge(
            edge=capped,
            exact=True,
            method=method,
            note=f"at the {format_cents(limit.maximum)} maximum, pays capped at "
            f"{format_cents(side.payout_cap)}",
        )
    return out


def envy_edge(variant: Variant[PaiGowRules], stake: int, other_seats: int) -> Fraction:
    """The Fortune bet's exact edge for a ``stake`` with ``other_seats`` other hands."""
    rules = variant.rules
    side = rules.side
    if side is None:
        raise ValueError(f"{variant.id} has no side bet")
    ret = side_return(side, rules.joker, stake)
    if side.envy and stake >= side.envy_minimum:
        ret += other_seats * envy_per_seat(side, rules.joker) / stake
    return -ret


__all__ = [
    "VARIANTS",
    "autoplay",
    "envy_edge",
    "house_edge",
    "main_edge",
    "new_game",
    "simulate",
]
