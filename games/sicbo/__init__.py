"""Sic Bo with the common Macau pay table (the standard named in the rules index, gap 9).

Modules: :mod:`~games.sicbo.paytable` (``paytables/macau.toml``, validated),
:mod:`~games.sicbo.rules` (the typed pays), :mod:`~games.sicbo.bets` (names and the
rules as one function), :mod:`~games.sicbo.engine` (a round), :mod:`~games.sicbo.exact`
(exact edges over 216 rolls), :mod:`~games.sicbo.simulate` (NumPy simulation),
:mod:`~games.sicbo.autoplay`.
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.spot_layout import spot_variant
from games.sicbo.autoplay import autoplay
from games.sicbo.bets import all_bet_names
from games.sicbo.engine import SicBoRound
from games.sicbo.exact import house_edge
from games.sicbo.paytable import load_paytable
from games.sicbo.rules import SicBoRules
from games.sicbo.simulate import simulate


def _variant() -> Variant[SicBoRules]:
    t = load_paytable()
    return spot_variant(
        id="sicbo-macau",
        family="sicbo",
        title="Sic Bo",
        header=t.header,
        spots=all_bet_names(),
        rules=t.rules,
        note="Standard, not the page: the casino's menu lists Sic Bo without rules; the "
        "common Macau pay table and a $1-$500 limit per bet spot are used.",
    )


VARIANTS: tuple[Variant[SicBoRules], ...] = (_variant(),)


def new_game(
    variant: Variant[SicBoRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> SicBoRound:
    """A fresh round (this family carries nothing from one round to the next)."""
    return SicBoRound(variant, seats)


__all__ = ["VARIANTS", "SicBoRound", "autoplay", "house_edge", "new_game", "simulate"]
