"""The round roulette and sic bo share: bets, a seat's trigger, then one outcome settles all.

Phases: betting (``PlaceBet`` / ``RemoveBet`` against the table's limits, in the
:attr:`~games.core.betting.Wording.SPOT` wording), then a seat's trigger decision
(``Decide(seat, "spin")``, ``"roll"``) once bets are down, then waiting for the outcome
source (``needs()``), whose one action (``SpinResult``, ``RollDice``) settles every bet
and ends the round. A family subclasses :class:`OneOutcomeRound` with its words, its
bet names (:meth:`~OneOutcomeRound.bet_name`), the ``verify_<kind>`` / ``apply_<kind>``
pair of its outcome action (the apply calls :meth:`~OneOutcomeRound.settle_all`) and
what one bet returns (:meth:`~OneOutcomeRound.returned`); everything else, messages
included, is here once, on :class:`~games.core.round.Round`.
"""

from __future__ import annotations

from abc import abstractmethod
from enum import StrEnum
from typing import ClassVar, NotRequired, TypedDict, TypeVar

from games.core.betting import Wording
from games.core.engine import Need, Variant
from games.core.errors import IllegalAction
from games.core.records import (
    JSON,
    Action,
    Decide,
    Event,
    Message,
    PlaceBet,
    RemoveBet,
    RoundOver,
)
from games.core.round import Round

R = TypeVar("R")


class SpotFields(TypedDict):
    """The results and bets a seat may see (:meth:`OneOutcomeRound.spot_view`).

    The public view (seat None) shows every seat's bets and settlements, by seat; a
    seat's view its own bets and settlements and what it may do (``legal``).
    """

    results: list[JSON]
    bets: dict[str, dict[str, int]] | dict[str, int]
    legal: NotRequired[list[str]]


class SpotView(SpotFields):
    """A one-outcome round's view: the game, the variant, the phase, and each family's
    own keys (built in the family's order: JSON-able, served as it is)."""

    game: str
    variant: str
    phase: str


class OneOutcomeRound(Round[R]):
    """One round at a table of ``seats`` seats, settled by a single outcome."""

    TRIGGER: ClassVar[str]  # the seat's decision that calls for the outcome: "spin"
    TRIGGER_TEXT: ClassVar[str]  # what the seat does, after "seat N ": "spins the wheel"
    WAITING_TEXT: ClassVar[str]  # said to a seat acting meanwhile
    NEED: ClassVar[Need]  # what the source supplies
    OUTCOME: ClassVar[type[Action]]  # the source's action
    BETTING: ClassVar[StrEnum]  # the family's phases (its own enum, named in its views)
    WAITING: ClassVar[StrEnum]
    OVER: ClassVar[StrEnum]

    def __init__(self, variant: Variant[R], seats: int) -> None:
        if seats < 1:
            raise ValueError("a table needs at least one seat")
        super().__init__(variant, seats, phase=self.BETTING, wording=Wording.SPOT)

    # --- what a family supplies ---------------------------------------------------

    @abstractmethod
    def bet_name(self, name: str) -> str:
        """The bet's name as stored; raises BetRefused for a name the layout does not have."""

    @abstractmethod
    def returned(self, bet: str, stake: int) -> tuple[int, str]:
        """What the seat's ``bet`` of ``stake`` cents returns on the outcome, and the note."""

    # --- the shared round -----------------------------------------------------------

    def on_table(self) -> int:
        """Cents on the table."""
        return self.book.total()

    def needs(self) -> Need | None:
        return self.NEED if self.phase is self.WAITING else None

    def legal_actions(self, seat: int) -> frozenset[str]:
        if self.phase is not self.BETTING or not 0 <= seat < self.seats:
            return frozenset()
        return self.book.betting_actions(seat, self.TRIGGER)

    def unknown_action_text(self, action: Action) -> str:
        return f"{self.GAME} does not take {action.kind!r} actions"

    def verify_any(self, action: Action) -> None:
        """A round that is over takes nothing; the outcome only when it is awaited; a
        seat's action needs its seat and the betting phase."""
        if self.phase is self.OVER:
            raise IllegalAction(f"this {self.GAME} round is over; start the next round")
        if isinstance(action, self.OUTCOME):
            if self.phase is not self.WAITING:
                raise IllegalAction(
                    f"no {self.TRIGGER} is expected: press {self.TRIGGER.capitalize()} first"
                )
            return
        self.seat_of(action)
        if self.phase is self.WAITING:
            raise IllegalAction(self.WAITING_TEXT)

    def verify_place_bet(self, action: PlaceBet) -> None:
        self.book.check_place(self.seat_of(action), self.bet_name(action.bet), action.amount)

    def apply_place_bet(self, action: PlaceBet) -> tuple[Event, ...]:
        return (self.book.place(self.seat_of(action), self.bet_name(action.bet), action.amount),)

    def verify_remove_bet(self, action: RemoveBet) -> None:
        self.book.check_remove(self.seat_of(action), self.bet_name(action.bet), action.amount)

    def apply_remove_bet(self, action: RemoveBet) -> tuple[Event, ...]:
        return (self.book.remove(self.seat_of(action), self.bet_name(action.bet), action.amount),)

    def verify_decide(self, action: Decide) -> None:
        if action.decision != self.TRIGGER:
            raise IllegalAction(f"{self.GAME} has no decision {action.decision!r}")
        if not self.book:
            raise IllegalAction(f"place a bet before {self.WAITING.value}")

    def apply_decide(self, action: Decide) -> tuple[Event, ...]:
        self.phase = self.WAITING
        return (Message(text=f"seat {self.seat_of(action)} {self.TRIGGER_TEXT}"),)

    def settle_all(self, said: str, summary: str) -> tuple[Event, ...]:
        """Settle every bet on the outcome (``said`` first, ``summary`` last); ends the round."""
        events: list[Event] = [Message(text=said)]
        for seat, bet, stake in self.book.items():
            returned, note = self.returned(bet, stake)
            events.append(self.settle(seat, bet, returned, note))
        self.book.clear()
        self.phase = self.OVER
        events.append(RoundOver(summary=summary))
        return tuple(events)

    def spot_view(self, seat: int | None) -> SpotFields:
        """The results and bets ``seat`` may see (and, for a seat, what it may do)."""
        results = [r.encode() for r in self._settlements if seat is None or r.seat == seat]
        if seat is None:
            return SpotFields(results=results, bets={str(s): b for s, b in self.bets.items()})
        return SpotFields(
            results=results, bets=self.book.of(seat), legal=sorted(self.legal_actions(seat))
        )

    def scripted(self, seat: int, bet: str) -> Action | None:
        """The documented scripted player: the table minimum on ``bet``, then the trigger."""
        if self.phase is not self.BETTING:
            return None
        if not self.book.of(seat):
            return PlaceBet(seat=seat, bet=bet, amount=self.variant.limits[bet].minimum)
        return Decide(seat=seat, decision=self.TRIGGER)


__all__ = ["OneOutcomeRound", "SpotFields", "SpotView"]
