"""Sic Bo with the common Macau pay table (the standard named in the rules index, gap 9).

Modules: :mod:`~games.sicbo.paytable` (TOML, validated), :mod:`~games.sicbo.bets`
(names and the rules as one function), :mod:`~games.sicbo.engine` (a round),
:mod:`~games.sicbo.odds` (exact edges over 216 rolls), :mod:`~games.sicbo.sim`
(NumPy simulation), :mod:`~games.sicbo.autoplay`.
"""

from __future__ import annotations

from games.catalog import HouseEdge, SimulationResult
from games.core.engine import NEW_TABLE, BetLimit, GameContext, Variant
from games.sicbo.autoplay import autoplay
from games.sicbo.bets import all_bet_names
from games.sicbo.engine import SicBoRound
from games.sicbo.odds import edges
from games.sicbo.paytable import SicBoPaytable, load_paytable
from games.sicbo.sim import simulate_all


def _variant() -> Variant:
    t = load_paytable("macau.toml")
    limit = BetLimit(minimum=t.minimum, maximum=t.maximum, increment=t.increment)
    return Variant(
        id="sicbo-macau",
        family="sicbo",
        title="Sic Bo",
        source=t.source,
        limits={name: limit for name in all_bet_names()},
        rules=t,
        notes=(
            "Standard, not the page: the casino's menu lists Sic Bo without rules; the "
            "common Macau pay table and a $1-$500 limit per bet spot are used.",
        ),
    )


VARIANTS: tuple[Variant, ...] = (_variant(),)


def _table(variant: Variant) -> SicBoPaytable:
    if not isinstance(variant.rules, SicBoPaytable):
        raise TypeError(f"{variant.id} is not a sic bo variant")
    return variant.rules


def new_game(variant: Variant, seats: int = 1, *, context: GameContext = NEW_TABLE) -> SicBoRound:
    """A fresh round (this family carries nothing from one round to the next)."""
    return SicBoRound(variant, seats)


def house_edge(variant: Variant) -> dict[str, HouseEdge]:
    method = "exact: enumeration of the 216 ordered rolls (fractions.Fraction)"
    return {
        name: HouseEdge(edge=e, exact=True, method=method)
        for name, e in edges(_table(variant)).items()
    }


def simulate(variant: Variant, rounds: int, seed: int) -> SimulationResult:
    if rounds < 2:
        raise ValueError("simulate needs at least 2 rounds")
    bets = simulate_all(_table(variant), rounds, seed)
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)


__all__ = ["VARIANTS", "SicBoRound", "autoplay", "house_edge", "new_game", "simulate"]
