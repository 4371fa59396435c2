"""Baccarat family: Pinnacle baccarat, EZ Baccarat and player-banked California baccarat.

Rules come from the casino's pages (``shared/rules/000_*`` for Pinnacle, ``004_*``
for EZ and the California game) and, where a page is silent, from the standard
named in each pay table (``paytables/*.toml``). The family contract
(:mod:`games.catalog`):

``VARIANTS``
    the three tables, loaded from their pay tables.
``new_game(variant, seats=1, *, context=NEW_TABLE)``
    a :class:`~games.baccarat.engine.BaccaratRound` for hand number ``context.hand``
    (player-banked tables rotate the bank by it).
``house_edge(variant)``
    exact edges by enumeration over the full shoe (:mod:`games.baccarat.exact`).
``simulate(variant, rounds, seed)``
    vectorised Monte Carlo (:mod:`games.baccarat.simulate`).
``autoplay(engine, seat)``
    the scripted player (:mod:`games.baccarat.autoplay`).

>>> [v.id for v in VARIANTS]
['baccarat-pinnacle', 'baccarat-ez', 'baccarat-california']
>>> f"{float(house_edge(VARIANTS[0])['banker'].edge):.4%}"
'1.0558%'
"""

from __future__ import annotations

from games.baccarat.autoplay import autoplay
from games.baccarat.engine import BaccaratRound
from games.baccarat.exact import bet_returns
from games.baccarat.paytable import load_packaged
from games.baccarat.rules import BaccaratRules
from games.baccarat.simulate import simulate
from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge

VARIANTS: tuple[Variant[BaccaratRules], ...] = tuple(
    load_packaged(name) for name in ("pinnacle", "ez", "california")
)


def new_game(
    variant: Variant[BaccaratRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> BaccaratRound:
    """A fresh coup (``context.hand`` rotates the player bank); on a player-banked
    table ``seats`` must be at least 2."""
    return BaccaratRound(variant, seats, hand=context.hand)


def house_edge(variant: Variant[BaccaratRules]) -> dict[str, HouseEdge]:
    """The exact house edge of every bet (the bank itself has none: it takes the other side)."""
    rules = variant.rules
    method = f"enumeration over the {rules.decks}-deck shoe by point-value composition"
    return {
        bet: HouseEdge(edge=-ret, exact=True, method=method)
        for bet, ret in bet_returns(rules).items()
    }


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]
