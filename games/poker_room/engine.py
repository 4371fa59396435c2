"""The poker room hand: fixed-limit hold'em, Omaha and seven-card stud, player against player.

One :class:`PokerRoomRound` is one hand. The room starts it with
:class:`~games.poker_room.events.HandStart` (who is dealt in, their stacks); the card
source then answers :meth:`needs` with ``DealCard`` (burns included: ``target="burn"``)
and, on a new hold'em table, a ``StartPosition`` that draws the first button among the
seats dealt in (the card room's deal for the button). Players act with ``Decide``:
``decision`` one of fold, check, call, bet, raise, complete, bring-in, and ``arg`` the
amount their bet becomes (cents, as text), needed only where two amounts are legal
(stud's open pair). :meth:`options` lists each seat's legal actions with amounts.

Hold'em and Omaha (page 001): the button; the small blind left of it, the big blind
next (heads-up, the standard: the button posts the small blind and acts first before
the flop); the blinds are live; after the flop the first player left of the button
acts first; a burn before the flop, turn and river. Stud: antes, two down and one up,
the bring-in, then the high board first; the last card down, or one common card face up
when too few cards remain (the room's ``common_card`` rule).

>>> from games.core.cards import parse_cards
>>> from games.core.records import DealCard, Decide, StartPosition
>>> from games.poker_room import VARIANTS, new_game
>>> from games.poker_room.events import HandStart
>>> r = new_game(VARIANTS[0], 9)
>>> _ = r.apply(HandStart(stacks=((0, 4000), (4, 4000))))
>>> _ = r.apply(StartPosition(position=1))  # the button: seat 0
>>> for c in parse_cards("Ah 2c Kh 3d"):
...     _ = r.apply(DealCard(card=c))
>>> r.to_act, [(o.name, o.to) for o in r.options(0)]  # heads-up: the button acts first
(0, [('fold', 100), ('call', 200), ('raise', 400)])
>>> _ = r.apply(Decide(seat=0, decision="fold"))
>>> r.is_over, r.chips.stack
(True, {0: 3900, 4: 4100})
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import IllegalAction
from games.core.records import (
    Action,
    CardShown,
    CollectionCharged,
    DealCard,
    Decide,
    Event,
    StartPosition,
)
from games.core.round import Round
from games.poker_room import flow
from games.poker_room.betting import Chips, Option, Street
from games.poker_room.events import ChipsIn, HandStart, Misdeal
from games.poker_room.rules import RoomRules
from games.poker_room.views import RoomView, room_view


@dataclass(frozen=True, slots=True)
class RoomCarry:
    """What a finished hand hands to the table's next one: the button it moves on from."""

    button: int

    def encode(self) -> dict[str, Any]:
        return {"button": self.button}


@dataclass(frozen=True, slots=True)
class Slot:
    """One card the source must deliver: to a seat (down or up), the board, or the burn."""

    target: str  # "seat<N>", "board", "burn"
    up: bool
    seat: int = -1  # N of "seat<N>"


@functools.cache
def _need(slot: Slot) -> Need:
    """The need for one slot's card (one object per kind of slot)."""
    return Need(kind=NeedKind.CARD, target=slot.target, hidden=not slot.up)


