"""Poker rooms (page 001): fixed-limit Texas Hold'em, Omaha Hold'em and Seven-Card Stud,
player against player; the house deals, runs the betting, holds the pot, takes a collection.

The family contract (:mod:`games.catalog`):

``VARIANTS``: ``poker-room-holdem-2-4``, ``poker-room-omaha-2-4``, ``poker-room-stud-2-4``
(``paytables/*.toml``: the stakes and the card-room rules, all data).
``new_game(variant, seats, *, context=NEW_TABLE)``: a
:class:`~games.poker_room.engine.PokerRoomRound` waiting for the room's
:class:`~games.poker_room.events.HandStart` (the seats dealt in and their stacks). The
button moves on from ``context.previous`` (the table's last hand, over) or
``context.carry`` (the same, as logged); a new table draws it (a ``StartPosition``).
``house_edge(variant)``: none of the pot is the house's; the collection is the house's
whole take (:mod:`games.poker_room.exact`).
``simulate(variant, rounds, seed)``: hands between scripted players
(:mod:`games.poker_room.simulate`): the collection per hand.
``autoplay(engine, seat)``: :mod:`games.poker_room.autoplay`.

The engine API for a room (helper pr-room): create with :func:`new_game`, apply
``HandStart(stacks=((seat, cents), ...), posts=((seat, "bb"), ...))``, answer
:meth:`~games.poker_room.engine.PokerRoomRound.needs` from the shoe, apply each player's
``Decide(seat, decision, arg)``; :meth:`~games.poker_room.engine.PokerRoomRound.options`
lists the legal actions with amounts, ``view(seat)`` what a seat sees, and the events say
where every chip went (:mod:`games.poker_room.events`; ``HandResult`` at the end).
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.core.figures import HouseEdge
from games.poker_room.autoplay import autoplay
from games.poker_room.engine import PokerRoomRound
from games.poker_room.exact import collection_edge
from games.poker_room.rules import PACKAGED, RoomRules, load_packaged
from games.poker_room.simulate import simulate

VARIANTS: tuple[Variant[RoomRules], ...] = tuple(load_packaged(name) for name in PACKAGED)


def new_game(
    variant: Variant[RoomRules], seats: int = 9, *, context: GameContext = NEW_TABLE
) -> PokerRoomRound:
    """A hand waiting for its HandStart; the button moves on from the last hand's."""
    if not 2 <= seats <= variant.seats:
        raise ValueError(f"{variant.id}: seats must be 2..{variant.seats}")
    button: int | None = None
    previous = context.previous
    if isinstance(previous, PokerRoomRound) and previous.is_over:
        carried = previous.carry()
        button = carried.button if carried is not None else None
    elif context.carry is not None:
        value = context.carry.get("button")
        button = value if isinstance(value, int) and not isinstance(value, bool) else None
    return PokerRoomRound(variant, seats, button=button)


def house_edge(variant: Variant[RoomRules]) -> dict[str, HouseEdge]:
    """Player against player: the house wins no pot; its take is the collection."""
    return {"collection": collection_edge(variant)}


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate"]
