"""The Let'Em Ride round (page 001): a pure state machine.

Order of play: seats place an ``ante`` and, optionally, the fixed ``progressive``
bet (needs an ante). After :class:`~games.core.records.Deal` the source deals
three cards to each seat (shown to that seat only), then two face-down
community cards. Each seat then decides (``Decide(seat=s, decision=...)``):

``raise``     place ``raise-1`` equal to the ante (Let It Ride: let the bet ride);
``continue``  no raise (Let It Ride: pull the bet back).

When every seat has decided the first community card is turned up and each
seat decides again (``raise-2``); then the second is turned up and every bet
still up settles on the seat's five cards: a pair of tens or better pays the
table's odds on the ante and each raise, anything less loses them. The
progressive settles on the same five cards (lost to the house, its
contribution to the meter, awards as :class:`~games.core.records.JackpotWin`).
"""

from __future__ import annotations

from typing import ClassVar

from games.core.engine import Variant
from games.core.money import Cents, pay
from games.core.poker_table import BetRules, PokerTableRound, PokerTableView, Slot
from games.core.records import Decide, Event, Message
from games.core.round import Phase
from games.let_it_ride.rules import RAISES, RideRules
from games.poker.rank5 import category, rank5

DECISIONS = frozenset({"raise", "continue"})


class RideView(PokerTableView):
    """What a seat sees of a Let'Em Ride table (its three cards, the community cards up)."""


class RideRound(PokerTableRound[RideRules]):
    """One round of Let'Em Ride for ``seats`` seats (numbered from 0)."""

    GAME = "Let'Em Ride"
    PASSIVE: ClassVar[tuple[str, ...]] = ("continue",)

    def __init__(self, variant: Variant[RideRules], seats: int = 1) -> None:
        super().__init__(variant, seats)
        self.stage = 0  # decisions made so far by every seat (0, 1, 2)
        self._decided: dict[int, list[str]] = {}

    def bet_rules(self) -> BetRules:
        return BetRules.with_jackpot(self.rules.bets, "progressive", self.rules.jackpot)

    def view(self, seat: int | None) -> RideView:
        out: RideView = {**self.table_view(seat)}
        return out

    def _pending(self) -> list[int]:
        return [s for s in self.active() if len(self._decided.get(s, [])) == self.stage]

    def decisions(self, seat: int) -> frozenset[str]:
        return DECISIONS if self.stage < 2 and seat in self._pending() else frozenset()

    def deal_plan(self, active: list[int]) -> list[Slot]:
        plan = [Slot(f"seat{s}", "seat") for _ in range(3) for s in active]
        return [*plan, Slot("board", "none"), Slot("board", "none")]

    def after_cards(self) -> list[Event]:
        self.phase = Phase.DECIDING
        return [Message(text="raise or continue")]

    def decide(self, seat: int, action: Decide) -> list[Event]:
        self._decided.setdefault(seat, []).append(action.decision)
        events: list[Event] = []
        if action.decision == "raise":
            events.append(self.place_by_rule(seat, RAISES[self.stage], self.book.of(seat)["ante"]))
        if self._pending():
            return events
        self.stage += 1
        events.extend(self.reveal("board", self.stage))
        if self.stage == 2:
            events.extend(self._finish())
        return events

    def _finish(self) -> list[Event]:
        events: list[Event] = []
        jp = self.rules.jackpot
        for seat in self.active():
            hand = [*self._hands[seat], *self._board]
            r = rank5(hand)
            cat = category(r)
            ratio = self.rules.pays.get(cat) if r >= self.rules.lowest_win else None
            for bet in ("ante", *RAISES):
                if bet not in self.book.of(seat):
                    continue
                stake = self.book.of(seat)[bet]
                if ratio is None:
                    events.append(self.settle(seat, bet, 0, f"{cat.label}: below tens, loses"))
                else:
                    won = stake + pay(Cents(stake), ratio)
                    events.append(self.settle(seat, bet, won, f"{cat.label} pays {ratio}"))
            if jp is not None and "progressive" in self.book.of(seat):
                events.extend(self.settle_jackpot(seat, "progressive", jp, cat, f"{cat.label}"))
        events.extend(self.close())
        return events
