"""The pai gow round: a pure state machine from the first bet to the settled hands.

One :class:`PaiGowRound` is one game: bets, seven cards to each seat with a main
bet and seven to the dealer (asked for one at a time through :meth:`needs`
and taken as :class:`~games.core.records.DealCard`), then each seat sets its
hands (``Decide(decision="set", arg="As Kd|Qh Qc 7s 7d 2c")``) or asks for the
house way (``Decide(decision="house-way")``). A foul setting is refused with
:class:`~games.core.errors.FoulHand` and its reason, and the seat sets again
(the Pinnacle page: "the game will prompt the Player to re-build their hands").
When every seat has set, the dealer's cards are revealed and set by the house
way, every hand is shown, and the bets settle.

What each seat sees: its own cards as they are dealt (``CardShown(to="<seat>")``);
the dealer's cards (dealt face down, ``Need(hidden=True)``) and the other seats'
cards only at the reveal. Copies go to the dealer (banker) on every table.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from games.core.betting import BetBook, VerifyCan, seat_of
from games.core.cards import Card
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, FoulHand, IllegalAction
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
from games.pai_gow.bonus import bonus_hands, bonus_pay, envy_amount
from games.pai_gow.hands import (
    Setting,
    describe_key,
    foul_reason,
    high_key,
    low_key,
    parse_setting,
)
from games.pai_gow.house_way import house_way
from games.pai_gow.paytable import MAIN_BET, PaiGowRules, main_commission, rules_of

HAND_CARDS = 7
DEALER = "dealer"


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    SETTING = "setting"
    OVER = "over"


class PaiGowRound(VerifyCan):
    """One pai gow game for ``seats`` player seats (numbered from 0) against the dealer."""

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        self.variant = variant
        self.rules: PaiGowRules = rules_of(variant)
        if not 1 <= seats <= variant.seats:
            raise ValueError(f"{variant.id}: seats must be 1..{variant.seats}")
        self.seats = seats
        self.phase = Phase.BETTING
        self._book = BetBook(variant.limits)
        self._order: list[int] = []  # seats dealt in, in dealing order
        self._hands: dict[int, list[Card]] = {}
        self._dealer: list[Card] = []
        self._settings: dict[int, Setting] = {}
        self._dealer_setting: Setting | None = None
        self._settlements: list[BetSettled] = []
        self._surrendered: set[int] = set()

    # --- what is wanted -----------------------------------------------------

    def needs(self) -> Need | None:
        if self.phase is not Phase.DEALING:
            return None
        for seat in self._order:
            if len(self._hands[seat]) < HAND_CARDS:
                return Need(kind=NeedKind.CARD, target=f"seat{seat}")
        return Need(kind=NeedKind.CARD, target=DEALER, hidden=True)

    def legal_actions(self, seat: int) -> frozenset[str]:
        if not 0 <= seat < self.seats:
            return frozenset()
        if self.phase is Phase.BETTING:
            names = {"place-bet"}
            if self._book.has(seat):
                names.add("remove-bet")
            if self._has_main():
                names.add("deal")
            return frozenset(names)
        if self.phase is Phase.SETTING and seat in self._order and seat not in self._settings:
            if self.rules.surrender and seat not in self._surrendered:
                return frozenset({"set", "house-way", "surrender"})
            return frozenset({"set", "house-way"})
        return frozenset()

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def bets(self) -> dict[int, dict[str, int]]:
        """A copy of the bets on the table, by seat."""
        return self._book.by_seat(self.seats)

    @property
    def settlements(self) -> tuple[BetSettled, ...]:
        return tuple(self._settlements)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards dealt to ``seat`` so far (for the seat itself and for tests)."""
        return tuple(self._hands.get(seat, ()))

    def setting(self, seat: int) -> Setting | None:
        return self._settings.get(seat)

    @property
    def dealer_setting(self) -> Setting | None:
        return self._dealer_setting

    # --- verify / can / apply ------------------------------------------------------

    def verify(self, action: Action) -> None:
        """Raise IllegalAction (BetRefused, FoulHand) with the reason; change nothing."""
        if isinstance(action, DealCard):
            self._verify_card(action)
            return
        seat = seat_of(action, self.seats)
        if isinstance(action, PlaceBet | RemoveBet | Deal):
            if self.phase is not Phase.BETTING:
                raise IllegalAction(f"{action.kind} is not allowed now: the round is {self.phase}")
            if isinstance(action, PlaceBet):
                self._verify_place(seat, action)
            elif isinstance(action, RemoveBet):
                self._verify_remove(seat, action)
            elif not self._has_main():
                raise IllegalAction("place a main bet before dealing")
            return
        if isinstance(action, Decide):
            self._decided(seat, action)
            return
        raise IllegalAction(f"pai gow has no action {action.kind!r}")

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, DealCard):
            return self._apply_card(action.card)
        seat = seat_of(action, self.seats)
        if isinstance(action, PlaceBet):
            return (self._book.place(seat, action.bet, action.amount),)
        if isinstance(action, RemoveBet):
            return (self._book.remove(seat, action.bet, action.amount),)
        if isinstance(action, Deal):
            self.phase = Phase.DEALING
            self._order = [s for s in range(self.seats) if (s, MAIN_BET) in self._book]
            self._hands = {s: [] for s in self._order}
            dealt = ", ".join(f"seat {s}" for s in self._order)
            return (Message(text=f"dealing seven cards to {dealt} and to the dealer"),)
        assert isinstance(action, Decide)
        setting = self._decided(seat, action)
        self._settings[seat] = setting
        if action.decision == "surrender":
            self._surrendered.add(seat)
            events: list[Event] = [Message(text=f"seat {seat} surrenders its wager")]
        else:
            how = "by the house way" if action.decision == "house-way" else "their own way"
            events = [Message(text=f"seat {seat} has set their hands {how}")]
        if len(self._settings) == len(self._order):
            events.extend(self._reveal_and_settle())
        return tuple(events)

    # --- view -------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (None: the public view): its own cards and setting; the
        dealer's cards and the other seats' hands only once revealed; never the deck."""
        over = self.phase is Phase.OVER
        mine = seat is not None and seat in self._hands
        need = self.needs()
        out: dict[str, Any] = {
            "game": self.variant.id,
            "phase": str(self.phase),
            "seat": seat,
            "seats": self.seats,
            "bets": {str(s): b for s, b in self.bets.items() if b},
            "dealt_in": list(self._order),
            "next_card_to": need.target if need else None,
            "cards": [str(c) for c in self._hands[seat]] if mine and seat is not None else [],
            "setting": None,
            "set": sorted(self._settings),
            "dealer_cards": len(self._dealer),
            "dealer": None,
            "hands": {},
            "legal": sorted(self.legal_actions(seat)) if seat is not None else [],
            "settlements": [s.encode() for s in self._settlements],
        }
        if seat is not None and seat in self._settings:
            out["setting"] = str(self._settings[seat])
        if over and self._dealer_setting is not None:
            out["dealer"] = str(self._dealer_setting)
            out["hands"] = {
                str(s): str(st) for s, st in self._settings.items() if s not in self._surrendered
            }
        return out

    # --- internals ------------------------------------------------------------------

    def _has_main(self) -> bool:
        return any(bet == MAIN_BET for _seat, bet, _stake in self._book.items())

    def _verify_place(self, seat: int, action: PlaceBet) -> None:
        if action.bet not in self.rules.bets:
            raise BetRefused(f"no {action.bet!r} bet at {self.variant.title}")
        self._book.check_amount(action.amount)
        if action.bet != MAIN_BET and (seat, MAIN_BET) not in self._book:
            raise BetRefused(f"the {action.bet} bet needs a main bet first")
        self._book.check_place(seat, action.bet, action.amount)

    def _verify_remove(self, seat: int, action: RemoveBet) -> None:
        self._book.check_remove(seat, action.bet, action.amount)
        takes_all = action.amount in (0, self._book.stake(seat, action.bet))
        if takes_all and action.bet == MAIN_BET and len(self._book.of(seat)) > 1:
            raise BetRefused("take the side bet down before the main bet")

    def _verify_card(self, action: DealCard) -> None:
        if self.phase is not Phase.DEALING:
            raise IllegalAction(f"no card is wanted now: the round is {self.phase}")
        if action.seat is not None:
            raise IllegalAction("cards come from the card source, not from a seat")
        dealt = [c for h in self._hands.values() for c in h] + self._dealer
        if action.card in dealt:
            raise IllegalAction(f"{action.card} was already dealt this game (one 53-card deck)")

    def _decided(self, seat: int, action: Decide) -> Setting:
        """Check a decision and return the setting it makes (FoulHand if foul)."""
        if self.phase is not Phase.SETTING:
            raise IllegalAction(f"hands are set after the deal; the round is {self.phase}")
        if seat not in self._order:
            raise IllegalAction(f"seat {seat} has no hand this game")
        if seat in self._settings:
            raise IllegalAction(f"seat {seat} has already set its hands")
        cards = self._hands[seat]
        if action.decision == "surrender":
            if not self.rules.surrender:
                raise IllegalAction(f"{self.variant.title} has no surrender")
            return house_way(cards, self.rules.joker, self.rules.wheel_second)
        if action.decision == "house-way":
            return house_way(cards, self.rules.joker, self.rules.wheel_second)
        if action.decision != "set":
            raise IllegalAction(
                f"unknown decision {action.decision!r}: use 'set', 'house-way' or 'surrender'"
            )
        setting = parse_setting(action.arg, cards)
        reason = foul_reason(setting, self.rules.joker, self.rules.wheel_second)
        if reason is not None:
            raise FoulHand(f"foul hand, set it again: {reason}")
        return setting

    def _apply_card(self, card: Card) -> tuple[Event, ...]:
        need = self.needs()
        assert need is not None
        if need.target == DEALER:
            self._dealer.append(card)
            if len(self._dealer) == HAND_CARDS:
                self.phase = Phase.SETTING
                return (Message(text="cards are dealt: set your hands"),)
            return ()
        seat = int(need.target[len("seat") :])
        self._hands[seat].append(card)
        return (CardShown(card=card, hand=need.target, to=str(seat)),)

    def _reveal_and_settle(self) -> list[Event]:
        rules = self.rules
        dealer = house_way(self._dealer, rules.joker, rules.wheel_second)
        self._dealer_setting = dealer
        d_lo, d_hi = (
            low_key(dealer.low, rules.joker),
            high_key(dealer.high, rules.joker, rules.wheel_second),
        )
        events: list[Event] = [CardShown(card=c, hand=DEALER) for c in self._dealer]
        events.append(
            Message(
                text=f"dealer sets {dealer} by the house way: "
                f"{describe_key(d_hi)} and {describe_key(d_lo)}"
            )
        )
        hands = {
            s: bonus_hands(self._hands[s], rules.joker, rules.wheel_second) for s in self._order
        }
        for seat in self._order:
            st = self._settings[seat]
            if seat in self._surrendered:  # page 002: a surrendered hand is not exposed
                for bet, stake in self._book.of(seat).items():
                    settled = BetSettled(
                        seat=seat,
                        bet=bet,
                        stake=stake,
                        returned=0,
                        result="lose",
                        note="surrendered before the reveal",
                    )
                    self._settlements.append(settled)
                    events.append(settled)
                continue
            events += [CardShown(card=c, hand=f"seat{seat}.low") for c in st.low]
            events += [CardShown(card=c, hand=f"seat{seat}.high") for c in st.high]
            for bet, stake in self._book.of(seat).items():
                if bet == MAIN_BET:
                    settled = self._settle_main(seat, stake, st, d_lo, d_hi)
                else:
                    settled = self._settle_side(seat, bet, stake, hands)
                self._settlements.append(settled)
                events.append(settled)
        self.phase = Phase.OVER
        events.append(RoundOver(summary=f"dealer {dealer}"))
        return events

    def _settle_main(self, seat: int, stake: int, st: Setting, d_lo: int, d_hi: int) -> BetSettled:
        rules = self.rules
        p_lo = low_key(st.low, rules.joker)
        p_hi = high_key(st.high, rules.joker, rules.wheel_second)
        high_won, low_won = p_hi > d_hi, p_lo > d_lo  # a copy goes to the banker
        note = (
            f"high {describe_key(p_hi)} {'beats' if high_won else 'loses to'} "
            f"{describe_key(d_hi)}; low {describe_key(p_lo)} "
            f"{'beats' if low_won else 'loses to'} {describe_key(d_lo)}"
        )
        if high_won and low_won:
            fee = main_commission(stake, rules)
            return BetSettled(
                seat=seat,
                bet=MAIN_BET,
                stake=stake,
                returned=2 * stake,
                commission=fee,
                result="win",
                note=f"{note}; pays 1:1 less {format_cents(fee)} commission",
            )
        if high_won or low_won:
            return BetSettled(
                seat=seat, bet=MAIN_BET, stake=stake, returned=stake, result="push", note=note
            )
        return BetSettled(
            seat=seat, bet=MAIN_BET, stake=stake, returned=0, result="lose", note=note
        )

    def _settle_side(
        self, seat: int, bet: str, stake: int, hands: dict[int, tuple[str, ...]]
    ) -> BetSettled:
        side = self.rules.side
        assert side is not None and side.name == bet
        returned, notes = 0, []
        paid = bonus_pay(side, hands[seat])
        if paid is not None:
            name, ratio = paid
            win = pay(Cents(stake), ratio)
            if side.payout_cap and win > side.payout_cap:
                win = Cents(side.payout_cap)
                notes.append(f"{name} pays {ratio}, capped at {format_cents(side.payout_cap)}")
            else:
                notes.append(f"{name} pays {ratio}")
            returned = stake + win
        else:
            notes.append("no bonus hand")
        if side.envy and stake >= side.envy_minimum:
            for other in self._order:
                envy = envy_amount(side, hands[other]) if other != seat else None
                if envy is not None:
                    returned += envy[1]
                    notes.append(f"envy {format_cents(envy[1])} for seat {other}'s {envy[0]}")
        net = returned - stake
        result = "win" if net > 0 else "push" if net == 0 else "lose"
        return BetSettled(
            seat=seat,
            bet=bet,
            stake=stake,
            returned=returned,
            result=result,
            note="; ".join(notes),
        )
