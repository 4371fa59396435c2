"""The sic bo engine: one round of bets settled by one roll of three dice.

Actions: ``PlaceBet`` / ``RemoveBet`` while betting (limits per bet spot, cumulative),
``Decide(seat, "roll")`` once bets are down, then ``RollDice(faces=(a, b, c))`` from the
dice source (``needs()`` is ``Need(kind=DICE, count=3)``), which settles every bet and
ends the round. Wins are ``stake * num / den`` exactly (every Macau pay is whole-number
to one, so no rounding arises).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from games.core.betting import BetBook, VerifyCan, Wording, seat_of
from games.core.engine import Need, NeedKind, Variant
from games.core.errors import IllegalAction
from games.core.money import Cents, Rounding, pay
from games.core.records import (
    Action,
    BetSettled,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
    RollDice,
    RoundOver,
)
from games.sicbo.bets import all_bet_names, check_name, payout
from games.sicbo.paytable import SicBoPaytable


class Phase(StrEnum):
    BETTING = "betting"
    ROLLING = "rolling"
    OVER = "over"


class SicBoRound(VerifyCan):
    """One sic bo round at a table of ``seats`` seats."""

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        if not isinstance(variant.rules, SicBoPaytable):
            raise TypeError(f"{variant.id} is not a sic bo variant")
        if seats < 1:
            raise ValueError("a table needs at least one seat")
        self.variant = variant
        self._t: SicBoPaytable = variant.rules
        self._seats = seats
        self._book = BetBook(variant.limits, Wording.SPOT)
        self._phase = Phase.BETTING
        self._dice: tuple[int, int, int] | None = None
        self._results: list[BetSettled] = []

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def dice(self) -> tuple[int, int, int] | None:
        return self._dice

    def bets(self, seat: int) -> dict[str, int]:
        return self._book.of(seat)

    def on_table(self) -> int:
        return self._book.total()

    def needs(self) -> Need | None:
        return Need(kind=NeedKind.DICE, count=3) if self._phase is Phase.ROLLING else None

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self._phase is not Phase.BETTING or not 0 <= seat < self._seats:
            return frozenset()
        return self._book.betting_actions(seat, "roll")

    def verify(self, action: Action) -> None:
        if self._phase is Phase.OVER:
            raise IllegalAction("this sic bo round is over; start the next round")
        if isinstance(action, RollDice):
            if self._phase is not Phase.ROLLING:
                raise IllegalAction("no roll is expected: press Roll first")
            if action.seat is not None:
                raise IllegalAction("dice come from the dice source, not a seat")
            f = action.faces
            if len(f) != 3 or any(
                isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in f
            ):
                raise IllegalAction(f"sic bo needs three dice showing 1-6, got {list(f)!r}")
            return
        seat = seat_of(action, self._seats)
        if self._phase is Phase.ROLLING:
            raise IllegalAction("the dice are rolling; wait for the result")
        if isinstance(action, PlaceBet):
            self._book.check_place(seat, check_name(action.bet), action.amount)
        elif isinstance(action, RemoveBet):
            self._book.check_remove(seat, check_name(action.bet), action.amount)
        elif isinstance(action, Decide):
            if action.decision != "roll":
                raise IllegalAction(f"sic bo has no decision {action.decision!r}")
            if not self._book:
                raise IllegalAction("place a bet before rolling")
        else:
            raise IllegalAction(f"sic bo does not take {action.kind!r} actions")

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, RollDice):
            a, b, c = action.faces
            return self._settle((a, b, c))
        assert action.seat is not None
        seat = action.seat
        if isinstance(action, PlaceBet):
            return (self._book.place(seat, check_name(action.bet), action.amount),)
        if isinstance(action, RemoveBet):
            return (self._book.remove(seat, check_name(action.bet), action.amount),)
        self._phase = Phase.ROLLING
        return (Message(text=f"seat {seat} rolls the dice"),)

    def _settle(self, dice: tuple[int, int, int]) -> tuple[Event, ...]:
        self._dice = dice
        events: list[Event] = [Message(text=f"dice {dice[0]}-{dice[1]}-{dice[2]} = {sum(dice)}")]
        for seat, name, stake in self._book.items():
            ratio = payout(name, dice, self._t)
            if ratio is None:
                s = BetSettled(seat=seat, bet=name, stake=stake, returned=0, result="lose")
            else:
                win = pay(Cents(stake), ratio, Rounding.DOWN)
                s = BetSettled(
                    seat=seat,
                    bet=name,
                    stake=stake,
                    returned=stake + win,
                    result="win",
                    note=f"pays {ratio}",
                )
            self._results.append(s)
            events.append(s)
        self._book.clear()
        self._phase = Phase.OVER
        events.append(RoundOver(summary=f"dice {dice[0]}-{dice[1]}-{dice[2]}"))
        return tuple(events)

    def view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "sicbo",
            "variant": self.variant.id,
            "phase": self._phase.value,
            "dice": None if self._dice is None else list(self._dice),
            "results": [r.encode() for r in self._results if seat is None or r.seat == seat],
        }
        if seat is None:
            out["bets"] = {str(s): self.bets(s) for s in range(self._seats)}
        else:
            out["bets"] = self.bets(seat)
            out["legal"] = sorted(self.legal_actions(seat))
        return out


__all__ = ["Phase", "SicBoRound", "all_bet_names"]
