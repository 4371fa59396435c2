"""The documented scripted Casino War player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on ``main`` (no tie bet), deals, and
goes to war on every tie (surrendering costs more: 3.70% against 2.88% for six
decks, docs/math/baccarat.md).
"""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action, Deal, Decide, PlaceBet
from games.war.engine import Phase, WarRound


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, WarRound):
        raise TypeError("Casino War autoplay needs a Casino War round")
    if not 0 <= seat < engine.seats:
        return None
    if engine.phase is Phase.BETTING:
        if not engine.bets[seat]:
            return PlaceBet(seat=seat, bet="main", amount=engine.variant.limits["main"].minimum)
        return Deal(seat=seat)
    if engine.phase is Phase.DECIDING and "war" in engine.legal_actions(seat):
        return Decide(seat=seat, decision="war")
    return None
