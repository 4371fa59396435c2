"""The house-banked poker table: bets, a plan of cards, who sees each card, settlement.

Caribbean Stud, Let It Ride, the hold'em games and the three-card games all run the
same way: seats bet, the card source deals a fixed plan of cards (each card shown to
its seat, to everyone, or to nobody yet), seats decide, more cards may be dealt or
turned up, and every bet settles. :class:`PokerTableRound` is that machinery once, on
the one round skeleton (:class:`~games.core.round.Round`): each family's engine
subclasses it and supplies only its rules: which bets exist and what they ride on
(:meth:`PokerTableRound.bet_rules`), the deal plan, the decisions and the settlement.

Visibility is kept per card: a seat's cards are shown only to that seat
(``CardShown(to="<seat>")``), a face-down dealer or board card to nobody until
:meth:`PokerTableRound.reveal` turns it up, and a view never lists a card its viewer
may not see.

>>> from games.core.engine import BetLimit, Variant
>>> from games.core.records import Deal, PlaceBet
>>> class HighCard(PokerTableRound[None]):
...     GAME = "high card"
...     def bet_rules(self) -> BetRules:
...         return BetRules(names=("ante",))
...     def deal_plan(self, active: list[int]) -> list[Slot]:
...         return [Slot(f"seat{s}", "seat") for s in active] + [Slot("dealer", "none")]
...     def decisions(self, seat: int) -> frozenset[str]:
...         return frozenset()
...     def after_cards(self) -> list[Event]:
...         return self.reveal("dealer") + self.close()
...     def decide(self, seat: int, action: Decide) -> list[Event]:
...         return []
...     def view(self, seat: int | None) -> PokerTableView:
...         return self.table_view(seat)
>>> v = Variant(id="hc", family="hc", title="High Card", source="", rules=None, seats=2,
...             limits={"ante": BetLimit(minimum=100, maximum=1000)})
>>> r = HighCard(v, 1)
>>> r.apply(PlaceBet(seat=0, bet="ante", amount=500))
(BetPlaced(seat=0, bet='ante', amount=500),)
>>> r.apply(Deal(seat=0)), r.needs().target
((Message(text='no more bets'),), 'seat0')
>>> r.verify(PlaceBet(seat=0, bet="ante", amount=500))
Traceback (most recent call last):
...
games.core.errors.IllegalAction: place-bet is not allowed now: the round is dealing
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypedDict, TypeVar

from games.core import collection
from games.core.betting import BookBets
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import format_cents
from games.core.progressive import Hand, JackpotTable
from games.core.records import (
    JSON,
    Action,
    BetPlaced,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    JackpotContribution,
    JackpotWin,
    Message,
    PlaceBet,
    RemoveBet,
    RoundOver,
)
from games.core.round import Phase, Round

R = TypeVar("R")
K = TypeVar("K", bound=Hand)

Show = Literal["seat", "all", "none"]


@dataclass(frozen=True, slots=True)
class Slot:
    """One card the source must deliver: who gets it and who sees it."""

    target: str  # "seat<N>", "dealer" or "board"
    show: Show


@dataclass(frozen=True, slots=True, kw_only=True)
class BetRules:
    """The bets a poker table takes before the deal.

    ``names``: the bets placed before the deal, in the order the refusal lists them;
    ``riders``: bet -> the bet it needs; ``fixed``: bet -> the only amount it takes.
    """

    names: tuple[str, ...]
    riders: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    fixed: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def with_jackpot(
        cls, names: tuple[str, ...], bet: str, table: JackpotTable[Any] | None
    ) -> BetRules:
        """``names``, of which ``bet`` (if the table has a ``jackpot``) rides on the ante
        at the jackpot's one stake."""
        return cls(names=names, riders={bet: "ante"}, fixed={bet: table.stake} if table else {})


class SeatCards(TypedDict):
    """The head of every poker table's view: the game, the viewer's cards, the dealer's up."""

    game: str
    phase: str
    seat: int | None
    hand: list[str]
    dealer: list[str]
    dealer_cards_dealt: int


