"""What the room asks of a poker room engine (:mod:`games.poker_room`), in one place.

The room deals a hand by telling the engine the seats dealt in and their stacks (the
engine's ``HandStart`` action, logged from the source ``runtime`` so a replay deals
the same hand), reads the buy-in range from the variant's rules, and asks which seats
a hand in play holds cards for (a seat is never freed mid-hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.engine import Engine, Variant
from games.core.records import Action
from games.poker_room.engine import PokerRoomRound
from games.poker_room.events import HandStart
from games.poker_room.flow import blind_seats
from games.poker_room.rules import RoomRules

#: the family whose tables are poker rooms (player against player)
ROOM_FAMILY = "poker_room"


def is_room(variant: Variant[Any]) -> bool:
    """Whether ``variant`` is played player against player (a poker room table)."""
    return variant.family == ROOM_FAMILY and isinstance(variant.rules, RoomRules)


def buy_in_limits(variant: Variant[Any]) -> tuple[int, int]:
    """The minimum and maximum buy-in of the variant (cents), from its data."""
    rules = variant.rules
    if not isinstance(rules, RoomRules):
        raise TypeError(f"{variant.id} is no poker room variant")
    return rules.min_buy_in, rules.max_buy_in


def stakes_of(variant: Variant[Any]) -> tuple[int, int]:
    """The lower and higher limit of the variant's fixed-limit structure (cents)."""
    rules = variant.rules
    if not isinstance(rules, RoomRules):
        raise TypeError(f"{variant.id} is no poker room variant")
    return rules.lower_limit, rules.higher_limit


def hand_start_actions(
    engine: Engine, stacks: Mapping[int, int], posts: Mapping[int, str] | None = None
) -> tuple[Action, ...]:
    """The runtime's actions that deal a hand to ``stacks`` (seat -> cents); ``posts``:
    what each entering seat posts to be dealt in (``"bb"``: a new player's big blind;
    ``"bb+sb"``: back after missing the blinds, the big live and the small dead; the
    variant's ``[room] entry`` and ``missed_blinds`` rules; a blind's post is its blind;
    stud has antes and no posts)."""
    stud = isinstance(engine, PokerRoomRound) and engine.rules.is_stud
    owed = () if stud else tuple(sorted((s, w) for s, w in (posts or {}).items() if s in stacks))
    return (HandStart(stacks=tuple(sorted(stacks.items())), posts=owed),)


def big_blind_seat(engine: Engine) -> int | None:
    """The seat that posts the big blind this hand (None before the button is known, or
    at stud)."""
    if not isinstance(engine, PokerRoomRound) or engine.rules.is_stud or engine.button is None:
        return None
    return blind_seats(engine)[1]


def dealt_in(engine: Engine) -> frozenset[int]:
    """The seats the hand in play holds cards (or chips in the pot) for."""
    if not isinstance(engine, PokerRoomRound):
        return frozenset()
    return frozenset(engine.seats_in)


def to_act(engine: Engine) -> int | None:
    """The seat whose decision the hand waits on (None while cards are dealt, or over)."""
    return engine.to_act if isinstance(engine, PokerRoomRound) else None
