"""The three-card round (Three Card Poker, Tri-Card Poker): a pure state machine.

Order of play: seats place an ``ante`` (and ``pair-plus``, and on page 004 the
``six-card-bonus``, both needing the ante; Tri-Card lets Pair Plus stand alone).
After :class:`~games.core.records.Deal` the engine asks for the cards one at a
time, round the table then the dealer, three times: a seat's cards are shown to
that seat only (``Need.hidden``), the dealer's first card to everyone when the
table shows one (004), the other dealer cards to nobody. Each seat with an ante
then decides ``play`` (a ``play`` bet equal to the ante is placed: the page 001
"raise") or ``fold`` (ante and Pair Plus lost at once). When every seat has
decided the dealer's hand is turned up and everything settles:

* dealer below queen high: ante wins 1:1 (as paid), play pushes;
* otherwise the better hand wins both ante and play; equal hands push both;
* Tri-Card's ante bonus is paid on a played straight or better whatever the dealer holds;
* Pair Plus pays on a pair or better (when the seat played, or bet it alone);
* the 6 Card Bonus pays on the best five of the seat's and the dealer's six cards,
  folded or not.

Cards arrive only as :class:`~games.core.records.DealCard`; the engine draws nothing.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from games.core.betting import BetBook, VerifyCan
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, format_cents, pay
from games.core.records import (
    Action,
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
from games.poker.rank5 import category as category5
from games.poker.rank7 import rank6
from games.poker.three_card import category3, rank3
from games.three_card.paytable import rules_of
from games.three_card.rules import ThreeCardRules

DECISIONS = ("play", "fold")


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    DECIDING = "deciding"
    OVER = "over"


class ThreeCardRound(VerifyCan):
    """One round of a three-card table for ``seats`` seats (numbered from 0)."""

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        self.variant = variant
        self.rules: ThreeCardRules = rules_of(variant)
        if not 1 <= seats <= variant.seats:
            raise ValueError(f"{variant.id}: seats must be 1..{variant.seats}")
        self.seats = seats
        self.phase = Phase.BETTING
        self._book = BetBook(variant.limits)
        self._hands: dict[int, list[Card]] = {}
        self._dealer: list[Card] = []
        self._order: list[str] = []
        self._decisions: dict[int, str] = {}
        self._revealed = False
        self._settlements: list[BetSettled] = []

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
        """The cards dealt to ``seat`` so far (for that seat's own use)."""
        return tuple(self._hands.get(seat, ()))

    @property
    def shown_dealer_card(self) -> Card | None:
        """The dealer's exposed card, on tables that expose one, once dealt."""
        if self.rules.dealer_shows_card and self._dealer:
            return self._dealer[0]
        return None

    def _active(self) -> list[int]:
        return [s for s in range(self.seats) if self._book.has(s)]

    def _pending(self) -> list[int]:
        return [s for s in self._active() if (s, "ante") in self._book and s not in self._decisions]

    def needs(self) -> Need | None:
        if self.phase is not Phase.DEALING:
            return None
        target = self._order[sum(len(h) for h in self._hands.values()) + len(self._dealer)]
        if target == "dealer":
            shown = not self._dealer and self.rules.dealer_shows_card
            return Need(kind=NeedKind.CARD, target="dealer", hidden=not shown)
        return Need(kind=NeedKind.CARD, target=target, hidden=True)

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BETTING:
            return self._book.betting_actions(seat, "deal")
        if self.phase is Phase.DECIDING and seat in self._pending():
            return frozenset(DECISIONS)
        return frozenset()

    # --- verify / can / apply ---------------------------------------------------

    def verify(self, action: Action) -> None:
        if isinstance(action, DealCard):
            self._verify_card(action)
            return
        seat = action.seat
        if seat is None or not 0 <= seat < self.seats:
            raise IllegalAction(f"{action.kind}: no seat {seat!r} at this table")
        if isinstance(action, Decide):
            if self.phase is not Phase.DECIDING or seat not in self._pending():
                raise IllegalAction(f"seat {seat} has no decision to make now")
            if action.decision not in DECISIONS:
                raise IllegalAction(f"decide 'play' or 'fold', not {action.decision!r}")
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
        else:
            raise IllegalAction(f"{self.variant.title} has no action {action.kind!r}")

    def _verify_place(self, seat: int, action: PlaceBet) -> None:
        bets = self.rules.bets
        if action.bet not in bets:
            raise BetRefused(f"no {action.bet!r} bet to place (bets: {', '.join(bets)})")
        self._book.check_amount(action.amount)
        needs_ante = action.bet == "six-card-bonus" or (
            action.bet == "pair-plus" and not self.rules.pair_plus_alone
        )
        if needs_ante and (seat, "ante") not in self._book:
            raise BetRefused(f"place an ante before the {action.bet} bet")
        self._book.check_place(seat, action.bet, action.amount)

    def _verify_remove(self, seat: int, action: RemoveBet) -> None:
        self._book.check_remove(seat, action.bet, action.amount)
        whole = action.amount in (0, self._book.stake(seat, action.bet))
        if whole and action.bet == "ante":
            riders = [
                b
                for b in self._book.of(seat)
                if b == "six-card-bonus" or (b == "pair-plus" and not self.rules.pair_plus_alone)
            ]
            if riders:
                raise BetRefused(f"remove the {', '.join(riders)} bet before the ante")

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, DealCard):
            return self._apply_card(action.card)
        seat = action.seat
        assert seat is not None
        if isinstance(action, PlaceBet):
            return (self._book.place(seat, action.bet, action.amount),)
        if isinstance(action, RemoveBet):
            return (self._book.remove(seat, action.bet, action.amount),)
        if isinstance(action, Deal):
            active = self._active()
            self._order = [*([f"seat{s}" for s in active] + ["dealer"])] * 3
            self._hands = {s: [] for s in active}
            self.phase = Phase.DEALING
            return (Message(text="no more bets"),)
        assert isinstance(action, Decide)
        return self._apply_decision(seat, action.decision)

    # --- view ---------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Own cards for a seat; the dealer's exposed card, all of it once turned up."""
        need = self.needs()
        if self._revealed:
            dealer = [str(c) for c in self._dealer]
        else:
            shown = self.shown_dealer_card
            dealer = [str(shown)] if shown is not None else []
        return {
            "game": self.variant.id,
            "phase": str(self.phase),
            "seat": seat,
            "hand": [str(c) for c in self._hands.get(seat, [])] if seat is not None else [],
            "dealer": dealer,
            "dealer_cards_dealt": len(self._dealer),
            "deciding": self._pending() if self.phase is Phase.DECIDING else [],
            "decisions": {str(s): d for s, d in self._decisions.items()},
            "next_card_to": need.target if need else None,
            "bets": {str(s): b for s, b in self._book.by_seat(self.seats).items() if b},
            "settlements": [s.encode() for s in self._settlements],
        }

    # --- internals ----------------------------------------------------------------

    def _verify_card(self, action: DealCard) -> None:
        if action.seat is not None:
            raise IllegalAction("cards come from the card source, not from a seat")
        if self.needs() is None:
            raise IllegalAction("no card is wanted now")
        if action.card.is_joker:
            raise IllegalAction("there is no joker in a three-card deck")
        dealt = [*self._dealer, *(c for h in self._hands.values() for c in h)]
        if action.card in dealt:
            raise IllegalAction(f"{action.card} was already dealt from this one-deck game")

    def _apply_card(self, card: Card) -> tuple[Event, ...]:
        need = self.needs()
        assert need is not None
        events: list[Event] = []
        if need.target == "dealer":
            self._dealer.append(card)
            if not need.hidden:
                events.append(CardShown(card=card, hand="dealer"))
        else:
            seat = int(need.target[4:])
            self._hands[seat].append(card)
            events.append(CardShown(card=card, hand=need.target, to=str(seat)))
        if len(self._dealer) == 3:
            if self._pending():
                self.phase = Phase.DECIDING
                events.append(Message(text="play or fold"))
            else:
                events.extend(self._finish())
        return tuple(events)

    def _apply_decision(self, seat: int, decision: str) -> tuple[Event, ...]:
        self._decisions[seat] = decision
        events: list[Event] = []
        if decision == "play":
            events.append(self._book.add_by_rule(seat, "play", self._book.stake(seat, "ante")))
        else:
            events.append(Message(text=f"seat {seat} folds"))
            for bet in ("ante", "pair-plus"):
                if (seat, bet) in self._book:
                    events.append(self._settle(seat, bet, 0, "folded"))
        if not self._pending():
            events.extend(self._finish())
        return tuple(events)

    def _settle(self, seat: int, bet: str, returned: int, note: str) -> BetSettled:
        stake = self._book.stake(seat, bet)
        result = "win" if returned > stake else "push" if returned == stake else "lose"
        s = BetSettled(seat=seat, bet=bet, stake=stake, returned=returned, result=result, note=note)
        self._settlements.append(s)
        return s

    def _finish(self) -> list[Event]:
        events: list[Event] = [
            CardShown(card=c, hand="dealer")
            for i, c in enumerate(self._dealer)
            if not (i == 0 and self.rules.dealer_shows_card)
        ]
        self._revealed = True
        r = self.rules
        d = rank3(self._dealer)
        qualifies = d >= r.qualifier
        d_name = category3(d).label
        for seat in self._active():
            bets = self._book.of(seat)
            cards = self._hands[seat]
            p = rank3(cards)
            p_cat = category3(p)
            played = self._decisions.get(seat) == "play"
            if played:
                ante, play = bets["ante"], bets["play"]
                bonus_ratio = r.ante_bonus.get(p_cat)
                bonus = pay(Cents(ante), bonus_ratio) if bonus_ratio else 0
                tag = f" + ante bonus {bonus_ratio}" if bonus_ratio else ""
                vs = f"{p_cat.label} vs dealer {d_name}"
                if not qualifies:
                    won = pay(Cents(ante), r.pays["ante"])
                    note = f"dealer does not qualify ({d_name}){tag}"
                    events.append(self._settle(seat, "ante", ante + won + bonus, note))
                    events.append(self._settle(seat, "play", play, note))
                elif p > d:
                    won_a, won_p = (
                        pay(Cents(ante), r.pays["ante"]),
                        pay(Cents(play), r.pays["play"]),
                    )
                    note = f"{vs}: win{tag}"
                    events.append(self._settle(seat, "ante", ante + won_a + bonus, note))
                    events.append(self._settle(seat, "play", play + won_p, note))
                elif p < d:
                    events.append(self._settle(seat, "ante", bonus, f"{vs}: lose{tag}"))
                    events.append(self._settle(seat, "play", 0, f"{vs}: lose"))
                else:
                    events.append(self._settle(seat, "ante", ante + bonus, f"{vs}: push{tag}"))
                    events.append(self._settle(seat, "play", play, f"{vs}: push"))
            pp_live = "pair-plus" in bets and (played or "ante" not in bets)
            if pp_live:
                stake = bets["pair-plus"]
                ratio = r.pair_plus.get(p_cat)
                returned = stake + pay(Cents(stake), ratio) if ratio else 0
                note = f"{p_cat.label}" + (f" pays {ratio.num}:{ratio.den}" if ratio else "")
                events.append(self._settle(seat, "pair-plus", returned, note))
            if "six-card-bonus" in bets:
                stake = bets["six-card-bonus"]
                cat = category5(rank6([*cards, *self._dealer]))
                ratio6 = r.six_card_bonus.get(cat)
                returned = stake + pay(Cents(stake), ratio6) if ratio6 else 0
                note = f"best five of six: {cat.label}" + (
                    f" pays {ratio6.num}:{ratio6.den}" if ratio6 else ""
                )
                events.append(self._settle(seat, "six-card-bonus", returned, note))
        self.phase = Phase.OVER
        net = sum(s.net for s in self._settlements)
        summary = f"round over: players net {'+' if net >= 0 else '-'}{format_cents(abs(net))}"
        events.append(RoundOver(summary=summary))
        return events
