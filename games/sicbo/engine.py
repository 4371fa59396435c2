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

from games.core.engine import Need, NeedKind, Variant
from games.core.errors import BetRefused, IllegalAction
from games.core.money import Cents, Rounding, format_cents, pay
from games.core.records import (
    Action,
    BetPlaced,
    BetReturned,
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


class SicBoRound:
    """One sic bo round at a table of ``seats`` seats."""

    def __init__(self, variant: Variant, seats: int = 1) -> None:
        if not isinstance(variant.rules, SicBoPaytable):
            raise TypeError(f"{variant.id} is not a sic bo variant")
        if seats < 1:
            raise ValueError("a table needs at least one seat")
        self.variant = variant
        self._t: SicBoPaytable = variant.rules
        self._seats = seats
        self._bets: dict[tuple[int, str], int] = {}
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
        return {name: v for (s, name), v in self._bets.items() if s == seat}

    def on_table(self) -> int:
        return sum(self._bets.values())

    def needs(self) -> Need | None:
        return Need(kind=NeedKind.DICE, count=3) if self._phase is Phase.ROLLING else None

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self._phase is not Phase.BETTING or not 0 <= seat < self._seats:
            return frozenset()
        out = {"place-bet"}
        if self.bets(seat):
            out.add("remove-bet")
        if self._bets:
            out.add("roll")
        return frozenset(out)

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

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
        seat = action.seat
        if seat is None or not 0 <= seat < self._seats:
            raise IllegalAction(f"no seat {seat!r} at this table ({self._seats} seats)")
        if self._phase is Phase.ROLLING:
            raise IllegalAction("the dice are rolling; wait for the result")
        if isinstance(action, PlaceBet):
            self._check_place(seat, check_name(action.bet), action.amount)
        elif isinstance(action, RemoveBet):
            self._check_remove(seat, check_name(action.bet), action.amount)
        elif isinstance(action, Decide):
            if action.decision != "roll":
                raise IllegalAction(f"sic bo has no decision {action.decision!r}")
            if not self._bets:
                raise IllegalAction("place a bet before rolling")
        else:
            raise IllegalAction(f"sic bo does not take {action.kind!r} actions")

    def _check_place(self, seat: int, name: str, amount: int) -> None:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise BetRefused("a bet must be a positive whole number of cents")
        limit = self.variant.limits[name]
        total = self._bets.get((seat, name), 0) + amount
        if amount % limit.increment:
            raise BetRefused(f"{name} must be in increments of {format_cents(limit.increment)}")
        if total < limit.minimum:
            raise BetRefused(f"{name} minimum is {format_cents(limit.minimum)}")
        if total > limit.maximum:
            raise BetRefused(f"{format_cents(limit.maximum)} maximum on {name}")

    def _check_remove(self, seat: int, name: str, amount: int) -> None:
        current = self._bets.get((seat, name), 0)
        if not current:
            raise BetRefused(f"no {name} bet to remove")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise BetRefused("the amount to remove must be 0 (all) or a positive number of cents")
        if amount > current:
            raise BetRefused(f"cannot remove {format_cents(amount)} from {format_cents(current)}")
        limit = self.variant.limits[name]
        if 0 < amount < current and (amount % limit.increment or current - amount < limit.minimum):
            raise BetRefused(
                f"{name} may be reduced in steps of {format_cents(limit.increment)} "
                f"down to the {format_cents(limit.minimum)} minimum"
            )

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, RollDice):
            a, b, c = action.faces
            return self._settle((a, b, c))
        assert action.seat is not None
        seat = action.seat
        if isinstance(action, PlaceBet):
            key = (seat, action.bet)
            self._bets[key] = self._bets.get(key, 0) + action.amount
            return (BetPlaced(seat=seat, bet=action.bet, amount=action.amount),)
        if isinstance(action, RemoveBet):
            key = (seat, action.bet)
            take = action.amount or self._bets[key]
            self._bets[key] -= take
            if not self._bets[key]:
                del self._bets[key]
            return (BetReturned(seat=seat, bet=action.bet, amount=take),)
        self._phase = Phase.ROLLING
        return (Message(text=f"seat {seat} rolls the dice"),)

    def _settle(self, dice: tuple[int, int, int]) -> tuple[Event, ...]:
        self._dice = dice
        events: list[Event] = [Message(text=f"dice {dice[0]}-{dice[1]}-{dice[2]} = {sum(dice)}")]
        for (seat, name), stake in self._bets.items():
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
        self._bets = {}
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
