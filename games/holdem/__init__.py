"""Pinnacle Hold'em (page 000 + README gap 2, Casino Hold'em) and Ultimate Texas Hold'em (page 004).

The family contract (:mod:`games.catalog`):

``VARIANTS``: ``pinnacle-holdem`` and ``ultimate-texas-holdem`` (``paytables/*.toml``).
``new_game(variant, seats=1, *, context=NEW_TABLE)``: a :class:`~games.holdem.engine.HoldemRound`.
``house_edge(variant)``: by simulation of the documented strategy
(:mod:`games.holdem.strategy`; exact=False): ``ante`` per unit of ante (Pinnacle:
ante and call; UTH: ante, blind and play), ``bonus`` (Pinnacle, lost on a fold)
and ``trips`` (UTH, which does not depend on play) per unit of the side bet.
``simulate(variant, rounds, seed)``: :mod:`games.holdem.simulate`.
``autoplay(engine, seat)``: :mod:`games.holdem.autoplay`.

Decision names: Pinnacle Hold'em ``call`` / ``fold``; Ultimate Texas Hold'em
``bet-4x`` / ``bet-3x`` / ``check`` preflop, ``bet-2x`` / ``check`` on the flop,
``bet-1x`` / ``fold`` on the river.
"""

from __future__ import annotations

from fractions import Fraction

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge
from games.core.player_dealer import PlayerDealerCarry
from games.holdem.autoplay import autoplay
from games.holdem.engine import HoldemRound
from games.holdem.rules import PACKAGED, HoldemRules, load_packaged
from games.holdem.simulate import simulate

VARIANTS: tuple[Variant[HoldemRules], ...] = tuple(load_packaged(name) for name in PACKAGED)

#: rounds (by game style) and seed of the simulation behind :func:`house_edge`; casino
#: hold'em's ante varies a lot round to round, so it gets ten times the rounds
EDGE_ROUNDS: dict[str, int] = {"casino": 4_000_000, "ultimate": 400_000}
EDGE_SEED = 20261130
_EDGE_CACHE: dict[str, dict[str, tuple[Fraction, float, float]]] = {}


def new_game(
    variant: Variant[HoldemRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> HoldemRound:
    """A fresh round. On a table with the Player/Dealer position (page 004) the rotation
    comes from ``context.previous`` (the table's last round, over) or ``context.carry``
    (the same, as logged); a new table offers it to seat 0 first."""
    previous, carry = context.previous, context.carry
    start: PlayerDealerCarry | None = None
    if isinstance(previous, HoldemRound) and previous.variant.id == variant.id:
        start = previous.carry()
    elif carry is not None:
        start = PlayerDealerCarry.decode(carry, seats)
    return HoldemRound(variant, seats, carry=start)


def house_edge(variant: Variant[HoldemRules]) -> dict[str, HouseEdge]:
    """House edge per unit of each bet's initial wager, simulated (see the module docstring).

    The note gives the simulation's 99.9% interval (bench/bench_holdem_best.py runs 10^8
    rounds of Pinnacle Hold'em)."""
    rounds = EDGE_ROUNDS[variant.rules.style]
    if variant.id not in _EDGE_CACHE:
        sim = simulate(variant, rounds, EDGE_SEED)
        _EDGE_CACHE[variant.id] = {
            bet: (Fraction(-b.mean).limit_denominator(1_000_000), -b.ci_high, -b.ci_low)
            for bet, b in sim.bets.items()
        }
    method = f"simulation of {rounds:,} rounds (seed {EDGE_SEED})"
    return {
        bet: HouseEdge(
            edge=edge,
            exact=False,
            method=method,
            note=f"99.9% interval {low:.3%} to {high:.3%}; games.holdem.strategy",
        )
        for bet, (edge, low, high) in _EDGE_CACHE[variant.id].items()
    }


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]
