"""The scripted roulette player used by ``croupier table autoplay``: a minimum bet on
``red``, then Spin; nothing more once the round is settled."""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action
from games.roulette.engine import RouletteRound


def autoplay(engine: Engine, seat: int) -> Action | None:
    if not isinstance(engine, RouletteRound):
        raise TypeError("roulette autoplay needs a roulette round")
    return engine.scripted(seat, "red")
