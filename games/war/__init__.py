"""Casino War: the standard casino rules (rules README gap 9; the menu page lists the game only).

Six decks, aces high; the higher card wins even money; on a tie the player
surrenders half the bet or goes to war (raise equal to the bet; three burn
cards; a war card equal to or above the dealer's wins the raise and pushes the
bet, or pays a tie-after-war bonus on tables that have one); a tie bet pays
10 to 1. This is the game as the Wizard of Odds analyses it; each pay table
says so. The family contract (:mod:`games.catalog`):

``VARIANTS``: ``war-standard`` (no tie bonus) and ``war-bonus``.
``new_game(variant, seats=1, *, context=NEW_TABLE)``: a :class:`~games.war.engine.WarRound`.
``house_edge(variant)``: exact, :mod:`games.war.exact` (bets ``main``, ``main-surrender``, ``tie``).
``simulate(variant, rounds, seed)``: :mod:`games.war.simulate`.
``autoplay(engine, seat)``: :mod:`games.war.autoplay`.

>>> f"{float(house_edge(VARIANTS[0])['main'].edge):.2%}"
'2.88%'
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge
from games.war.autoplay import autoplay
from games.war.engine import WarRound
from games.war.exact import bet_returns
from games.war.paytable import load_packaged
from games.war.rules import WarRules
from games.war.simulate import simulate

VARIANTS: tuple[Variant[WarRules], ...] = (load_packaged("standard"), load_packaged("bonus"))


def new_game(
    variant: Variant[WarRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> WarRound:
    """A fresh round (this family carries nothing from one round to the next)."""
    return WarRound(variant, seats)


def house_edge(variant: Variant[WarRules]) -> dict[str, HouseEdge]:
    """Exact house edge per unit of the initial wager for each bet."""
    rules = variant.rules
    method = f"enumeration over the {rules.decks}-deck shoe by rank composition"
    notes = {
        "main": "going to war on every tie",
        "main-surrender": "surrendering on every tie",
        "tie": "",
    }
    return {
        bet: HouseEdge(edge=-ret, exact=True, method=method, note=notes[bet])
        for bet, ret in bet_returns(rules).items()
    }


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]
