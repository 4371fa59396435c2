"""Player banking at the land-casino table (page 002, "The Bank"): the rotation as data.

The page's rule, clause by clause, and where each lives:

* "For the first hand dealt, only the dealer may be the Banker": a game started
  with no carry (a new table, or after a restart) has an empty rotation, so the
  dealer banks.
* "Each player who took part in the game when the dealer last held the bank is
  then, in turn, given the option of being the Banker": every game the dealer
  banks refills :attr:`BankCarry.queue` with the seats dealt in that game, in seat
  order; each following game offers the bank to the head of the queue, and a seat
  that declines passes the offer to the next one in the same game. When the queue
  is empty the dealer banks again (and the queue refills).
* "To be the Banker, the player must have enough chips to be able to pay all
  wagers at the table during this game, otherwise the dealer holds the bank during
  this game": the seat declares a bank (cents, posted as the ``bank`` bet, which the
  runtime debits from its wallet); a bank below the house's wager cannot pay it and
  the dealer banks; later wagers that the bank could not pay are refused.
* "The house places a wager against the Player/Banker in an amount equal to the
  Player/Banker's last wager against the house ... or a lesser wager or no wager":
  :attr:`BankCarry.house_wagers` keeps each seat's last main bet in a game the
  dealer banked; the bank decision may name a smaller amount.
* "A player may not act as the Banker for two consecutive hands":
  :attr:`BankCarry.last_banker` is never offered the bank.

The carry is plain JSON (:meth:`BankCarry.encode`) so the runtime can log it in the
game-start record and the replayer can rebuild the same game from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from games.core.errors import IllegalAction
from games.core.money import format_cents

BANK_BET = "bank"


@dataclass(frozen=True, slots=True, kw_only=True)
class BankCarry:
    """What one game of a player-banked table hands to the next."""

    queue: tuple[int, ...] = ()  # seats still to be offered the bank, in turn
    last_banker: int | None = None  # the seat that banked the game just played
    house_wagers: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))

    def encode(self) -> dict[str, Any]:
        """JSON-able form (integers and lists only; seat keys as text)."""
        return {
            "queue": list(self.queue),
            "last_banker": self.last_banker,
            "house_wagers": {str(s): v for s, v in sorted(self.house_wagers.items())},
        }

    def without(self, seats: frozenset[int]) -> BankCarry:
        """The carry with nothing of ``seats``' last players (seats that changed player):
        every part is a player's by the page ("each player who took part" is queued, "a
        player may not act as the Banker for two consecutive hands", the house matches
        "the Player/Banker's last wager"), so a new player there starts outside the queue,
        may bank, and has no last wager."""
        return BankCarry(
            queue=tuple(s for s in self.queue if s not in seats),
            last_banker=None if self.last_banker in seats else self.last_banker,
            house_wagers=MappingProxyType(
                {s: v for s, v in self.house_wagers.items() if s not in seats}
            ),
        )

    @classmethod
    def decode(cls, data: Mapping[str, Any], seats: int) -> BankCarry:
        """Rebuild from :meth:`encode` output; ValueError naming the bad field."""
        unknown = set(data) - {"queue", "last_banker", "house_wagers"}
        if unknown:
            raise ValueError(f"pai gow carry: unknown fields {sorted(unknown)}")
        queue = data.get("queue", [])
        if not isinstance(queue, list | tuple) or not all(_is_seat(s, seats) for s in queue):
            raise ValueError(f"pai gow carry: queue must list seats 0..{seats - 1}")
        if len(set(queue)) != len(queue):
            raise ValueError("pai gow carry: a seat is queued for the bank twice")
        last = data.get("last_banker")
        if last is not None and not _is_seat(last, seats):
            raise ValueError(f"pai gow carry: last_banker must be a seat 0..{seats - 1} or null")
        raw = data.get("house_wagers", {})
        if not isinstance(raw, Mapping):
            raise ValueError("pai gow carry: house_wagers must map seats to cents")
        wagers: dict[int, int] = {}
        for key, cents in raw.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else key
            if not _is_seat(seat, seats) or not _is_cents(cents):
                raise ValueError(f"pai gow carry: house_wagers[{key!r}] = {cents!r} is not valid")
            wagers[seat] = cents
        return cls(queue=tuple(queue), last_banker=last, house_wagers=MappingProxyType(wagers))


def _is_seat(value: object, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats


def _is_cents(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def parse_bank_arg(arg: str, last_wager: int) -> tuple[int, int]:
    """``"50000"`` or ``"50000 2500"`` -> (bank, house wager), in cents.

    The house wager defaults to ``last_wager`` (the seat's last wager against the
    house) and may be any smaller amount down to 0, never more (page 002).

    >>> parse_bank_arg("50000", 1000)
    (50000, 1000)
    >>> parse_bank_arg("50000 0", 1000)
    (50000, 0)
    >>> parse_bank_arg("50000 2000", 1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    games.core.errors.IllegalAction: the house wagers at most $10.00 against this bank ...
    """
    parts = arg.split()
    if not 1 <= len(parts) <= 2 or not all(p.isdigit() for p in parts):
        raise IllegalAction(
            "bank takes the bank in cents and optionally the house's wager in cents, "
            f"like '50000' or '50000 500', got {arg!r}"
        )
    bank = int(parts[0])
    house = int(parts[1]) if len(parts) == 2 else last_wager
    if bank <= 0:
        raise IllegalAction("the bank must be a positive amount")
    if house > last_wager:
        raise IllegalAction(
            f"the house wagers at most {format_cents(last_wager)} against this bank "
            f"(your last wager against the house); ask for {format_cents(last_wager)} or less"
        )
    return bank, house


__all__ = ["BANK_BET", "BankCarry", "parse_bank_arg"]