class PokerRoomRound(Round[RoomRules]):
    """One hand at a poker room table (see the module docstring)."""

    GAME = "poker room"
    PASSIVE: ClassVar[tuple[str, ...]] = ("check", "fold")

    def __init__(self, variant: Variant[RoomRules], seats: int, *, button: int | None) -> None:
        super().__init__(variant, seats, phase=flow.RoomPhase.START)
        self.previous_button = button
        self.button: int | None = None
        self.chips = Chips({})
        self.before: dict[int, int] = {}
        self.cards: dict[int, list[tuple[Card, bool]]] = {}  # seat -> (card, face up)
        self.board: list[Card] = []
        self.dealt = 0
        self.slots: list[Slot] = []
        self.street_no = 0
        self.street: Street | None = None
        self.openers: list[int] = []  # first to act (or who would be) of each round
        self.aggressors: list[int | None] = []
        self.collection = 0
        self.shown: set[int] = set()
        self.voluntary = False  # a player has acted (a misdeal is no longer possible)
        self.void = False  # misdealt
        self.seen: set[Card] = set()  # every card dealt this hand, burns included
        self.result: list[str] = []  # after the hand: who showed what and won what
        self._posts: dict[int, str] = {}

    # --- the contract ------------------------------------------------------------------

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The seats dealt in, in seat order."""
        return self.chips.seats

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None while cards are dealt, or over)."""
        if self.phase != flow.RoomPhase.BETTING or self.street is None:
            return None
        return self.street.to_act

    def needs(self) -> Need | None:
        if self.phase == flow.RoomPhase.BUTTON:
            return Need(kind=NeedKind.POSITION, count=len(self.seats_in), target="button")
        if self.phase == flow.RoomPhase.DEALING and self.slots:
            return _need(self.slots[0])
        return None

    def options(self, seat: int) -> list[Option]:
        """The seat's legal actions now, each with its amounts (none when not its turn)."""
        if self.to_act != seat or self.street is None:
            return []
        return self.street.options(seat)

    def legal_actions(self, seat: int) -> frozenset[str]:
        return frozenset(o.name for o in self.options(seat))

    def default_action(self, seat: int) -> Action | None:
        """The action clock's choice: check if possible, else fold; a bring-in that is due
        is posted (it is forced)."""
        names = self.legal_actions(seat)
        for name in ("check", "bring-in", "fold"):
            if name in names:
                return Decide(seat=seat, decision=name)
        return None

    def carry(self) -> RoomCarry | None:
        """The button the next hand moves on from (hold'em and Omaha; stud has none)."""
        if self.rules.is_stud or self.button is None:
            return None
        if not self.void:
            return RoomCarry(button=self.button)
        if self.previous_button is not None:  # a misdeal: the button does not move
            return RoomCarry(button=self.previous_button)
        return RoomCarry(button=flow.before(self.seats_in, self.button))

    def view(self, seat: int | None) -> RoomView:
        return room_view(self, seat)

    # --- the hand start ----------------------------------------------------------------

    def verify_hand_start(self, action: HandStart) -> None:
        if action.seat is not None:
            raise IllegalAction("the room starts a hand, not a seat")
        if self.phase != flow.RoomPhase.START:
            raise IllegalAction("the hand has already started")
        flow.check_start(self, action)

    def apply_hand_start(self, action: HandStart) -> list[Event]:
        stacks = dict(action.stacks)
        self.before = dict(stacks)
        self.chips = Chips(stacks)
        events: list[Event] = []
        fee = self.rules.collection.seat_fee
        for s in self.seats_in:
            if fee:
                self.chips.stack[s] -= fee
                self.collection += fee
                events.append(CollectionCharged(seat=s, amount=fee))
        if self.rules.is_stud:
            events += self._post(flow.antes(self))
            self.slots = flow.stud_slots(self, 0)
            self.phase = flow.RoomPhase.DEALING
            return events
        if self.previous_button is None:
            self.phase = flow.RoomPhase.BUTTON
            self._posts = dict(action.posts)
            return events
        self.button = flow.after(self.seats_in, self.previous_button)
        return events + self._open_blinds(dict(action.posts))

    def verify_start_position(self, action: StartPosition) -> None:
        if action.seat is not None or self.phase != flow.RoomPhase.BUTTON:
            raise IllegalAction("no button is being drawn now")
        if not 1 <= action.position <= len(self.seats_in):
            raise IllegalAction(f"the button draw is 1..{len(self.seats_in)}")

    def apply_start_position(self, action: StartPosition) -> list[Event]:
        self.button = self.seats_in[action.position - 1]
        return self._open_blinds(self._posts)

    def _open_blinds(self, posts: Mapping[int, str]) -> list[Event]:
        assert self.button is not None
        events = self._post(flow.blinds(self, posts))
        self.slots = flow.hole_slots(self)
        self.phase = flow.RoomPhase.DEALING
        return events

    def _post(self, posts: list[tuple[int, int, str]]) -> list[Event]:
        out: list[Event] = []
        for seat, amount, what in posts:
            if what in ("ante", "dead-blind"):
                put = self.chips.put_dead(seat, amount)
            else:
                put = self.chips.put(seat, amount)
            if put:
                out.append(ChipsIn(seat=seat, amount=put, what=what, street=0))
        return out

    # --- cards ---------------------------------------------------------------------------

    def verify_deal_card(self, action: DealCard) -> None:
        if action.seat is not None:
            raise IllegalAction("cards come from the card source, not from a seat")
        if self.phase != flow.RoomPhase.DEALING or not self.slots:
            raise IllegalAction("no card is wanted now")
        if action.card.is_joker:
            raise IllegalAction("a poker room deals from a 52-card deck, no joker")
        if action.card in self.seen:
            raise IllegalAction(f"{action.card} is already dealt this hand")

    def apply_deal_card(self, action: DealCard) -> list[Event]:
        slot = self.slots.pop(0)
        card = action.card
        self.dealt += 1
        self.seen.add(card)
        events: list[Event] = []
        if slot.target == "burn":
            pass
        elif slot.target == "board":
            self.board.append(card)
            events.append(CardShown(card=card, hand="board", to="all"))
        else:
            seat = slot.seat
            self.cards.setdefault(seat, []).append((card, slot.up))
            to = "all" if slot.up else str(seat)
            events.append(CardShown(card=card, hand=slot.target, to=to))
        if not self.slots:
            events += flow.advance(self)
        return events

    # --- decisions -----------------------------------------------------------------------

    def verify_decide(self, action: Decide) -> None:
        seat = self.seat_of(action)
        if self.phase != flow.RoomPhase.BETTING or self.street is None:
            raise IllegalAction("no betting now")
        to = flow.amount_arg(action.arg)
        names = [o for o in self.street.options(seat) if o.name == action.decision]
        if not names or (to is not None and all(o.to != to for o in names)):
            raise IllegalAction(self.street.refusal(seat, action.decision, to))
        if to is None and len(names) > 1:
            amounts = ", ".join(str(o.to) for o in names)
            raise IllegalAction(f"{action.decision}: say the amount ({amounts} cents)")

    def apply_decide(self, action: Decide) -> list[Event]:
        assert self.street is not None and action.seat is not None
        seat, street = action.seat, self.street
        before = self.chips.bet[seat]
        street.act(seat, action.decision, flow.amount_arg(action.arg))
        self.voluntary = True
        events: list[Event] = []
        put = self.chips.bet[seat] - before
        if put:
            events.append(
                ChipsIn(seat=seat, amount=put, what=action.decision, street=self.street_no)
            )
        if street.over:
            events += flow.close_round(self)
        return events

    # --- misdeal ---------------------------------------------------------------------------

    def verify_misdeal(self, action: Misdeal) -> None:
        flow.check_misdeal(self, action)

    def apply_misdeal(self, action: Misdeal) -> list[Event]:
        return flow.misdeal(self, action)


__all__ = ["PokerRoomRound", "RoomCarry", "Slot"]
