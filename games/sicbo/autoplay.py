"""The scripted sic bo player used by ``croupier table autoplay``: a minimum bet on
``small``, then Roll; nothing more once the round is settled."""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action
from games.sicbo.engine import SicBoRound


def autoplay(engine: Engine, seat: int) -> Action | None:
    if not isinstance(engine, SicBoRound):
        raise TypeError("sic bo autoplay needs a sic bo round")
    return engine.scripted(seat, "small")
