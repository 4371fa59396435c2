"""The documented scripted poker room player used by ``croupier table autoplay``.

It never raises: it checks when it can, posts the bring-in when it is due, and calls
otherwise, so every hand it plays goes to the showdown. The room, not a seat, starts
each hand (:class:`~games.poker_room.events.HandStart`), so before that it does nothing.
"""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action, Decide
from games.poker_room.engine import PokerRoomRound


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, PokerRoomRound):
        raise TypeError("poker room autoplay needs a poker room hand")
    names = engine.legal_actions(seat)
    for name in ("check", "bring-in", "call"):
        if name in names:
            return Decide(seat=seat, decision=name)
    return None
