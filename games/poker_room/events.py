"""The poker room's own actions and events: chips move between stacks, pots and the house.

Unlike a house-banked game no bet is settled against the house: every chip goes from a
seat's stack into the pot (:class:`ChipsIn`), back when nobody calls it
(:class:`Uncalled`), to the house as the collection (:class:`~games.core.records.
CollectionCharged` for a seat fee, :class:`Raked` for a rake) or to a winner
(:class:`PotAwarded`). :class:`PotFormed` says, per pot, who put in how much and who may
win it; :class:`HandResult` closes the hand with every seat's stack before and after.
Summed over a hand: stacks before = stacks after + collection (the conservation test).

The hand starts with :class:`HandStart` (the seats dealt in and their stacks, from the
room); the room posts it first, so the log replays the hand exactly.

>>> from games.core.records import decode
>>> decode(HandStart(stacks=((0, 4000), (3, 2500))).encode())
HandStart(seat=None, stacks=((0, 4000), (3, 2500)), posts=())
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from games.core.records import Action, Event, SeatAmount, SeatEvent

Pairs = tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True, kw_only=True)
class HandStart(Action):
    """The room deals a hand: ``stacks`` = (seat, cents) of every seat dealt in.

    ``posts`` = (seat, what) for seats coming in with a post (page 001 is silent; the
    room's ``entry`` / ``missed_blinds`` rules): ``"bb"`` a new or returning player's
    live big blind, ``"bb+sb"`` a returning player's big blind live and small blind dead.
    """

    kind: ClassVar[str] = "hand-start"
    stacks: Pairs
    posts: tuple[tuple[int, str], ...] = ()


@dataclasses.dataclass(frozen=True, kw_only=True)
class Misdeal(Action):
    """The floor declares a misdeal (the room's ``misdeal`` rule): the hand is void."""

    kind: ClassVar[str] = "misdeal"
    reason: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class HandVoid(Event):
    """A misdealt hand is void: every chip committed and every seat fee went back."""

    kind: ClassVar[str] = "hand-void"
    reason: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class CollectionReturned(SeatAmount):
    """A seat fee goes back from the house to ``seat``'s stack (a misdeal)."""

    kind: ClassVar[str] = "collection-returned"


@dataclasses.dataclass(frozen=True, kw_only=True)
class ChipsIn(SeatAmount):
    """``amount`` cents from ``seat``'s stack into the pot, as ``what`` (ante, small-blind,
    big-blind, dead-blind, bring-in, call, bet, raise, complete) on ``street`` (0-based)."""

    kind: ClassVar[str] = "chips-in"
    what: str
    street: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class Uncalled(SeatAmount):
    """The part of a bet nobody called goes back from the pot to ``seat``'s stack."""

    kind: ClassVar[str] = "uncalled-returned"


@dataclasses.dataclass(frozen=True, kw_only=True)
class PotAmount(Event):
    """``amount`` cents of pot ``pot`` (0 = the main pot): the shape of a pot's events.

    A base for the shape, not a record itself (it has no ``kind``)."""

    pot: int
    amount: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class PotFormed(PotAmount):
    """Pot ``pot`` (0 = the main pot) of ``amount`` cents: ``shares`` = (seat, cents put
    into this pot), ``eligible`` = the seats that may win it."""

    kind: ClassVar[str] = "pot-formed"
    shares: Pairs
    eligible: tuple[int, ...]


@dataclasses.dataclass(frozen=True, kw_only=True)
class Raked(PotAmount):
    """The rake: ``amount`` cents from pot ``pot`` to the house (the collection)."""

    kind: ClassVar[str] = "raked"


@dataclasses.dataclass(frozen=True, kw_only=True)
class PotAwarded(Event):
    """``amount`` cents of pot ``pot`` to ``seat``'s stack, with ``hand`` (its name, or
    "uncontested")."""

    kind: ClassVar[str] = "pot-awarded"
    pot: int
    seat: int
    amount: int
    hand: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class HandShown(SeatEvent):
    """``seat`` shows ``cards`` at the showdown (in the showdown order), best hand ``hand``."""

    kind: ClassVar[str] = "hand-shown"
    cards: str
    hand: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class HandResult(Event):
    """The hand's end, per seat dealt in: stack before, chips put in (net of uncalled
    returns), chips won, stack after; and the collection taken."""

    kind: ClassVar[str] = "hand-result"
    before: Pairs
    committed: Pairs
    won: Pairs
    after: Pairs
    collection: int


__all__ = [
    "ChipsIn",
    "CollectionReturned",
    "HandResult",
    "HandShown",
    "HandStart",
    "HandVoid",
    "Misdeal",
    "PotAwarded",
    "PotFormed",
    "Raked",
    "Uncalled",
]
