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

from games.core.engine import Need, NeedKind, Variant
from games.core.errors import IllegalAction
from games.core.money import Cents, Ratio, Rounding, pay, split
from games.core.one_outcome import OneOutcomeRound
from games.core.records import (
    Action,
    BetSettled,
    Event,
    Message,
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


class RouletteRound(OneOutcomeRound):
    """One roulette round at a table of ``seats`` seats."""

    GAME, TRIGGER, TRIGGER_TEXT = "roulette", "spin", "spins the wheel"
    WAITING_TEXT = "the wheel is spinning; wait for the number"
    NEED, OUTCOME = Need(kind=NeedKind.SPIN), SpinResult
    BETTING, WAITING, OVER = Phase.BETTING, Phase.SPINNING, Phase.OVER

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        if not isinstance(variant.rules, RouletteRules):
            raise TypeError(f"{variant.id} is not a roulette variant")
        super().__init__(variant, seats)
        self.rules: RouletteRules = variant.rules
        self.layout = layout_for(self.rules.wheel.zeros)
        self._number: str | None = None

    @property
    def number(self) -> str | None:
        return self._number

    def _bet_name(self, name: str) -> str:
        return self.layout.canonical(name)

    def _check_outcome(self, action: Action) -> None:
        assert isinstance(action, SpinResult)
        if action.seat is not None:
            raise IllegalAction("the number comes from the wheel, not a seat")
        if action.number not in self.layout.pockets:
            raise IllegalAction(
                f"{action.number!r} is not a pocket of this wheel "
                f"({', '.join(self.layout.zeros)}, 1-36)"
            )

    def _settle(self, action: Action) -> tuple[Event, ...]:
        assert isinstance(action, SpinResult)
        number = self._number = action.number
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
        }
        return self._view_of(out, seat)
