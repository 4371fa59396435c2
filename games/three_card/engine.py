"""The three-card round (Three Card Poker, Tri-Card Poker): a pure state machine.

Order of play: seats place an ``ante`` (and ``pair-plus``, and on page 004 the
``six-card-bonus`` and the $1 ``progressive``, all needing the ante; Tri-Card lets
Pair Plus stand alone).
After :class:`~games.core.records.Deal` the engine asks for the cards one at a
time, round the table then the dealer, three times: a seat's cards are shown to
that seat only (``Need.hidden``), the dealer's first card to everyone when the
table shows one (004), the other dealer cards to nobody. When the cards are all
dealt each ``progressive`` bet is settled on the seat's three cards (lost to the house,
its contribution to the meter, any award as :class:`~games.core.records.JackpotWin`:
:mod:`games.three_card.progressive`). Each seat with an ante
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

from collections.abc import Mapping
from typing import ClassVar

from games.core.cards import Card
from games.core.engine import Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, pay
from games.core.player_dealer import PlayerDealerCarry, PlayerDealerView, Wager
from games.core.player_dealer_table import PlayerDealerTable
from games.core.poker_table import (
    BetRules,
    SeatCards,
    Slot,
    TableBets,
    round_the_table,
)
from games.core.progressive import describe_award
from games.core.records import Action, Decide, Event, Message
from games.core.round import Phase
from games.poker.rank5 import category as category5
from games.poker.rank7 import rank6
from games.poker.three_card import category3, rank3
from games.three_card import backline
from games.three_card.progressive import hand_of
from games.three_card.rules import ThreeCardRules

DECISIONS = ("play", "fold")


class ThreeCardView(SeatCards, TableBets):
    """What one seat (or, with ``seat`` None, anyone) sees of a three-card table: the
    dealer's exposed card, all three once turned up; who decides, and what they decided."""

    deciding: list[int]
    decisions: dict[str, str]
    player_dealer: PlayerDealerView | None


