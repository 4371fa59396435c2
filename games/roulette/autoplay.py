"""The scripted roulette player used by ``croupier table autoplay``: a minimum bet on
``red``, then Spin; nothing more once the round is settled."""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action, Decide, PlaceBet
from games.roulette.engine import Phase, RouletteRound


def autoplay(engine: Engine, seat: int) -> Action | None:
    if not isinstance(engine, RouletteRound):
        raise TypeError("roulette autoplay needs a roulette round")
    if engine.phase is not Phase.BETTING:
        return None
    if not engine.bets(seat):
        return PlaceBet(seat=seat, bet="red", amount=engine.variant.limits["red"].minimum)
    return Decide(seat=seat, decision="spin")
