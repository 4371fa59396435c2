"""Roulette: single-zero and double-zero wheels, inside and outside bets, la partage option.

The casino's pages list Roulette without rules, so these are the standard casino rules
named by the rules index (gap 9), kept as data in ``paytables/wheels.toml``.

Modules: :mod:`~games.roulette.paytable` (TOML, validated), :mod:`~games.roulette.layout`
(pockets and bets), :mod:`~games.roulette.rules` (the typed rules; one spin, one bet),
:mod:`~games.roulette.engine` (a round), :mod:`~games.roulette.exact` (exact edges),
:mod:`~games.roulette.simulate` (NumPy simulation), :mod:`~games.roulette.autoplay`.
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.spot_layout import spot_variant
from games.roulette.autoplay import autoplay
from games.roulette.engine import RouletteRound
from games.roulette.exact import house_edge
from games.roulette.layout import layout_for
from games.roulette.paytable import load_tables
from games.roulette.rules import RouletteRules
from games.roulette.simulate import simulate


def _variants() -> tuple[Variant[RouletteRules], ...]:
    t = load_tables()
    return tuple(
        spot_variant(
            id=wheel.id,
            family="roulette",
            title=wheel.title,
            header=t.header,
            spots=layout_for(wheel.zeros).bets,
            rules=RouletteRules(wheel=wheel, pays=t.pays),
            zeros=len(wheel.zeros),  # the runtime builds the wheel from this
            note="Standard, not the page: the casino's menu lists Roulette without rules; "
            "standard pays and a $1-$500 limit per bet spot are used.",
        )
        for wheel in t.wheels
    )


VARIANTS: tuple[Variant[RouletteRules], ...] = _variants()


def new_game(
    variant: Variant[RouletteRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> RouletteRound:
    """A fresh round (this family carries nothing from one round to the next)."""
    return RouletteRound(variant, seats)


__all__ = ["VARIANTS", "RouletteRound", "autoplay", "house_edge", "new_game", "simulate"]
