"""Roulette: single-zero and double-zero wheels, inside and outside bets, la partage option.

The casino's pages list Roulette without rules, so these are the standard casino rules
named by the rules index (gap 9), kept as data in ``wheels.toml``.

Modules: :mod:`~games.roulette.paytable` (TOML, validated), :mod:`~games.roulette.layout`
(pockets and bets), :mod:`~games.roulette.rules` (one spin, one bet),
:mod:`~games.roulette.engine` (a round), :mod:`~games.roulette.odds` (exact edges),
:mod:`~games.roulette.sim` (NumPy simulation), :mod:`~games.roulette.autoplay`.
"""

from __future__ import annotations

from games.catalog import HouseEdge, SimulationResult
from games.core.engine import NEW_TABLE, BetLimit, GameContext, Variant
from games.roulette.autoplay import autoplay
from games.roulette.engine import RouletteRound
from games.roulette.layout import Layout
from games.roulette.odds import edges
from games.roulette.paytable import RouletteRules, load_tables
from games.roulette.sim import simulate_all


def _variants() -> tuple[Variant, ...]:
    t = load_tables("wheels.toml")
    limit = BetLimit(minimum=t.minimum, maximum=t.maximum, increment=t.increment)
    out = []
    for wheel in t.wheels:
        layout = Layout(wheel.zeros)
        out.append(
            Variant(
                id=wheel.id,
                family="roulette",
                title=wheel.title,
                source=t.source,
                limits={name: limit for name in layout.bets},
                rules=RouletteRules(wheel=wheel, pays=t.pays),
                zeros=len(wheel.zeros),  # the runtime builds the wheel from this
                notes=(
                    "Standard, not the page: the casino's menu lists Roulette without rules; "
                    "standard pays and a $1-$500 limit per bet spot are used.",
                ),
            )
        )
    return tuple(out)


VARIANTS: tuple[Variant, ...] = _variants()


def _rules(variant: Variant) -> RouletteRules:
    if not isinstance(variant.rules, RouletteRules):
        raise TypeError(f"{variant.id} is not a roulette variant")
    return variant.rules


def new_game(
    variant: Variant, seats: int = 1, *, context: GameContext = NEW_TABLE
) -> RouletteRound:
    """A fresh round (this family carries nothing from one round to the next)."""
    return RouletteRound(variant, seats)


def house_edge(variant: Variant) -> dict[str, HouseEdge]:
    method = "exact: enumeration of the wheel's pockets (fractions.Fraction)"
    return {
        name: HouseEdge(edge=e, exact=True, method=method)
        for name, e in edges(_rules(variant)).items()
    }


def simulate(variant: Variant, rounds: int, seed: int) -> SimulationResult:
    if rounds < 2:
        raise ValueError("simulate needs at least 2 rounds")
    bets = simulate_all(_rules(variant), rounds, seed)
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)


__all__ = ["VARIANTS", "RouletteRound", "autoplay", "house_edge", "new_game", "simulate"]
