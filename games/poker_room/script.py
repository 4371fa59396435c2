"""A hand driven from a known deck: the dealing loop the simulation, the bench and the
tests share (never a table's: a table's cards come from its shoe, one need at a time).

:class:`ScriptedHand` starts a hand, deals from ``deck`` whenever the engine needs a
card (the first button, on a new table, at ``button_position``), and stops when a
player must act; :meth:`ScriptedHand.act` plays one decision and deals on.

>>> from games.core.cards import parse_cards
>>> from games.poker_room import VARIANTS
>>> h = ScriptedHand(VARIANTS[0], {0: 2000, 1: 2000, 2: 2000},
...                  deck=parse_cards("Ah Kh 2c 3c 7d 8d"))
>>> h.round.button, h.round.to_act  # seat 0 the button, 1 and 2 the blinds: 0 acts
(0, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.core.cards import Card
from games.core.engine import NeedKind, Variant
from games.core.records import DealCard, Decide, Event, StartPosition
from games.poker_room.engine import PokerRoomRound
from games.poker_room.events import HandStart
from games.poker_room.rules import RoomRules


class DeckEmpty(Exception):
    """The script's deck ran out before the hand did."""


class ScriptedHand:
    """One hand dealt from ``deck`` (see the module docstring)."""

    def __init__(
        self,
        variant: Variant[RoomRules],
        stacks: Mapping[int, int],
        *,
        deck: Iterable[Card],
        button_position: int = 1,
        previous_button: int | None = None,
        posts: Sequence[tuple[int, str]] = (),
        seats: int | None = None,
    ) -> None:
        self.round = PokerRoomRound(variant, seats or variant.seats, button=previous_button)
        self.deck = iter(deck)
        self.button_position = button_position
        self.events: list[Event] = []
        start = HandStart(stacks=tuple(sorted(stacks.items())), posts=tuple(posts))
        self.events += self.round.apply(start)
        self.deal()

    def deal(self) -> None:
        """Answer the engine's needs until a player must act or the hand is over."""
        r = self.round
        while (need := r.needs()) is not None:
            if need.kind is NeedKind.POSITION:
                self.events += r.apply(StartPosition(position=self.button_position))
                continue
            card = next(self.deck, None)
            if card is None:
                raise DeckEmpty("the script's deck ran out")
            self.events += r.apply(DealCard(card=card))

    def act(self, seat: int, decision: str, to: int | None = None) -> list[Event]:
        """Play one decision, then deal on; returns the events of both."""
        mark = len(self.events)
        arg = "" if to is None else str(to)
        self.events += self.round.apply(Decide(seat=seat, decision=decision, arg=arg))
        self.deal()
        return self.events[mark:]

    def of(self, kind: type[Event]) -> list[Event]:
        """The events of one kind so far."""
        return [e for e in self.events if isinstance(e, kind)]


__all__ = ["DeckEmpty", "ScriptedHand"]