class ThreeCardRound(PlayerDealerTable[ThreeCardRules]):
    """One round of a three-card table for ``seats`` seats (numbered from 0)."""

    GAME = "three card poker"
    PASSIVE: ClassVar[tuple[str, ...]] = ("fold", "decline-bank")
    JOKER_TEXT = "there is no joker in a three-card deck"

    def __init__(
        self,
        variant: Variant[ThreeCardRules],
        seats: int = 1,
        *,
        carry: PlayerDealerCarry | None = None,
    ) -> None:
        super().__init__(variant, seats, variant.rules.player_dealer, carry)
        self._decisions: dict[int, str] = {}

    def bet_rules(self) -> BetRules:
        riders = {"pair-plus": "ante"} if not self.rules.pair_plus_alone else {}
        jp = self.rules.progressive
        return BetRules(
            names=self.rules.bets,
            riders={**riders, "six-card-bonus": "ante", "progressive": "ante"},
            fixed={"progressive": jp.stake} if jp else {},
        )

    # --- state ------------------------------------------------------------------

    @property
    def shown_dealer_card(self) -> Card | None:
        """The dealer's exposed card, on tables that expose one, once dealt."""
        if self.rules.dealer_shows_card and self._dealer:
            return self._dealer[0]
        return None

    def _pending(self) -> list[int]:
        return [s for s in self.active() if (s, "ante") in self.book and s not in self._decisions]

    def view(self, seat: int | None) -> ThreeCardView:
        """Own cards for a seat; the dealer's exposed card, all of it once turned up."""
        return {
            **self.seat_cards(seat),
            "deciding": self._pending() if self.phase is Phase.DECIDING else [],
            "decisions": {str(s): d for s, d in self._decisions.items()},
            "player_dealer": self.player_dealer_view(),
            **self.table_bets(),
        }

    # --- the player/dealer (page 004; games.core.player_dealer_table) ------------------

    #: the wagers a covered ante brings (the play, placed later) and the meter's bets
    COMES_WITH: ClassVar[Mapping[str, tuple[str, ...]]] = {"ante": ("play",)}
    NOT_BANKED: ClassVar[frozenset[str]] = frozenset({"progressive"})

    def banked_wagers(self, order: list[int]) -> list[Wager[tuple[int, str]]]:
        """Each seat's wagers from the dealer's left, with the most each can take off the
        bank (the ante with the play that may follow); the bets riding on the ante need
        it (the progressive is the meter's: 0, never the bank's)."""
        r, out = self.rules, []
        for seat in order:
            bets = self.book.of(seat)
            ante = bets.get("ante", 0)
            if ante:
                loss = pay(Cents(ante), r.pays["ante"]) + pay(Cents(ante), r.pays["play"])
                loss += max((pay(Cents(ante), x) for x in r.ante_bonus.values()), default=0)
                out.append(Wager((seat, "ante"), loss))
            for bet, table in (("pair-plus", r.pair_plus), ("six-card-bonus", r.six_card_bonus)):
                if bet in bets:
                    most = max(pay(Cents(bets[bet]), x) for x in table.values())
                    out.append(Wager((seat, bet), most, (seat, "ante") if ante else None))
            if "progressive" in bets:
                out.append(Wager((seat, "progressive"), 0, (seat, "ante")))
        return out

    # --- the family's wording ---------------------------------------------------------

    def seat_of(self, action: Action) -> int:
        seat = action.seat
        if seat is None or not 0 <= seat < self.seats:
            raise IllegalAction(f"{action.kind}: no seat {seat!r} at this table")
        return seat

    def backline_positions(self, seat: int, bet: str) -> range:
        """No backline bet at a three card table (:mod:`games.three_card.backline`)."""
        raise BetRefused(backline.refusal(bet))

    def backed_seat(self, position: int) -> int | None:
        return None

    def decision_refusal(self, seat: int, action: Decide, open_now: frozenset[str]) -> str:
        return f"decide 'play' or 'fold', not {action.decision!r}"

    def rider_refusal(self, needed: str, bet: str) -> str:
        return f"place an ante before the {bet} bet"

    def riders_on(self, seat: int, bet: str) -> list[str]:
        riders = self._bet_rules.riders
        return [b for b in self.book.of(seat) if riders.get(b) == bet]

    # --- dealing and deciding ---------------------------------------------------------

    def deal_plan(self, active: list[int]) -> list[Slot]:
        return round_the_table(active, 3, dealer_shows_first=self.rules.dealer_shows_card)

    def after_cards(self) -> list[Event]:
        events = self._settle_progressives()
        if self._pending():
            self.phase = Phase.DECIDING
            return [*events, Message(text="play or fold")]
        return events + self._finish()

    def _settle_progressives(self) -> list[Event]:
        """Each progressive bet on the seat's own three cards (page 004's jackpot: scored
        whatever the dealer holds and whether the seat plays or folds)."""
        jp = self.rules.progressive
        events: list[Event] = []
        if jp is None:
            return events
        for seat in self.active():
            if (seat, "progressive") in self.book:
                hand = hand_of(self._hands[seat])
                award = jp.award(hand)
                note = f"{hand.label}: " + (describe_award(award) if award else "no award")
                events.extend(self.settle_jackpot(seat, "progressive", jp, hand, note))
        return events

    def decisions(self, seat: int) -> frozenset[str]:
        return frozenset(DECISIONS) if seat in self._pending() else frozenset()

    def decide(self, seat: int, action: Decide) -> list[Event]:
        self._decisions[seat] = action.decision
        events: list[Event] = []
        if action.decision == "play":
            events.append(self.place_by_rule(seat, "play", self.book.stake(seat, "ante")))
        else:
            events.append(Message(text=f"seat {seat} folds"))
            for bet in ("ante", "pair-plus"):
                if (seat, bet) in self.book:
                    events.append(self.settle(seat, bet, 0, "folded"))
        if not self._pending():
            events.extend(self._finish())
        return events

    # --- settlement ---------------------------------------------------------------------

    def _finish(self) -> list[Event]:
        events = self.reveal("dealer")
        r = self.rules
        for seat in self.active():
            bets = self.book.of(seat)
            cards = self._hands[seat]
            p_cat = category3(rank3(cards))
            played = self._decisions.get(seat) == "play"
            if played:
                events.extend(self._settle_played(seat, rank3(cards)))
            pp_live = "pair-plus" in bets and (played or "ante" not in bets)
            if pp_live:
                stake = bets["pair-plus"]
                ratio = r.pair_plus.get(p_cat)
                returned = stake + pay(Cents(stake), ratio) if ratio else 0
                note = f"{p_cat.label}" + (f" pays {ratio.num}:{ratio.den}" if ratio else "")
                events.append(self.settle(seat, "pair-plus", returned, note))
            if "six-card-bonus" in bets:
                stake = bets["six-card-bonus"]
                cat = category5(rank6([*cards, *self._dealer]))
                ratio6 = r.six_card_bonus.get(cat)
                returned = stake + pay(Cents(stake), ratio6) if ratio6 else 0
                note = f"best five of six: {cat.label}" + (
                    f" pays {ratio6.num}:{ratio6.den}" if ratio6 else ""
                )
                events.append(self.settle(seat, "six-card-bonus", returned, note))
        return events + self.close()

    def _settle_played(self, seat: int, p: int) -> list[Event]:
        """Settle the ante (with any ante bonus) and play of a seat that played."""
        r = self.rules
        d = rank3(self._dealer)
        d_name = category3(d).label
        p_cat = category3(p)
        ante, play = self.book.stake(seat, "ante"), self.book.stake(seat, "play")
        bonus_ratio = r.ante_bonus.get(p_cat)
        bonus = pay(Cents(ante), bonus_ratio) if bonus_ratio else 0
        tag = f" + ante bonus {bonus_ratio}" if bonus_ratio else ""
        vs = f"{p_cat.label} vs dealer {d_name}"
        if d < r.qualifier:
            won = pay(Cents(ante), r.pays["ante"])
            note = f"dealer does not qualify ({d_name}){tag}"
            return [
                self.settle(seat, "ante", ante + won + bonus, note),
                self.settle(seat, "play", play, note),
            ]
        if p > d:
            won_a, won_p = pay(Cents(ante), r.pays["ante"]), pay(Cents(play), r.pays["play"])
            note = f"{vs}: win{tag}"
            return [
                self.settle(seat, "ante", ante + won_a + bonus, note),
                self.settle(seat, "play", play + won_p, note),
            ]
        if p < d:
            return [
                self.settle(seat, "ante", bonus, f"{vs}: lose{tag}"),
                self.settle(seat, "play", 0, f"{vs}: lose"),
            ]
        return [
            self.settle(seat, "ante", ante + bonus, f"{vs}: push{tag}"),
            self.settle(seat, "play", play, f"{vs}: push"),
        ]
