"""The shared skeleton of a house-banked poker round: bets, cards, visibility, settlement.

Caribbean Stud, Let It Ride and the hold'em games all run the same way: seats
bet, the card source deals a fixed plan of cards (each card shown to its seat,
to everyone, or to nobody yet), seats decide, more cards may be dealt or turned
up, and every bet settles. :class:`PokerTableRound` holds that machinery once;
each family's engine subclasses it and supplies only its rules: which bets
exist, the deal plan, the decisions, and the settlement.

Visibility is kept per card: a seat's cards are shown only to that seat
(``CardShown(to="<seat>")``), a face-down dealer or board card to nobody until
:meth:`PokerTableRound._reveal` turns it up, and :meth:`view` never lists a card
its viewer may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from games.core.betting import BetBook, VerifyCan, seat_of
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import format_cents
from games.core.records import (
    Action,
    BetPlaced,
    BetSettled,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
    RoundOver,
)

Show = Literal["seat", "all", "none"]


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    DECIDING = "deciding"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Slot:
    """One card the source must deliver: who gets it and who sees it."""

    target: str  # "seat<N>", "dealer" or "board"
    show: Show


class PokerTableRound(VerifyCan):
    """Bets, dealing and settlement common to the house-banked poker games.

    Subclasses set ``bet_names`` (bets placed before the deal), ``riders``
    (bet -> the bet it needs), ``fixed_stakes`` (bet -> the only amount it
    takes) after ``super().__init__`` and implement :meth:`_deal_plan`, :meth:`_after_cards`,
    :meth:`decisions`, :meth:`_verify_decision` and :meth:`_decide`.
    The stakes and the shared limit checks live in ``self._book`` (a
    :class:`~games.core.betting.BetBook`); riders and fixed stakes are checked here.
    """

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        if not 1 <= seats <= variant.seats:
            raise ValueError(f"{variant.id}: seats must be 1..{variant.seats}")
        self.variant = variant
        self.seats = seats
        self.phase = Phase.BETTING
        self._book = BetBook(variant.limits)
        self._hands: dict[int, list[Card]] = {}
        self._dealer: list[Card] = []
        self._dealer_shown: list[bool] = []
        self._board: list[Card] = []
        self._board_shown: list[bool] = []
        self._queue: list[Slot] = []
        self._settlements: list[BetSettled] = []
        self._folded: set[int] = set()
        self._discards: set[Card] = set()
        self.bet_names: tuple[str, ...] = ()
        self.riders: Mapping[str, str] = {}
        self.fixed_stakes: Mapping[str, int] = {}

    # --- state ------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def bets(self) -> dict[int, dict[str, int]]:
        return self._book.by_seat(self.seats)

    @property
    def settlements(self) -> tuple[BetSettled, ...]:
        return tuple(self._settlements)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (for that seat's own use)."""
        return tuple(self._hands.get(seat, ()))

    @property
    def dealer_visible(self) -> tuple[Card, ...]:
        return tuple(c for c, s in zip(self._dealer, self._dealer_shown, strict=True) if s)

    @property
    def board_visible(self) -> tuple[Card, ...]:
        return tuple(c for c, s in zip(self._board, self._board_shown, strict=True) if s)

    def active(self) -> list[int]:
        """Seats with a bet down."""
        return [s for s in range(self.seats) if self._book.has(s)]

    def needs(self) -> Need | None:
        if not self._queue or self.phase is Phase.OVER:
            return None
        slot = self._queue[0]
        return Need(kind=NeedKind.CARD, target=slot.target, hidden=slot.show != "all")

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BETTING:
            return self._book.betting_actions(seat, "deal")
        if self.phase is Phase.DECIDING and not self._queue:
            return self.decisions(seat)
        return frozenset()

    # --- hooks ------------------------------------------------------------------

    def decisions(self, seat: int) -> frozenset[str]:
        """Decision names open to ``seat`` now."""
        raise NotImplementedError

    def _deal_plan(self, active: list[int]) -> list[Slot]:
        raise NotImplementedError

    def _verify_deal(self) -> None:
        """Raise BetRefused if the bets on the layout cannot be dealt."""

    def _on_deal(self, active: list[int]) -> list[Event]:
        return []

    def _after_cards(self) -> list[Event]:
        """Called when the card queue empties."""
        raise NotImplementedError

    def _verify_decision(self, seat: int, action: Decide) -> None:
        """Check the decision's argument (the name is already known to be open)."""

    def _decide(self, seat: int, action: Decide) -> list[Event]:
        raise NotImplementedError

    # --- verify / can / apply ---------------------------------------------------

    def verify(self, action: Action) -> None:
        if isinstance(action, DealCard):
            self._verify_card(action)
            return
        seat = seat_of(action, self.seats)
        if isinstance(action, Decide):
            open_now = self.legal_actions(seat) if self.phase is Phase.DECIDING else frozenset()
            if not open_now:
                raise IllegalAction(f"seat {seat} has no decision to make now")
            if action.decision not in open_now:
                names = ", ".join(sorted(open_now))
                raise IllegalAction(f"seat {seat} may decide {names}, not {action.decision!r}")
            self._verify_decision(seat, action)
            return
        if self.phase is not Phase.BETTING:
            raise IllegalAction(f"{action.kind} is not allowed now: the round is {self.phase}")
        if isinstance(action, PlaceBet):
            self._verify_place(seat, action)
        elif isinstance(action, RemoveBet):
            self._verify_remove(seat, action)
        elif isinstance(action, Deal):
            if not self._book:
                raise IllegalAction("place a bet before dealing")
            self._verify_deal()
        else:
            raise IllegalAction(f"{self.variant.title} has no action {action.kind!r}")

    def _verify_place(self, seat: int, action: PlaceBet) -> None:
        if action.bet not in self.bet_names:
            names = ", ".join(self.bet_names)
            raise BetRefused(f"no {action.bet!r} bet to place (bets: {names})")
        self._book.check_amount(action.amount)
        needed = self.riders.get(action.bet)
        if needed is not None and (seat, needed) not in self._book:
            raise BetRefused(f"place the {needed} bet before the {action.bet} bet")
        fixed = self.fixed_stakes.get(action.bet)
        if fixed is not None and self._book.stake(seat, action.bet) + action.amount != fixed:
            raise BetRefused(f"the {action.bet} bet is exactly {format_cents(fixed)}")
        self._book.check_place(seat, action.bet, action.amount)

    def _verify_remove(self, seat: int, action: RemoveBet) -> None:
        self._book.check_remove(seat, action.bet, action.amount)
        current = self._book.stake(seat, action.bet)
        left = current - (action.amount or current)
        if left and action.bet in self.fixed_stakes:
            raise BetRefused(
                f"{action.bet} bet would be left at {left} cents: it is a fixed amount"
            )
        if not left:
            mine = self._book.of(seat)
            riders = [b for b, need in self.riders.items() if need == action.bet and b in mine]
            if riders:
                raise BetRefused(f"remove the {', '.join(riders)} bet before the {action.bet}")

    def _verify_card(self, action: DealCard) -> None:
        if action.seat is not None:
            raise IllegalAction("cards come from the card source, not from a seat")
        if self.needs() is None:
            raise IllegalAction("no card is wanted now")
        if action.card.is_joker:
            raise IllegalAction("there is no joker in this one-deck game")
        if action.card in self._dealt():
            raise IllegalAction(f"{action.card} was already dealt from this one-deck game")

    def _dealt(self) -> set[Card]:
        out = set(self._dealer) | set(self._board) | self._discards
        for h in self._hands.values():
            out.update(h)
        return out

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, DealCard):
            return tuple(self._apply_card(action.card))
        seat = action.seat
        assert seat is not None
        if isinstance(action, PlaceBet):
            return (self._book.place(seat, action.bet, action.amount),)
        if isinstance(action, RemoveBet):
            return (self._book.remove(seat, action.bet, action.amount),)
        if isinstance(action, Deal):
            active = self.active()
            self._hands = {s: [] for s in active}
            self._discards = set()
            self._queue = self._deal_plan(active)
            self.phase = Phase.DEALING
            events: list[Event] = [Message(text="no more bets")]
            events.extend(self._on_deal(active))
            return tuple(events)
        assert isinstance(action, Decide)
        return tuple(self._decide(seat, action))

    def _apply_card(self, card: Card) -> list[Event]:
        slot = self._queue.pop(0)
        events: list[Event] = []
        if slot.target == "dealer":
            self._dealer.append(card)
            self._dealer_shown.append(slot.show == "all")
        elif slot.target == "board":
            self._board.append(card)
            self._board_shown.append(slot.show == "all")
        else:
            self._hands[int(slot.target[4:])].append(card)
        if slot.show == "all":
            events.append(CardShown(card=card, hand=slot.target))
        elif slot.show == "seat":
            events.append(CardShown(card=card, hand=slot.target, to=slot.target[4:]))
        if not self._queue:
            events.extend(self._after_cards())
        return events

    # --- helpers for subclasses -----------------------------------------------------

    def _reveal(self, where: Literal["dealer", "board"], upto: int | None = None) -> list[Event]:
        """Turn up the face-down cards of the dealer or the board (the first ``upto``)."""
        cards, shown = (
            (self._dealer, self._dealer_shown)
            if where == "dealer"
            else (self._board, self._board_shown)
        )
        events: list[Event] = []
        for i in range(len(cards) if upto is None else upto):
            if not shown[i]:
                shown[i] = True
                events.append(CardShown(card=cards[i], hand=where))
        return events

    def _place(self, seat: int, bet: str, amount: int) -> BetPlaced:
        return self._book.add_by_rule(seat, bet, amount)

    def _settle(self, seat: int, bet: str, returned: int, note: str) -> BetSettled:
        stake = self._book.stake(seat, bet)
        result = "win" if returned > stake else "push" if returned == stake else "lose"
        s = BetSettled(seat=seat, bet=bet, stake=stake, returned=returned, result=result, note=note)
        self._settlements.append(s)
        return s

    def _close(self) -> list[Event]:
        self.phase = Phase.OVER
        self._queue = []
        net = sum(s.net for s in self._settlements)
        summary = f"round over: players net {'+' if net >= 0 else '-'}{format_cents(abs(net))}"
        return [RoundOver(summary=summary)]

    def view(self, seat: int | None) -> dict[str, Any]:
        """Own cards for a seat; only the dealer and board cards turned up so far."""
        need = self.needs()
        return {
            "game": self.variant.id,
            "phase": str(self.phase),
            "seat": seat,
            "hand": [str(c) for c in self._hands.get(seat, [])] if seat is not None else [],
            "dealer": [str(c) for c in self.dealer_visible],
            "dealer_cards_dealt": len(self._dealer),
            "board": [str(c) for c in self.board_visible],
            "board_cards_dealt": len(self._board),
            "decisions": sorted(self.legal_actions(seat))
            if seat is not None and self.phase is Phase.DECIDING
            else [],
            "folded": sorted(self._folded),
            "next_card_to": need.target if need else None,
            "bets": {str(s): b for s, b in self.bets.items() if b},
            "settlements": [s.encode() for s in self._settlements],
        }
