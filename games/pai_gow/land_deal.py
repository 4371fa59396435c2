"""The order pai gow hands are dealt in, and the land table's deal (page 002, "The Deal").

Every pai gow game deals seven-card hands one card at a time, asked for through
``needs()``; a :class:`DealPlan` is that order: the hands' targets in dealing order
and the cards each has received. The online tables deal each seat with a main bet,
in seat order, then the dealer (:func:`seat_order`).

The land table deals as page 002 says: "An electronic random-number generator
usually determines the position of the first hand dealt for each game. Cards are
dealt face down, seven at a time, clockwise from the starting point and at each
playing position, even if empty, including the dealer's position." Its reading
(rules README, "The land table's deal"): seven hands of seven cards go to the seven
positions (49 of the 53 cards; four are never dealt), clockwise from a start position
the RNG picks. The start position enters as an action from the source
(:class:`~games.core.records.StartPosition`, asked for by :data:`START_NEED`), so the
engine stays pure and the log replays it.

Positions are numbered clockwise the way the table is dealt: 1 is the dealer's, 2 to 7
are seats 0 to 5 (seat 0 at the dealer's left). A hand dealt to a position nobody plays
is dealt face down and discarded unseen (target ``position<n>``), except the first one
on a dragon table, which is the dragon hand (target ``dragon``, :mod:`games.pai_gow.dragon`).

>>> clockwise(4)
(4, 5, 6, 7, 1, 2, 3)
>>> land_targets(6, playing=[0, 2], dragon=True)  # seat 4 (position 6) is empty
('dragon', 'position7', 'dealer', 'seat0', 'position3', 'seat2', 'position5')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from games.core.cards import Card
from games.core.engine import Need, NeedKind
from games.core.errors import IllegalAction
from games.core.records import Event, Message, StartPosition
from games.pai_gow.rules import PaiGowRules

HAND_CARDS = 7
POSITIONS = 7  # six seats and the dealer's: 49 of the 53 cards
LAND_SEATS = POSITIONS - 1
DEALER = "dealer"
DRAGON = "dragon"
DEALER_POSITION = 1
START_NEED = Need(kind=NeedKind.POSITION, count=POSITIONS, target="start")


def seat_position(seat: int) -> int:
    """The table position of ``seat`` (seat 0 is position 2, at the dealer's left)."""
    return seat + 2


def clockwise(start: int) -> tuple[int, ...]:
    """The seven positions in dealing order from ``start`` (1..7)."""
    return tuple((start - 1 + i) % POSITIONS + 1 for i in range(POSITIONS))


def land_targets(start: int, playing: Collection[int], *, dragon: bool) -> tuple[str, ...]:
    """Every position's hand in dealing order from ``start``: ``seat<n>`` for a seat that
    plays, ``dealer``, the first unplayed position's ``dragon`` (on a dragon table) and
    ``position<p>`` for the other hands nobody plays."""
    out: list[str] = []
    for position in clockwise(start):
        seat = position - 2
        if position == DEALER_POSITION:
            out.append(DEALER)
        elif seat in playing:
            out.append(f"seat{seat}")
        elif dragon and DRAGON not in out:
            out.append(DRAGON)
        else:
            out.append(f"position{position}")
    return tuple(out)


def seat_order(playing: Iterable[int]) -> tuple[str, ...]:
    """The online tables' deal: each seat that plays, in seat order, then the dealer."""
    return (*(f"seat{s}" for s in sorted(playing)), DEALER)


@dataclass(slots=True)
class DealPlan:
    """The hands a game deals, in dealing order, and the cards each has received."""

    targets: tuple[str, ...]
    cards: dict[str, list[Card]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for target in self.targets:
            self.cards.setdefault(target, [])

    def need(self) -> Need | None:
        """The next card wanted: face up to a seat (shown to it), face down otherwise."""
        for target in self.targets:
            if len(self.cards[target]) < HAND_CARDS:
                hidden = not target.startswith("seat")
                return Need(kind=NeedKind.CARD, target=target, hidden=hidden)
        return None

    def add(self, card: Card) -> tuple[str, bool]:
        """Deal ``card`` to the next hand; (its target, whether the deal is complete)."""
        need = self.need()
        assert need is not None
        self.cards[need.target].append(card)
        return need.target, self.need() is None

    def dealt(self) -> list[Card]:
        """Every card dealt so far."""
        return [c for hand in self.cards.values() for c in hand]


class _Dealing(Protocol):
    """What :class:`LandDeal` needs of the round it is mixed into."""

    phase: StrEnum
    rules: PaiGowRules
    start_position: int | None
    _plan: DealPlan | None
    _order: list[int]

    def _start_deal(self, plan: DealPlan) -> None: ...


class LandDeal:
    """The round's ``start-position`` action: where the land deal starts (page 002)."""

    start_position: int | None = None  # the position picked, once the source gave it

    def verify_start_position(self: _Dealing, action: StartPosition) -> None:
        if not self.rules.land_deal:
            raise IllegalAction("this table deals in seat order: it takes no start position")
        if self.phase != "dealing" or self._plan is not None:
            raise IllegalAction(f"no start position is wanted now: the round is {self.phase}")
        if action.seat is not None:
            raise IllegalAction("the start position comes from the source, not from a seat")
        if not 1 <= action.position <= POSITIONS:
            raise IllegalAction(f"the start position is one of 1..{POSITIONS}")

    def apply_start_position(self: _Dealing, action: StartPosition) -> tuple[Event, ...]:
        start = action.position
        self.start_position = start
        self._start_deal(DealPlan(land_targets(start, self._order, dragon=self.rules.dragon)))
        where = "the dealer's" if start == DEALER_POSITION else f"seat {start - 2}'s"
        return (
            Message(
                text=f"the deal starts at position {start} ({where}): seven cards to each "
                "of the seven positions clockwise, the empty ones and the dealer's included"
            ),
        )


__all__ = [
    "DEALER",
    "DRAGON",
    "HAND_CARDS",
    "LAND_SEATS",
    "POSITIONS",
    "START_NEED",
    "DealPlan",
    "LandDeal",
    "clockwise",
    "land_targets",
    "seat_order",
    "seat_position",
]
