"""The round roulette and sic bo share: bets, a seat's trigger, then one outcome settles all.

Phases: betting (``PlaceBet`` / ``RemoveBet`` against the table's limits), then a seat's
trigger decision (``Decide(seat, "spin")``, ``"roll"``) once bets are down, then waiting
for the outcome source (``needs()``), whose one action (``SpinResult``, ``RollDice``)
settles every bet and ends the round. A family subclasses :class:`OneOutcomeRound` with
its words, its bet names, its outcome check and its settlement; everything else,
messages included, is here once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import StrEnum
from typing import Any, ClassVar

from games.core.betting import BetBook, VerifyCan, Wording, seat_of
from games.core.engine import Need, Variant
from games.core.errors import IllegalAction
from games.core.records import (
    Action,
    BetSettled,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
)


class OneOutcomeRound(VerifyCan, ABC):
    """One round at a table of ``seats`` seats, settled by a single outcome."""

    GAME: ClassVar[str]  # the game's name in messages: "roulette"
    TRIGGER: ClassVar[str]  # the seat's decision that calls for the outcome: "spin"
    TRIGGER_TEXT: ClassVar[str]  # what the seat does, after "seat N ": "spins the wheel"
    WAITING_TEXT: ClassVar[str]  # said to a seat acting meanwhile
    NEED: ClassVar[Need]  # what the source supplies
    OUTCOME: ClassVar[type[Action]]  # the source's action
    BETTING: ClassVar[StrEnum]  # the family's phases (its own enum, named in its views)
    WAITING: ClassVar[StrEnum]
    OVER: ClassVar[StrEnum]

    def __init__(self, variant: Variant, seats: int) -> None:
        if seats < 1:
            raise ValueError("a table needs at least one seat")
        self.variant = variant
        self._seats = seats
        self._book = BetBook(variant.limits, Wording.SPOT)
        self._phase = self.BETTING
        self._results: list[BetSettled] = []

    # --- what a family supplies ---------------------------------------------------
    @abstractmethod
    def _bet_name(self, name: str) -> str:
        """The bet's name as stored; raises for a name the layout does not have."""

    @abstractmethod
    def _check_outcome(self, action: Action) -> None:
        """Raise IllegalAction for an outcome that cannot be (a seat's, out of range)."""

    @abstractmethod
    def _settle(self, action: Action) -> tuple[Event, ...]:
        """Settle every bet on ``action``'s outcome; ends the round."""

    # --- the shared round -----------------------------------------------------------
    @property
    def phase(self) -> StrEnum:
        return self._phase

    def bets(self, seat: int) -> dict[str, int]:
        return self._book.of(seat)

    def on_table(self) -> int:
        return self._book.total()

    def needs(self) -> Need | None:
        return self.NEED if self._phase is self.WAITING else None

    @property
    def is_over(self) -> bool:
        return self._phase is self.OVER

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self._phase is not self.BETTING or not 0 <= seat < self._seats:
            return frozenset()
        return self._book.betting_actions(seat, self.TRIGGER)

    def verify(self, action: Action) -> None:
        if self._phase is self.OVER:
            raise IllegalAction(f"this {self.GAME} round is over; start the next round")
        if isinstance(action, self.OUTCOME):
            if self._phase is not self.WAITING:
                raise IllegalAction(
                    f"no {self.TRIGGER} is expected: press {self.TRIGGER.capitalize()} first"
                )
            self._check_outcome(action)
            return
        seat = seat_of(action, self._seats)
        if self._phase is self.WAITING:
            raise IllegalAction(self.WAITING_TEXT)
        if isinstance(action, PlaceBet):
            self._book.check_place(seat, self._bet_name(action.bet), action.amount)
        elif isinstance(action, RemoveBet):
            self._book.check_remove(seat, self._bet_name(action.bet), action.amount)
        elif isinstance(action, Decide):
            if action.decision != self.TRIGGER:
                raise IllegalAction(f"{self.GAME} has no decision {action.decision!r}")
            if not self._book:
                raise IllegalAction(f"place a bet before {self.WAITING.value}")
        else:
            raise IllegalAction(f"{self.GAME} does not take {action.kind!r} actions")

    def apply(self, action: Action) -> tuple[Event, ...]:
        self.verify(action)
        if isinstance(action, self.OUTCOME):
            return self._settle(action)
        assert action.seat is not None
        seat = action.seat
        if isinstance(action, PlaceBet):
            return (self._book.place(seat, self._bet_name(action.bet), action.amount),)
        if isinstance(action, RemoveBet):
            return (self._book.remove(seat, self._bet_name(action.bet), action.amount),)
        self._phase = self.WAITING
        return (Message(text=f"seat {seat} {self.TRIGGER_TEXT}"),)

    def _view_of(self, out: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """``out`` (the family's fields) with the results and bets ``seat`` may see."""
        out["results"] = [r.encode() for r in self._results if seat is None or r.seat == seat]
        if seat is None:
            out["bets"] = {str(s): self.bets(s) for s in range(self._seats)}
        else:
            out["bets"] = self.bets(seat)
            out["legal"] = sorted(self.legal_actions(seat))
        return out


__all__ = ["OneOutcomeRound"]
