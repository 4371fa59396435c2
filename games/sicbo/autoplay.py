"""The scripted sic bo player used by ``croupier table autoplay``: a minimum bet on
``small``, then Roll; nothing more once the round is settled."""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action, Decide, PlaceBet
from games.sicbo.engine import Phase, SicBoRound


def autoplay(engine: Engine, seat: int) -> Action | None:
    if not isinstance(engine, SicBoRound):
        raise TypeError("sic bo autoplay needs a sic bo round")
    if engine.phase is not Phase.BETTING:
        return None
    if not engine.bets(seat):
        return PlaceBet(seat=seat, bet="small", amount=engine.variant.limits["small"].minimum)
    return Decide(seat=seat, decision="roll")
