"""The one round skeleton every table game runs on.

Every family's engine is a :class:`Round`: the seats, the family's phases, the bet book
(:class:`~games.core.betting.BetBook`), the settlements, ``is_over``, and one dispatch
from each action's ``kind`` to the family's ``verify_<kind>`` / ``apply_<kind>`` pair in
place of a long ``isinstance`` chain. ``PlaceBet`` is ``verify_place_bet`` /
``apply_place_bet``, ``DealCard`` is ``verify_deal_card`` / ``apply_deal_card``, and so
on (the kind with ``-`` as ``_``). A family writes only the pairs it takes; an action
with no pair is refused with :meth:`Round.unknown_action_text`.

``verify`` never changes anything; ``apply`` verifies first, then mutates, and returns
the events. Families keep their own wording of every refusal (players and tests read
them), so the base says nothing a family has not chosen.

>>> from games.core.engine import BetLimit, Variant
>>> from games.core.records import PlaceBet
>>> class Coin(Round):
...     GAME = "coin"
...     def needs(self) -> None:
...         return None
...     def legal_actions(self, seat: int) -> frozenset[str]:
...         return frozenset({"place-bet"})
...     def view(self, seat: int | None) -> dict[str, str]:
...         return {}
...     def verify_place_bet(self, action: PlaceBet) -> None:
...         self.book.check_place(self.seat_of(action), action.bet, action.amount)
...     def apply_place_bet(self, action: PlaceBet) -> list[Event]:
...         return [self.book.place(self.seat_of(action), action.bet, action.amount)]
>>> v = Variant(id="coin", family="coin", title="Coin", source="", rules=None,
...             limits={"heads": BetLimit(minimum=100, maximum=1000)})
>>> r = Coin(v, 1, phase=Phase.BETTING)
>>> r.apply(PlaceBet(seat=0, bet="heads", amount=500))
(BetPlaced(seat=0, bet='heads', amount=500),)
>>> r.can(PlaceBet(seat=0, bet="heads", amount=5000))
False
>>> r.verify(Deal(seat=0))
Traceback (most recent call last):
...
games.core.errors.IllegalAction: coin has no action 'deal'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from games.core.betting import BetBook, Wording, seat_of
from games.core.engine import Need, Variant
from games.core.errors import IllegalAction
from games.core.records import Action, BetSettled, Deal, DealCard, Decide, Event

R = TypeVar("R")


class Phase(StrEnum):
    """The phases most families use; a family may declare its own StrEnum instead.

    ``is_over`` compares with :attr:`Round.OVER` by value, so any enum whose last
    phase is ``"over"`` works.
    """

    BETTING = "betting"
    DEALING = "dealing"
    DECIDING = "deciding"
    OVER = "over"


class Round(ABC, Generic[R]):
    """One round (or one craps game) at a table of ``seats`` seats, numbered from 0.

    ``R`` is the family's rules type (``variant.rules``). Subclasses set :attr:`GAME`
    (the game's name in messages), may set :attr:`PASSIVE` (the decisions, in order,
    that an absent or timed-out seat gets: see :meth:`default_action`), and write
    ``verify_<kind>`` / ``apply_<kind>`` pairs.
    """

    GAME: ClassVar[str] = "this game"
    OVER: ClassVar[str] = "over"
    PASSIVE: ClassVar[tuple[str, ...]] = ()

    # action kind ("place-bet") -> (verify_place_bet, apply_place_bet), for kinds with both
    _dispatch: ClassVar[dict[str, tuple[Callable[[Any, Any], None], Callable[[Any, Any], Any]]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        verifiers: dict[str, Callable[[Any, Any], None]] = {}
        appliers: dict[str, Callable[[Any, Any], Iterable[Event]]] = {}
        for klass in reversed(cls.__mro__):
            for name, fn in vars(klass).items():
                if name.startswith("verify_") and name != "verify_any" and callable(fn):
                    verifiers[name[len("verify_") :].replace("_", "-")] = fn
                elif name.startswith("apply_") and callable(fn):
                    appliers[name[len("apply_") :].replace("_", "-")] = fn
        cls._dispatch = {k: (verifiers[k], appliers[k]) for k in verifiers if k in appliers}

    def __init__(
        self,
        variant: Variant[R],
        seats: int,
        *,
        phase: StrEnum,
        wording: Wording = Wording.LIMIT,
    ) -> None:
        self.variant = variant
        self.rules: R = variant.rules
        self.seats = seats
        self.phase: StrEnum = phase
        self.book = BetBook(variant.limits, wording)
        self._settlements: list[BetSettled] = []

    # --- state ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once every bet is settled and the round has ended."""
        return self.phase == self.OVER

    @property
    def bets(self) -> dict[int, dict[str, int]]:
        """A copy of the bets on the table, by seat (empty seats included)."""
        return self.book.by_seat(self.seats)

    @property
    def settlements(self) -> tuple[BetSettled, ...]:
        """Every bet settled so far, in order."""
        return tuple(self._settlements)

    def seat_of(self, action: Action) -> int:
        """The action's seat, or :class:`IllegalAction` if it names no seat here."""
        return seat_of(action, self.seats)

    def check_dealt_card(self, action: DealCard, joker: str) -> None:
        """The checks a dealt card passes at a table dealt from one jokerless source: it
        comes from the card source (no seat), the round wants a card now, and it is no
        joker (``joker`` is the family's refusal)."""
        if action.seat is not None:
            raise IllegalAction("cards come from the card source, not from a seat")
        if self.needs() is None:
            raise IllegalAction("no card is wanted now")
        if action.card.is_joker:
            raise IllegalAction(joker)

    # --- verify / can / apply -----------------------------------------------------------

    def verify_any(self, action: Action) -> None:
        """Checks every action passes before its own (a round that is over, say)."""

    def unknown_action_text(self, action: Action) -> str:
        """The refusal of an action kind this family does not take."""
        return f"{self.GAME} has no action {action.kind!r}"

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` (``BetRefused`` for bets) with the reason; no change."""
        self.verify_any(action)
        pair = self._dispatch.get(action.kind)
        if pair is None:
            raise IllegalAction(self.unknown_action_text(action))
        pair[0](self, action)

    def can(self, action: Action) -> bool:
        """True if :meth:`verify` accepts the action (nothing changes either way)."""
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Verify, then apply: the only mutator. Returns the events that happened."""
        self.verify(action)
        return tuple(self._dispatch[action.kind][1](self, action))

    # --- settling -----------------------------------------------------------------------

    def settle(
        self,
        seat: int,
        bet: str,
        returned: int,
        note: str = "",
        *,
        commission: int = 0,
        result: str | None = None,
    ) -> BetSettled:
        """Record the seat's ``bet`` as settled for ``returned`` cents (before commission).

        ``result`` defaults to win / push / lose by ``returned`` against the stake.
        """
        stake = self.book.stake(seat, bet)
        if result is None:
            result = "win" if returned > stake else "push" if returned == stake else "lose"
        s = BetSettled(
            seat=seat,
            bet=bet,
            stake=stake,
            returned=returned,
            commission=commission,
            result=result,
            note=note,
        )
        self._settlements.append(s)
        return s

    # --- an absent seat -------------------------------------------------------------------

    def default_action(self, seat: int) -> Action | None:
        """What the rules do for a seat that does not act (absent, or its clock ran out).

        The first of :attr:`PASSIVE` open to the seat now, as a ``Decide``; None if the
        seat has no decision open (or none of them is passive).
        """
        legal = self.legal_actions(seat)
        for decision in self.PASSIVE:
            if decision in legal:
                return Decide(seat=seat, decision=decision)
        return None

    def awaiting(self) -> frozenset[int]:
        """Seats the round cannot go on without (their decision is the only way forward).

        The runtime gives such a seat, when nobody sits in it, its
        :meth:`default_action` (the pai gow bank offered to an empty chair passes on).
        Most rounds await nobody: they go on when the seated players act.
        """
        return frozenset()

    # --- what every family writes ---------------------------------------------------------

    @abstractmethod
    def needs(self) -> Need | None:
        """What the source must supply next, or None if players (or nobody) act."""

    @abstractmethod
    def legal_actions(self, seat: int) -> frozenset[str]:
        """Names of what ``seat`` may do now."""

    @abstractmethod
    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see now (None: the public view); the family's TypedDict."""


__all__ = ["Deal", "Phase", "Round"]
