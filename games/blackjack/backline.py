"""Backline bets at the blackjack table: players who hold no seat bet on a seated hand.

Page 004, 21st Century Blackjack, Game Rules: "7. Multiple Players may bet on the same hand."
"8. The seated Player will make the final decision on the hand." The table's data says how
many may (``backline_per_seat`` in ``[rules]``; 0: none, every other table).

The seat model (:mod:`games.core.backline`): ``Round.seats`` stays the seats that hold
hands; each seat ``s`` of an ``n``-seat table has ``per_seat`` backline positions numbered
``n + s * per_seat + k`` (``k`` from 0). A backline bet is the position's ``main`` bet, so its
chips move through the same events, and the runtime's position -> player map names its wallet
the way it names a seat's. The reading, written into the table's notes:

* a backline bet is a bet on the seated hand (``main`` only, within the table's ``main``
  limits); it is placed and taken down while bets are open, like any bet;
* the seated player makes every decision; the backline bet follows the seat's first hand
  (hand 0) at its own stake: it is not doubled when the seat doubles, and stays on the first
  hand when the seat splits (no chips are ever added for a backliner who was not asked); a
  natural pays the table's natural odds, a surrender returns half of it;
* insurance and the Buster Bet are the seat's own: no backline bet on them;
* a backline bet behind a seat that has no bet on the hand when the cards are dealt is
  returned at the deal (there is no hand to follow).

>>> book = Backline(seats=2, per_seat=3)
>>> list(book.positions(1)), book.seat(6), book.seat(1)
([5, 6, 7], 1, None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypedDict

from games.blackjack.settlement import Payout, surrender
from games.core.betting import BetBook
from games.core.errors import BetRefused
from games.core.money import Cents, Ratio, pay
from games.core.records import Action, BetSettled, Event, Message

#: the page lines the reading rests on (quoted in refusals and in the table's notes)
MANY_ON_ONE = "Multiple Players may bet on the same hand"
SEATED_DECIDES = "The seated Player will make the final decision on the hand"
#: what a backline position may do: move its own chips while bets are open
POSITION_KINDS = frozenset({"place-bet", "remove-bet"})


class BacklineView(TypedDict):
    """One backline bet on show: its position, the seat it backs, its stake and result."""

    position: int
    seat: int
    stake: int
    result: str


@dataclass(frozen=True, slots=True)
class Backline:
    """The backline positions of a ``seats``-seat table with ``per_seat`` per seat (the
    chips are on the round's book; this is only where they sit and how they settle)."""

    seats: int
    per_seat: int

    def positions(self, seat: int) -> range:
        """Seat ``seat``'s backline positions (empty if the table takes none)."""
        start = self.seats + seat * self.per_seat
        return range(start, start + self.per_seat)

    def all(self) -> range:
        """Every backline position of the table."""
        return range(self.seats, self.seats * (1 + self.per_seat))

    def seat(self, position: int | None) -> int | None:
        """The seat whose hand ``position`` backs; None if it is no backline position."""
        if position is None or position not in self.all():
            return None
        return (position - self.seats) // self.per_seat

    def legal(self, book: BetBook, position: int, *, betting: bool) -> frozenset[str]:
        """What a backline position may do: place, and take down what it placed, while
        bets are open; nothing once the cards are out (the seated player decides)."""
        if not betting:
            return frozenset()
        return frozenset({"place-bet", "remove-bet"} if book.has(position) else {"place-bet"})

    def refusal(self, action: Action) -> str | None:
        """Why a backline position may not take ``action`` (None: it may, or it is a seat)."""
        if self.seat(action.seat) is None:
            return None
        if action.kind not in POSITION_KINDS:
            return f"a backline bet makes no decision: {SEATED_DECIDES.lower()} (page 004)"
        if getattr(action, "bet", "main") != "main":
            return "a backline bet is a bet on the seated hand (main), not on the seat's side bets"
        return None

    def check_refusal(self, seat: int, bet: str) -> None:
        """Refuse naming positions for ``bet`` behind ``seat`` (the runtime's question)."""
        if not self.per_seat:
            raise BetRefused(
                "this table takes no backline bets (page 004 allows them on 21st Century "
                f"Blackjack only: '{MANY_ON_ONE}')"
            )
        if not 0 <= seat < self.seats:
            raise BetRefused(f"no seat {seat} to bet behind (seats 0..{self.seats - 1})")
        if bet != "main":
            raise BetRefused("a backline bet is a bet on the seated hand (main) only")

    def at_deal(self, book: BetBook, playing: Iterable[int]) -> list[Event]:
        """Return the backline bets behind seats that play no hand (nothing to follow)."""
        live = set(playing)
        ev: list[Event] = []
        for position in self.all():
            seat = self.seat(position)
            if book.stake(position, "main") and seat not in live:
                ev.append(book.remove(position, "main", 0))
                text = f"backline bet {position} returned: seat {seat} has no hand"
                ev.append(Message(text=text))
        return ev

    def follow(
        self,
        book: BetBook,
        seat: int,
        payout: Payout,
        shown: str,
        natural_pays: Ratio,
        settle: Callable[[int, str, int, str, str], BetSettled],
    ) -> list[Event]:
        """Settle the backline bets behind ``seat`` as its first hand was just settled:
        ``payout`` and ``shown`` are that hand's (see the module for the reading)."""
        ev: list[Event] = []
        for position in self.positions(seat):
            stake = book.stake(position, "main")
            if stake:
                own = _follow(stake, payout, shown, natural_pays)
                note = f"backline on seat {seat}: {own.note}"
                ev.append(settle(position, "main", own.returned, note, own.result))
        return ev

    def view(self, book: BetBook, results: dict[int, str]) -> list[BacklineView]:
        """The backline bets on the table (placed, or settled with ``results``)."""
        out: list[BacklineView] = []
        for position in self.all():
            stake = book.stake(position, "main")
            seat = self.seat(position)
            if stake and seat is not None:
                out.append(
                    {
                        "position": position,
                        "seat": seat,
                        "stake": stake,
                        "result": results.get(position, ""),
                    }
                )
        return out


def _follow(stake: int, payout: Payout, shown: str, natural_pays: Ratio) -> Payout:
    """The backline stake's payout when the hand it backs was settled with ``payout``."""
    if shown == "surrender":
        return surrender(stake)
    if shown == "blackjack":
        return Payout(stake + pay(Cents(stake), natural_pays), "win", payout.note)
    if payout.result == "win":
        return Payout(2 * stake, "win", payout.note)
    if payout.result == "push":
        return Payout(stake, "push", payout.note)
    return Payout(0, "lose", payout.note)


__all__ = ["MANY_ON_ONE", "SEATED_DECIDES", "Backline", "BacklineView"]
