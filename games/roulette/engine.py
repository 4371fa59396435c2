"""The roulette engine: one round of bets settled by one winning number from the wheel.

Actions: ``PlaceBet`` / ``RemoveBet`` while betting (bet names per
:mod:`games.roulette.layout`, any number order accepted and stored in layout order),
``Decide(seat, "spin")`` once bets are down, then ``SpinResult(number=...)`` from the
wheel (``needs()`` is ``Need(kind=SPIN)``), which settles every bet and ends the round.
With la partage an even-money bet on a zero gets half its stake back (the half is exact:
stakes are whole dollars; an odd cent, if limits ever allowed one, stays with the house).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from games.core.betting import BetBook, VerifyCan, Wording, seat_of
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import IllegalAction
from games.core.money import Cents, Ratio, Rounding, pay, split
from games.core.records import (
    Action,
    BetSettled,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
    RoundOver,
    SpinResult,
)
from games.roulette.layout import Layout, layout_for
from games.roulette.paytable import RouletteRules
from games.roulette.rules import outcome


class Phase(StrEnum):
    BETTING = "betting"
    SPINNING = "spinning"
    OVER = "over"


class RouletteRound(VerifyCan):
    """One roulette round at a table of ``seats`` seats."""

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        if not isinstance(variant.rules, RouletteRules):
            raise TypeError(f"{variant.id} is not a roulette variant")
        if seats < 1:
            raise ValueError("a table needs at least one seat")
        self.variant = variant
        self.rules: RouletteRules = variant.rules
        self.layout = layout_for(self.rules.wheel.zeros)
        self._seats = seats
        self._book = BetBook(variant.limits, Wording.SPOT)
        self._phase = Phase.BETTING
        self._number: str | None = None
        self._results: list[BetSettled] = []

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def number(self) -> str | None:
        return self._number

    def bets(self, seat: int) -> dict[str, int]:
        return self._book.of(seat)

    def on_table(self) -> int:
        return self._book.total()

    def needs(self) -> Need | None:
        return Need(kind=NeedKind.SPIN) if self._phase is Phase.SPINNING else None

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self._phase is not Phase.BETTING or not 0 <= seat < self._seats:
            return frozenset()
        return self._book.betting_actions(seat, "spin")

    def verify(self, action: Action) -> None:
        if self._phase is Phase.OVER:
            raise IllegalAction("this roulette round is over; start the next round")
        if isinstance(action, SpinResult):
            if self._phase is not Phase.SPINNING:
                raise IllegalAction("no spin is expected: press Spin first")
            if action.seat is not None:
                raise IllegalAction("the number comes from the wheel, not a seat")
            if action.number not in self.layout.pockets:
                raise IllegalAction(
                    f"{action.number!r} is not a pocket of this wheel "
                    f"({', '.join(self.layout.zeros)}, 1-36)"
                )
            return
        seat = seat_of(action, self._seats)
        if self._phase is Phase.SPINNING:
            raise IllegalAction("the wheel is spinning; wait for the number")
        if isinstance(action, PlaceBet):
            self._book.check_place(seat, self.layout.canonical(action.bet), action.amount)
        elif isinstance(action, RemoveBet):
            self._book.check_remove(seat, self.layout.canonical(action.bet), action.amount)
        elif isinstance(action, Decide):
            if action.decision != "spin":
                raise IllegalAction(f"roulette has no decision {action.decision!r}")
            if not self._book:
                raise IllegalAction("place a bet before spinning")
        else:
            raise IllegalAction(f"roulette does not take {action.kind!r} actions")

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, SpinResult):
            return self._settle(action.number)
        assert action.seat is not None
        seat = action.seat
        if isinstance(action, PlaceBet):
            return (self._book.place(seat, self.layout.canonical(action.bet), action.amount),)
        if isinstance(action, RemoveBet):
            return (self._book.remove(seat, self.layout.canonical(action.bet), action.amount),)
        self._phase = Phase.SPINNING
        return (Message(text=f"seat {seat} spins the wheel"),)

    def _settle(self, number: str) -> tuple[Event, ...]:
        self._number = number
        events: list[Event] = [Message(text=f"the ball lands on {number}")]
        for seat, name, stake in self._book.items():
            result, net = outcome(self.layout, self.rules, name, number)
            if result == "win":
                win = pay(Cents(stake), Ratio(net.numerator, net.denominator), Rounding.DOWN)
                s = BetSettled(
                    seat=seat,
                    bet=name,
                    stake=stake,
                    returned=stake + win,
                    result="win",
                    note=f"pays {self.rules.pays[Layout.kind(name)]}",
                )
            elif net == -1:
                s = BetSettled(seat=seat, bet=name, stake=stake, returned=0, result="lose")
            else:
                half, _odd_cent = split(Cents(stake), 2)
                s = BetSettled(
                    seat=seat,
                    bet=name,
                    stake=stake,
                    returned=half,
                    result="lose",
                    note="la partage: half the stake returned on zero",
                )
            self._results.append(s)
            events.append(s)
        self._book.clear()
        self._phase = Phase.OVER
        events.append(RoundOver(summary=f"winning number {number}"))
        return tuple(events)

    def view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "roulette",
            "variant": self.variant.id,
            "wheel": list(self.layout.pockets),
            "la_partage": self.rules.wheel.la_partage,
            "phase": self._phase.value,
            "number": self._number,
            "results": [r.encode() for r in self._results if seat is None or r.seat == seat],
        }
        if seat is None:
            out["bets"] = {str(s): self.bets(s) for s in range(self._seats)}
        else:
            out["bets"] = self.bets(seat)
            out["legal"] = sorted(self.legal_actions(seat))
        return out
