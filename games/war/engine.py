"""The Casino War round: a pure state machine (standard rules, README gap 9).

Order of play: seats place a ``main`` bet and/or a ``tie`` bet; after
:class:`~games.core.records.Deal` the engine asks for one card per seat with a
bet (in seat order, face up) and then the dealer's card. Tie bets and every
seat whose card differs from the dealer's settle at once. A seat with a main
bet that tied decides ``war`` (raising an amount equal to the bet: a ``raise``
bet is placed) or ``surrender`` (half the bet back). When every tied seat has
decided and some went to war, the engine asks for the burn cards (face down,
``Need.hidden``: never shown to anyone), then one card per seat at war and one
for the dealer. A seat's war card equal to or above the dealer's wins the
raise even money and pushes the main bet (or pays it the tie-after-war bonus
when the table has one, on a tie); a lower card loses both.

Cards arrive only as :class:`~games.core.records.DealCard` actions; the engine
draws nothing itself. Aces are high; suits do not matter.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import TypedDict

from games.core.betting import BookBets
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, format_cents, pay, split
from games.core.records import (
    JSON,
    Action,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    Message,
    PlaceBet,
    RoundOver,
)
from games.core.round import Round
from games.war.rules import PLAYER_BETS, WarRules


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"  # the first cards
    DECIDING = "deciding"  # tied seats choose war or surrender
    WAR = "war"  # burn cards, then the war cards
    OVER = "over"


class WarView(TypedDict):
    """What a seat sees of a round (JSON-able): face-up cards, burns only as a count."""

    game: str
    phase: str
    seat: int | None
    cards: dict[str, str]
    dealer: str | None
    burned: int
    war_cards: dict[str, str]
    dealer_war: str | None
    deciding: list[int]
    at_war: list[int]
    next_card_to: str | None
    bets: dict[str, dict[str, int]]
    settlements: list[JSON]


class WarRound(BookBets, Round[WarRules]):
    """One Casino War round for ``seats`` seats (numbered from 0)."""

    GAME = "Casino War"
    PASSIVE = ("surrender",)  # an absent tied seat does not raise

    def __init__(self, variant: Variant[WarRules], seats: int = 1) -> None:
        super().__init__(variant, seats, phase=Phase.BETTING)
        if not 1 <= seats <= variant.seats:
            raise ValueError(f"{variant.id}: seats must be 1..{variant.seats}")
        self._cards: dict[int, Card] = {}
        self._dealer: Card | None = None
        self._burned: list[Card] = []
        self._war_cards: dict[int, Card] = {}
        self._dealer_war: Card | None = None
        self._pending: set[int] = set()  # tied seats yet to decide
        self._at_war: list[int] = []

    # --- state ------------------------------------------------------------------

    def _active(self) -> list[int]:
        return [s for s in range(self.seats) if self.book.has(s)]

    def needs(self) -> Need | None:
        if self.phase is Phase.DEALING:
            for seat in self._active():
                if seat not in self._cards:
                    return Need(kind=NeedKind.CARD, target=f"seat{seat}")
            return Need(kind=NeedKind.CARD, target="dealer")
        if self.phase is Phase.WAR:
            if len(self._burned) < self.rules.burn_cards:
                return Need(kind=NeedKind.CARD, target="burn", hidden=True)
            for seat in self._at_war:
                if seat not in self._war_cards:
                    return Need(kind=NeedKind.CARD, target=f"seat{seat}")
            return Need(kind=NeedKind.CARD, target="dealer")
        return None

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BETTING:
            return self.book.betting_actions(seat, "deal")
        if self.phase is Phase.DECIDING and seat in self._pending:
            return frozenset({"war", "surrender"})
        return frozenset()

    # --- verify / apply, by action kind ------------------------------------------------

    def seat_of(self, action: Action) -> int:
        seat = action.seat
        if seat is None or not 0 <= seat < self.seats:
            raise IllegalAction(f"{action.kind}: no seat {seat!r} at this table")
        return seat

    def verify_any(self, action: Action) -> None:
        """A seat's action needs a seat here; all but the war decision need the betting phase."""
        if isinstance(action, DealCard):
            return
        self.seat_of(action)
        if isinstance(action, Decide):
            return
        if self.phase is not Phase.BETTING:
            raise IllegalAction(f"{action.kind} is not allowed now: the round is {self.phase}")

    def verify_place_bet(self, action: PlaceBet) -> None:
        if action.bet not in PLAYER_BETS:
            raise BetRefused(f"no {action.bet!r} bet to place (bets: main, tie)")
        self.book.check_place(self.seat_of(action), action.bet, action.amount)

    def verify_deal(self, action: Deal) -> None:
        if not self.book:
            raise IllegalAction("place a bet before dealing")

    def apply_deal(self, action: Deal) -> tuple[Event, ...]:
        self.phase = Phase.DEALING
        return (Message(text="no more bets"),)

    def verify_decide(self, action: Decide) -> None:
        seat = self.seat_of(action)
        if self.phase is not Phase.DECIDING or seat not in self._pending:
            raise IllegalAction(f"seat {seat} has no war decision to make now")
        if action.decision not in ("war", "surrender"):
            raise IllegalAction(f"decide 'war' or 'surrender', not {action.decision!r}")

    def apply_decide(self, action: Decide) -> tuple[Event, ...]:
        seat = self.seat_of(action)
        self._pending.discard(seat)
        stake = self.book.stake(seat, "main")
        events: list[Event] = []
        if action.decision == "surrender":
            half, _kept = split(Cents(stake), 2)  # the odd cent, if any, stays with the house
            events.append(
                self.settle(seat, "main", half, "surrendered: half the bet back", result="lose")
            )
        else:
            self._at_war.append(seat)
            events.append(self.book.add_by_rule(seat, "raise", stake))
            events.append(Message(text=f"seat {seat} goes to war"))
        if not self._pending:
            if self._at_war:
                self._at_war.sort()
                self.phase = Phase.WAR
            else:
                events.extend(self._finish())
        return tuple(events)

    def verify_deal_card(self, action: DealCard) -> None:
        self.check_dealt_card(action, "there is no joker in a Casino War shoe")
        seen = Counter(
            [*self._cards.values(), *self._burned, *self._war_cards.values()]
            + [c for c in (self._dealer, self._dealer_war) if c is not None]
        )
        if seen[action.card] >= self.rules.decks:
            raise IllegalAction(
                f"a {self.rules.decks}-deck shoe holds only {self.rules.decks} of {action.card}"
            )

    def apply_deal_card(self, action: DealCard) -> tuple[Event, ...]:
        card = action.card
        need = self.needs()
        assert need is not None
        if need.target == "burn":
            self._burned.append(card)
            return (Message(text=f"burn card {len(self._burned)} of {self.rules.burn_cards}"),)
        events: list[Event] = [CardShown(card=card, hand=need.target)]
        if self.phase is Phase.DEALING:
            if need.target == "dealer":
                self._dealer = card
                events.extend(self._resolve_first())
            else:
                self._cards[int(need.target[4:])] = card
        else:
            if need.target == "dealer":
                self._dealer_war = card
                events.extend(self._resolve_war())
            else:
                self._war_cards[int(need.target[4:])] = card
        return tuple(events)

    # --- view ---------------------------------------------------------------------

    def view(self, seat: int | None) -> WarView:
        """Cards dealt face up so far; burned cards only as a count; never the shoe."""
        need = self.needs()
        return WarView(
            game=self.variant.id,
            phase=str(self.phase),
            seat=seat,
            cards={str(s): str(c) for s, c in self._cards.items()},
            dealer=str(self._dealer) if self._dealer else None,
            burned=len(self._burned),
            war_cards={str(s): str(c) for s, c in self._war_cards.items()},
            dealer_war=str(self._dealer_war) if self._dealer_war else None,
            deciding=sorted(self._pending),
            at_war=list(self._at_war),
            next_card_to=need.target if need else None,
            bets={str(s): b for s, b in self.bets.items() if b},
            settlements=[s.encode() for s in self._settlements],
        )

    # --- settling -----------------------------------------------------------------

    def _resolve_first(self) -> list[Event]:
        dealer = self._dealer
        assert dealer is not None
        events: list[Event] = []
        for seat in self._active():
            card = self._cards[seat]
            vs = f"{card} vs dealer {dealer}"
            if (seat, "tie") in self.book:
                stake = self.book.stake(seat, "tie")
                if card.rank == dealer.rank:
                    won = pay(Cents(stake), self.rules.pays["tie"])
                    note = f"{vs}: tie, pays {self.rules.pays['tie']}"
                    events.append(self.settle(seat, "tie", stake + won, note, result="win"))
                else:
                    events.append(self.settle(seat, "tie", 0, f"{vs}: no tie", result="lose"))
            if (seat, "main") not in self.book:
                continue
            stake = self.book.stake(seat, "main")
            if card.rank > dealer.rank:
                won = pay(Cents(stake), self.rules.pays["main"])
                events.append(self.settle(seat, "main", stake + won, f"{vs}: win", result="win"))
            elif card.rank < dealer.rank:
                events.append(self.settle(seat, "main", 0, f"{vs}: lose", result="lose"))
            else:
                self._pending.add(seat)
                events.append(Message(text=f"seat {seat}: {vs} is a tie: war or surrender?"))
        if self._pending:
            self.phase = Phase.DECIDING
        else:
            events.extend(self._finish())
        return events

    def _resolve_war(self) -> list[Event]:
        dealer = self._dealer_war
        assert dealer is not None
        events: list[Event] = []
        bonus = self.rules.tie_after_war_bonus
        for seat in self._at_war:
            card = self._war_cards[seat]
            stake = self.book.stake(seat, "main")
            raised = self.book.stake(seat, "raise")
            vs = f"war: {card} vs dealer {dealer}"
            if card.rank >= dealer.rank:
                raise_win = pay(Cents(raised), self.rules.pays["raise"])
                if card.rank == dealer.rank and bonus.num:
                    won = pay(Cents(stake), bonus)
                    note = f"{vs}: tie bonus"
                    events.append(self.settle(seat, "main", stake + won, note, result="win"))
                else:
                    events.append(self.settle(seat, "main", stake, f"{vs}: push", result="push"))
                returned = raised + raise_win
                events.append(self.settle(seat, "raise", returned, f"{vs}: win", result="win"))
            else:
                events.append(self.settle(seat, "main", 0, f"{vs}: lose", result="lose"))
                events.append(self.settle(seat, "raise", 0, f"{vs}: lose", result="lose"))
        events.extend(self._finish())
        return events

    def _finish(self) -> list[Event]:
        self.phase = Phase.OVER
        net = sum(s.net for s in self._settlements)
        summary = f"round over: players net {'+' if net >= 0 else '-'}{format_cents(abs(net))}"
        return [RoundOver(summary=summary)]
