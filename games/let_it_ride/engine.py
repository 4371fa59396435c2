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

from games.caribbean_stud.table import Phase, PokerTableRound, Slot
from games.core.engine import Variant
from games.core.money import Cents, pay
from games.core.records import Decide, Event, JackpotContribution, JackpotWin, Message
from games.let_it_ride.paytable import rules_of
from games.let_it_ride.rules import RAISES, RideRules
from games.poker.rank5 import category, rank5

DECISIONS = frozenset({"raise", "continue"})


class RideRound(PokerTableRound):
    """One round of Let'Em Ride for ``seats`` seats (numbered from 0)."""

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        super().__init__(variant, seats)
        self.rules: RideRules = rules_of(variant)
        self.bet_names = self.rules.bets
        self.riders = {"progressive": "ante"}
        self.fixed_stakes = {"progressive": self.rules.jackpot.stake} if self.rules.jackpot else {}
        self.stage = 0  # decisions made so far by every seat (0, 1, 2)
        self._decided: dict[int, list[str]] = {}

    def _pending(self) -> list[int]:
        return [s for s in self.active() if len(self._decided.get(s, [])) == self.stage]

    def decisions(self, seat: int) -> frozenset[str]:
        return DECISIONS if self.stage < 2 and seat in self._pending() else frozenset()

    def _deal_plan(self, active: list[int]) -> list[Slot]:
        plan = [Slot(f"seat{s}", "seat") for _ in range(3) for s in active]
        return [*plan, Slot("board", "none"), Slot("board", "none")]

    def _after_cards(self) -> list[Event]:
        self.phase = Phase.DECIDING
        return [Message(text="raise or continue")]

    def _decide(self, seat: int, action: Decide) -> list[Event]:
        self._decided.setdefault(seat, []).append(action.decision)
        events: list[Event] = []
        if action.decision == "raise":
            events.append(self._place(seat, RAISES[self.stage], self._book.of(seat)["ante"]))
        if self._pending():
            return events
        self.stage += 1
        events.extend(self._reveal("board", self.stage))
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
                if bet not in self._book.of(seat):
                    continue
                stake = self._book.of(seat)[bet]
                if ratio is None:
                    events.append(self._settle(seat, bet, 0, f"{cat.label}: below tens, loses"))
                else:
                    won = stake + pay(Cents(stake), ratio)
                    events.append(self._settle(seat, bet, won, f"{cat.label} pays {ratio}"))
            if jp is not None and "progressive" in self._book.of(seat):
                award = jp.award(cat)
                events.append(self._settle(seat, "progressive", 0, f"{cat.label}"))
                if jp.contribution:
                    events.append(
                        JackpotContribution(seat=seat, meter=jp.meter, amount=jp.contribution)
                    )
                if award:
                    events.append(
                        JackpotWin(
                            seat=seat,
                            meter=jp.meter,
                            fixed=award[0],
                            share_bp=award[1],
                            hand=cat.label,
                        )
                    )
        events.extend(self._close())
        return events
