"""Backline bets: a player who holds no seat bets on a seated player's hand (page 004).

21st Century Blackjack (page 004, Game Rules 7 and 8): "Multiple Players may bet on the same
hand." / "The seated Player will make the final decision on the hand." A round that takes
such bets gives each seat a few *backline positions*: seat numbers past the table's seats
(``Round.seats`` stays the seats that hold hands), each riding on one seat's hand. A backline
bet is an ordinary bet of its position, so its chips move through the same ``BetPlaced`` /
``BetSettled`` events as any seat's and the runtime names its wallet the same way (position ->
player). A position makes no decision and deals nothing: the seated player decides.

The runtime asks :func:`backline_positions` which positions may back a seat's bet; a game that
takes no backline bet refuses in its own words (Three Card Poker quotes its page's "Backline
betting may not be permitted on the 6 Card Bonus wager").

>>> backline_positions(object(), 0, "main")
Traceback (most recent call last):
...
games.core.errors.BetRefused: this game takes no backline bets
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from games.core.errors import BetRefused


@runtime_checkable
class BacklineBets(Protocol):
    """A round that answers backline bets (it may still refuse them, in its own words)."""

    def backline_positions(self, seat: int, bet: str) -> range:
        """The positions that may put ``bet`` behind ``seat``'s hand, in order; raise
        :class:`BetRefused` with the rule's words when none may."""
        ...

    def backed_seat(self, position: int) -> int | None:
        """The seat whose hand ``position`` bets on (None: not a backline position)."""
        ...


def backline_positions(engine: object, seat: int, bet: str) -> range:
    """The positions that may back ``seat``'s ``bet`` at ``engine``'s table (see the module)."""
    if not isinstance(engine, BacklineBets):
        raise BetRefused("this game takes no backline bets")
    return engine.backline_positions(seat, bet)


def backed_seat(engine: object, position: int) -> int | None:
    """The seat ``position`` backs at ``engine``'s table, or None (not a backline position)."""
    return engine.backed_seat(position) if isinstance(engine, BacklineBets) else None


__all__ = ["BacklineBets", "backed_seat", "backline_positions"]
