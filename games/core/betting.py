"""Chips on the table: the stakes per (seat, bet) and the checks every family shared.

Each table family used to keep its own dict of stakes and its own copy of the
place/remove checks against the variant's :class:`~games.core.engine.BetLimit`.
:class:`BetBook` is that one piece: it holds the stakes in the order they were
first placed, refuses a :class:`~games.core.records.PlaceBet` or
:class:`~games.core.records.RemoveBet` that breaks the limits (raising
:class:`~games.core.errors.BetRefused`, changing nothing) and turns an allowed
one into its ``BetPlaced`` / ``BetReturned`` event. Family-specific rules (a
rider needing an ante, the banking seat, the craps point) stay in the family.

Two wordings exist because players and tests already read them (:class:`Wording`).

>>> from games.core.engine import BetLimit
>>> book = BetBook({"main": BetLimit(minimum=500, maximum=10_000)})
>>> book.place(0, "main", 1000)
BetPlaced(seat=0, bet='main', amount=1000)
>>> book.check_place(0, "main", 9500)
Traceback (most recent call last):
...
games.core.errors.BetRefused: main bet of $105.00 refused: the maximum bet is $100.00
>>> book.remove(0, "main", 0), book.of(0)
(BetReturned(seat=0, bet='main', amount=1000), {})
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Protocol

from games.core.engine import BetLimit
from games.core.errors import BetRefused, IllegalAction
from games.core.money import format_cents
from games.core.records import Action, BetPlaced, BetReturned, Event, PlaceBet, RemoveBet


class Wording(StrEnum):
    """How a table words a refused bet.

    ``LIMIT`` (baccarat, war, three card): the total is checked with
    :meth:`BetLimit.check` -- "main bet of $5.00 refused: minimum bet is 500 cents";
    removal amounts in cents. ``SPOT`` (roulette, sic bo): whole cents only,
    increments on the chips added -- "red minimum is $1.00", "$500.00 maximum on red";
    amounts in dollars.
    """

    LIMIT = "limit"
    SPOT = "spot"


class BetBook:
    """The stakes on the table by (seat, bet name), in the order first placed."""

    def __init__(self, limits: Mapping[str, BetLimit], wording: Wording = Wording.LIMIT) -> None:
        self.limits = limits
        self.wording = Wording(wording)
        self._stakes: dict[tuple[int, str], int] = {}

    # --- reading ------------------------------------------------------------------

    def stake(self, seat: int, bet: str) -> int:
        """The seat's stake on ``bet`` (0 if none)."""
        return self._stakes.get((seat, bet), 0)

    def __contains__(self, key: object) -> bool:
        return key in self._stakes

    def __bool__(self) -> bool:
        return bool(self._stakes)

    def __eq__(self, other: object) -> bool:
        """Books are equal when they hold the same stakes under the same limits and wording
        (a round compared with a copy of itself, as the refusal properties do)."""
        if not isinstance(other, BetBook):
            return NotImplemented
        return (self._stakes, self.wording, self.limits) == (
            other._stakes,
            other.wording,
            other.limits,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: never a dict key

    def of(self, seat: int) -> dict[str, int]:
        """A copy of the seat's bets, bet -> stake, in the order placed."""
        return {bet: v for (s, bet), v in self._stakes.items() if s == seat}

    def has(self, seat: int) -> bool:
        """True if the seat has any chips on the table."""
        return any(s == seat for s, _bet in self._stakes)

    def by_seat(self, seats: int) -> dict[int, dict[str, int]]:
        """Copies of every seat's bets, seats 0..``seats``-1, empty seats included."""
        return {s: self.of(s) for s in range(seats)}

    def items(self) -> Iterator[tuple[int, str, int]]:
        """``(seat, bet, stake)`` for every bet, in the order placed."""
        for (seat, bet), stake in self._stakes.items():
            yield seat, bet, stake

    def total(self) -> int:
        """Cents on the table."""
        return sum(self._stakes.values())

    def betting_actions(self, seat: int, start: str) -> frozenset[str]:
        """What a seat may do while bets are open.

        ``place-bet`` always, ``remove-bet`` once it has a bet, and ``start`` (the
        table's go button: ``"deal"``, ``"spin"``, ``"roll"``) once any seat has one.
        """
        out = {"place-bet"}
        if self.has(seat):
            out.add("remove-bet")
        if self._stakes:
            out.add(start)
        return frozenset(out)

    # --- checks -------------------------------------------------------------------

    def check_amount(self, amount: int) -> None:
        """Refuse an amount that is not a positive bet (before any family rule)."""
        if self.wording is Wording.SPOT:
            if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
                raise BetRefused("a bet must be a positive whole number of cents")
        elif amount <= 0:
            raise BetRefused("a bet must be a positive amount")

    def check_place(self, seat: int, bet: str, amount: int) -> None:
        """Refuse adding ``amount`` to the seat's ``bet`` if it breaks the bet's limits."""
        self.check_amount(amount)
        limit = self.limits[bet]
        total = self.stake(seat, bet) + amount
        if self.wording is Wording.LIMIT:
            reason = limit.check(total)
            if reason is not None:
                raise BetRefused(f"{bet} bet of {format_cents(total)} refused: {reason}")
            return
        refused = f"{bet} bet of {format_cents(total)} refused"
        if amount % limit.increment:
            raise BetRefused(f"{refused}: {limit.off_step()}")
        if total < limit.minimum:
            raise BetRefused(f"{refused}: {limit.too_small()}")
        if total > limit.maximum:
            raise BetRefused(f"{refused}: {limit.too_large()}")

    def check_remove(self, seat: int, bet: str, amount: int) -> None:
        """Refuse taking ``amount`` (0: all) off the seat's ``bet`` if that is not allowed.

        What stays must still meet the bet's limits.
        """
        if self.wording is Wording.LIMIT:
            self._check_remove_limit(seat, bet, amount)
        else:
            self._check_remove_spot(seat, bet, amount)

    def _check_remove_limit(self, seat: int, bet: str, amount: int) -> None:
        if (seat, bet) not in self._stakes:
            raise BetRefused(f"seat {seat} has no {bet!r} bet to remove")
        current = self._stakes[(seat, bet)]
        if amount < 0 or amount > current:
            raise BetRefused(
                f"cannot remove {format_cents(amount)} from a bet of {format_cents(current)}"
            )
        left = current - (amount or current)
        reason = self.limits[bet].check(left) if left else None
        if reason is not None:
            raise BetRefused(f"{bet} bet would be left at {format_cents(left)}: {reason}")

    def _check_remove_spot(self, seat: int, bet: str, amount: int) -> None:
        current = self.stake(seat, bet)
        if not current:
            raise BetRefused(f"no {bet} bet to remove")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise BetRefused("the amount to remove must be 0 (all) or a positive number of cents")
        if amount > current:
            raise BetRefused(f"cannot remove {format_cents(amount)} from {format_cents(current)}")
        limit = self.limits[bet]
        if 0 < amount < current and (amount % limit.increment or current - amount < limit.minimum):
            raise BetRefused(
                f"{bet} may be reduced in steps of {format_cents(limit.increment)} "
                f"down to the {format_cents(limit.minimum)} minimum"
            )

    # --- moving chips -------------------------------------------------------------

    def place(self, seat: int, bet: str, amount: int) -> BetPlaced:
        """Check, then add ``amount`` to the seat's ``bet``."""
        self.check_place(seat, bet, amount)
        return self.add_by_rule(seat, bet, amount)

    def add_by_rule(self, seat: int, bet: str, amount: int) -> BetPlaced:
        """Add a bet the rules place themselves (war's raise, three card's play).

        Table limits do not apply: the rules fix the amount (equal to the ante, say).
        """
        self._stakes[(seat, bet)] = self._stakes.get((seat, bet), 0) + amount
        return BetPlaced(seat=seat, bet=bet, amount=amount)

    def return_by_rule(self, seat: int, bet: str) -> BetReturned:
        """Give the seat's whole ``bet`` back because the rules say so (a wager the
        player/dealer's bank does not cover): no limit applies."""
        return BetReturned(seat=seat, bet=bet, amount=self._stakes.pop((seat, bet)))

    def remove(self, seat: int, bet: str, amount: int) -> BetReturned:
        """Check, then take ``amount`` (0: all of it) off the seat's ``bet``."""
        self.check_remove(seat, bet, amount)
        current = self._stakes[(seat, bet)]
        take = amount or current
        if take == current:
            del self._stakes[(seat, bet)]
        else:
            self._stakes[(seat, bet)] = current - take
        return BetReturned(seat=seat, bet=bet, amount=take)

    def clear(self) -> None:
        """Take every stake off the book (after settlement)."""
        self._stakes.clear()


def seat_of(action: Action, seats: int) -> int:
    """The action's seat, or :class:`IllegalAction` if it names none of ``seats`` seats.

    >>> from games.core.records import Deal
    >>> seat_of(Deal(seat=1), 2)
    1
    >>> seat_of(Deal(seat=2), 2)
    Traceback (most recent call last):
    ...
    games.core.errors.IllegalAction: no seat 2 at this table (2 seats)
    """
    seat = action.seat
    if seat is None or not 0 <= seat < seats:
        raise IllegalAction(f"no seat {seat!r} at this table ({seats} seats)")
    return seat


class _Booked(Protocol):
    book: BetBook

    def seat_of(self, action: Action) -> int: ...


class BookBets:
    """Mixin for a :class:`~games.core.round.Round` whose bets go on its book as they come.

    Gives ``apply_place_bet`` (place what ``verify_place_bet``, the family's own rules,
    allowed), and ``verify_remove_bet`` / ``apply_remove_bet`` by the book's rules alone.
    """

    def apply_place_bet(self: _Booked, action: PlaceBet) -> tuple[Event, ...]:
        return (self.book.place(self.seat_of(action), action.bet, action.amount),)

    def verify_remove_bet(self: _Booked, action: RemoveBet) -> None:
        self.book.check_remove(self.seat_of(action), action.bet, action.amount)

    def apply_remove_bet(self: _Booked, action: RemoveBet) -> tuple[Event, ...]:
        return (self.book.remove(self.seat_of(action), action.bet, action.amount),)


__all__ = ["BetBook", "BookBets", "Wording", "seat_of"]