class TableBets(TypedDict):
    """The tail of every poker table's view: the next card's hand, the bets, the settled."""

    next_card_to: str | None
    bets: dict[str, dict[str, int]]
    settlements: list[JSON]


class PokerTableView(SeatCards, TableBets):
    """What one seat (or, with ``seat`` None, anyone) sees of a poker table, JSON-able."""

    board: list[str]
    board_cards_dealt: int
    decisions: list[str]
    folded: list[int]


def round_the_table(active: list[int], cards: int, *, dealer_shows_first: bool) -> list[Slot]:
    """``cards`` rounds of one card to each seat (shown to it), then one to the dealer.

    The dealer's first card is face up on tables that show one, the rest face down
    (Caribbean Stud deals five rounds, the three-card games three).
    """
    plan: list[Slot] = []
    for i in range(cards):
        plan.extend(Slot(f"seat{s}", "seat") for s in active)
        shown = i == 0 and dealer_shows_first
        plan.append(Slot("dealer", "all" if shown else "none"))
    return plan


class PokerTableRound(BookBets, Round[R]):
    """Bets, dealing and settlement common to the house-banked poker games.

    Subclasses give :meth:`bet_rules` (read once, at construction), :meth:`deal_plan`,
    :meth:`after_cards`, :meth:`decisions`, :meth:`decide` and :meth:`view`, and may
    refine :meth:`check_deal`, :meth:`on_deal` and :meth:`check_decision`. The stakes
    and the limit checks are :attr:`book`'s (bets go on it as they come:
    :class:`~games.core.betting.BookBets`); riders and fixed stakes are checked here.
    """

    #: the refusal of a joker (the families word it their own way)
    JOKER_TEXT = "there is no joker in this one-deck game"

    def __init__(self, variant: Variant[R], seats: int = 1) -> None:
        if not 1 <= seats <= variant.seats:
            raise ValueError(f"{variant.id}: seats must be 1..{variant.seats}")
        super().__init__(variant, seats, phase=Phase.BETTING)
        self._hands: dict[int, list[Card]] = {}
        self._dealer: list[Card] = []
        self._dealer_shown: list[bool] = []
        self._board: list[Card] = []
        self._board_shown: list[bool] = []
        self._queue: list[Slot] = []
        self._folded: set[int] = set()
        self._dealt: set[Card] = set()  # every card dealt this round, discards included
        self._bet_rules = self.bet_rules()

    # --- state ------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (for that seat's own use)."""
        return tuple(self._hands.get(seat, ()))

    @property
    def dealer_visible(self) -> tuple[Card, ...]:
        """The dealer's cards turned up so far."""
        return tuple(c for c, s in zip(self._dealer, self._dealer_shown, strict=True) if s)

    @property
    def board_visible(self) -> tuple[Card, ...]:
        """The community cards turned up so far."""
        return tuple(c for c, s in zip(self._board, self._board_shown, strict=True) if s)

    def active(self) -> list[int]:
        """Seats with a bet down."""
        return [s for s in range(self.seats) if self.book.has(s)]

    def needs(self) -> Need | None:
        if not self._queue or self.phase is Phase.OVER:
            return None
        slot = self._queue[0]
        return Need(kind=NeedKind.CARD, target=slot.target, hidden=slot.show != "all")

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BETTING:
            return self.book.betting_actions(seat, "deal")
        if self.phase is Phase.DECIDING and not self._queue:
            return self.decisions(seat)
        return frozenset()

    # --- what each family writes ------------------------------------------------------

    @abstractmethod
    def bet_rules(self) -> BetRules:
        """The table's bets (called once, from ``__init__``, after ``self.rules`` is set)."""

    @abstractmethod
    def decisions(self, seat: int) -> frozenset[str]:
        """Decision names open to ``seat`` now."""

    @abstractmethod
    def deal_plan(self, active: list[int]) -> list[Slot]:
        """The cards the deal asks for, in order, for the seats with bets."""

    @abstractmethod
    def after_cards(self) -> list[Event]:
        """What happens when the card queue empties (decisions open, or settlement)."""

    @abstractmethod
    def decide(self, seat: int, action: Decide) -> list[Event]:
        """Apply a verified decision of ``seat``."""

    def check_deal(self) -> None:
        """Raise BetRefused if the bets on the layout cannot be dealt."""

    def on_deal(self, active: list[int]) -> list[Event]:
        """Events at the deal, after "no more bets" (bets the rules place, say)."""
        return []

    def check_decision(self, seat: int, action: Decide) -> None:
        """Check the decision's argument (the name is already known to be open)."""

    def decision_refusal(self, seat: int, action: Decide, open_now: frozenset[str]) -> str:
        """The refusal of a decision ``seat`` may not make now (others are open)."""
        names = ", ".join(sorted(open_now))
        return f"seat {seat} may decide {names}, not {action.decision!r}"

    def rider_refusal(self, needed: str, bet: str) -> str:
        """The refusal of a rider placed before the bet it needs."""
        return f"place the {needed} bet before the {bet} bet"

    def riders_on(self, seat: int, bet: str) -> list[str]:
        """The seat's bets that ride on its ``bet``, in the order a refusal names them."""
        mine = self.book.of(seat)
        return [b for b, need in self._bet_rules.riders.items() if need == bet and b in mine]

    # --- verify / apply ---------------------------------------------------------------

    def verify_any(self, action: Action) -> None:
        if action.kind == DealCard.kind:
            return
        self.seat_of(action)
        if action.kind != Decide.kind and self.phase is not Phase.BETTING:
            raise IllegalAction(f"{action.kind} is not allowed now: the round is {self.phase}")

    def unknown_action_text(self, action: Action) -> str:
        return f"{self.variant.title} has no action {action.kind!r}"

    def verify_place_bet(self, action: PlaceBet) -> None:
        seat, bets = self.seat_of(action), self._bet_rules
        if action.bet not in bets.names:
            names = ", ".join(bets.names)
            raise BetRefused(f"no {action.bet!r} bet to place (bets: {names})")
        self.book.check_amount(action.amount)
        needed = bets.riders.get(action.bet)
        if needed is not None and (seat, needed) not in self.book:
            raise BetRefused(self.rider_refusal(needed, action.bet))
        fixed = bets.fixed.get(action.bet)
        if fixed is not None and self.book.stake(seat, action.bet) + action.amount != fixed:
            raise BetRefused(f"the {action.bet} bet is exactly {format_cents(fixed)}")
        self.book.check_place(seat, action.bet, action.amount)

    def verify_remove_bet(self, action: RemoveBet) -> None:
        seat = self.seat_of(action)
        self.book.check_remove(seat, action.bet, action.amount)
        current = self.book.stake(seat, action.bet)
        left = current - (action.amount or current)
        if left and action.bet in self._bet_rules.fixed:
            raise BetRefused(
                f"{action.bet} bet would be left at {left} cents: it is a fixed amount"
            )
        if not left:
            riders = self.riders_on(seat, action.bet)
            if riders:
                raise BetRefused(f"remove the {', '.join(riders)} bet before the {action.bet}")

    def verify_deal(self, action: Deal) -> None:
        if not self.book:
            raise IllegalAction("place a bet before dealing")
        self.check_deal()

    def apply_deal(self, action: Deal) -> list[Event]:
        active = self.active()
        self._hands = {s: [] for s in active}
        self._queue = self.deal_plan(active)
        self.phase = Phase.DEALING
        fees = collection.charges(self.variant.collection, self.bets)
        return [Message(text="no more bets"), *fees, *self.on_deal(active)]

    def verify_decide(self, action: Decide) -> None:
        seat = self.seat_of(action)
        open_now = self.legal_actions(seat) if self.phase is Phase.DECIDING else frozenset()
        if not open_now:
            raise IllegalAction(f"seat {seat} has no decision to make now")
        if action.decision not in open_now:
            raise IllegalAction(self.decision_refusal(seat, action, open_now))
        self.check_decision(seat, action)

    def apply_decide(self, action: Decide) -> list[Event]:
        return self.decide(self.seat_of(action), action)

    def verify_deal_card(self, action: DealCard) -> None:
        self.check_dealt_card(action, self.JOKER_TEXT)
        if action.card in self._dealt:
            raise IllegalAction(f"{action.card} was already dealt from this one-deck game")

    def apply_deal_card(self, action: DealCard) -> list[Event]:
        card, slot = action.card, self._queue.pop(0)
        self._dealt.add(card)
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
            events.extend(self.after_cards())
        return events

    # --- helpers for the families -----------------------------------------------------

    def reveal(self, where: Literal["dealer", "board"], upto: int | None = None) -> list[Event]:
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

    def place_by_rule(self, seat: int, bet: str, amount: int) -> BetPlaced:
        """A bet the rules place (a call, a raise, a draw's price): no table limits."""
        return self.book.add_by_rule(seat, bet, amount)

    def settle_jackpot(
        self, seat: int, bet: str, table: JackpotTable[K], cat: K, note: str
    ) -> list[Event]:
        """Settle the seat's jackpot ``bet`` on a hand of ``cat`` (the table's kind of hand).

        The bet is lost to the house, its contribution goes to the meter, and any award
        is a :class:`~games.core.records.JackpotWin` the runtime pays from the meter.
        """
        events: list[Event] = [self.settle(seat, bet, 0, note)]
        if table.contribution:
            events.append(
                JackpotContribution(seat=seat, meter=table.meter, amount=table.contribution)
            )
        award = table.award(cat)
        if award:
            events.append(
                JackpotWin(
                    seat=seat, meter=table.meter, fixed=award[0], share_bp=award[1], hand=cat.label
                )
            )
        return events

    def close(self) -> list[Event]:
        """End the round: every bet is settled; the players' net in one line."""
        self.phase = Phase.OVER
        self._queue = []
        net = sum(s.net for s in self._settlements)
        summary = f"round over: players net {'+' if net >= 0 else '-'}{format_cents(abs(net))}"
        return [RoundOver(summary=summary)]

    def seat_cards(self, seat: int | None) -> SeatCards:
        """Own cards for a seat (none for the public view); the dealer's cards turned up."""
        return {
            "game": self.variant.id,
            "phase": str(self.phase),
            "seat": seat,
            "hand": [str(c) for c in self._hands.get(seat, [])] if seat is not None else [],
            "dealer": [str(c) for c in self.dealer_visible],
            "dealer_cards_dealt": len(self._dealer),
        }

    def table_bets(self) -> TableBets:
        """Where the next card goes, the bets on the layout, the bets settled so far."""
        need = self.needs()
        return {
            "next_card_to": need.target if need else None,
            "bets": {str(s): b for s, b in self.bets.items() if b},
            "settlements": [s.encode() for s in self._settlements],
        }

    def table_view(self, seat: int | None) -> PokerTableView:
        """Own cards for a seat; only the dealer and board cards turned up so far."""
        return {
            **self.seat_cards(seat),
            "board": [str(c) for c in self.board_visible],
            "board_cards_dealt": len(self._board),
            "decisions": sorted(self.legal_actions(seat))
            if seat is not None and self.phase is Phase.DECIDING
            else [],
            "folded": sorted(self._folded),
            **self.table_bets(),
        }


def ante_and_deal(engine: PokerTableRound[Any], seat: int, *equal: str) -> Action | None:
    """A scripted player's bets while bets are open: the table-minimum ``ante``, then
    each bet of ``equal`` at the ante's amount (Ultimate Texas Hold'em's blind), then the
    deal. None for a seat not at the table, or once bets are closed."""
    if not 0 <= seat < engine.seats or engine.phase is not Phase.BETTING:
        return None
    legal = engine.legal_actions(seat)
    if "place-bet" not in legal:  # the player/dealer: it bets nothing, it may deal
        return Deal(seat=seat) if "deal" in legal else None
    bets = engine.bets[seat]
    if "ante" not in bets:
        return PlaceBet(seat=seat, bet="ante", amount=engine.variant.limits["ante"].minimum)
    for bet in equal:
        if bet not in bets:
            return PlaceBet(seat=seat, bet=bet, amount=bets["ante"])
    return Deal(seat=seat)


__all__ = [
    "BetRules",
    "PokerTableRound",
    "PokerTableView",
    "SeatCards",
    "Show",
    "Slot",
    "TableBets",
    "ante_and_deal",
    "round_the_table",
]
