"""What some engines can do beyond :class:`~games.core.engine.Engine`, as checkable protocols.

The runtime and the web edge ask ``isinstance(engine, Spots)`` instead of probing
attributes with ``getattr``: a capability is a named, typed promise.

* :class:`CarriesOver`: the finished round hands state to the table's next one (the
  pai gow bank rotation, a seat's always-contribute button); ``carry()`` is logged in
  the next game's start record.
* :class:`Spots`: which bet names a seat may place or take down now (roulette, sic bo,
  craps: layouts with many spots).
* :class:`SeatDefaults`: what the rules do for a seat that does not act, and which
  seats the round cannot go on without (every :class:`~games.core.round.Round` has it).
* :class:`KnowsPlayers`: a round whose rules depend on which seats one player holds
  (Fortune Pai Gow: a player's seats after the first play the house way); the runtime
  logs the engine's own record of it before the deal, so a replay knows it too.
* :class:`StandingOrders`: a round that holds a seat's standing orders, which are its
  player's and no stake (Caribbean Stud's jackpot chip queue and always-contribute
  button, craps' come-out options, the pai gow bank rotation's place, baccarat's Player
  as Dealer and position): when the player leaves the seat before the game is over, the
  runtime applies the actions that take them back (logged), so the seat's next player
  in that game inherits none (the next game drops what the carry holds for the seat:
  ``GameContext.new_players``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from games.core.records import Action


@runtime_checkable
class Carry(Protocol):
    """What a finished round hands on: JSON-able through ``encode()``."""

    def encode(self) -> Mapping[str, Any]: ...


@runtime_checkable
class CarriesOver(Protocol):
    """An engine whose finished round hands state to the next one."""

    def carry(self) -> Carry | None: ...


@runtime_checkable
class Spots(Protocol):
    """An engine with a layout of named spots a seat bets on."""

    def placeable(self, seat: int) -> Iterable[str]: ...

    def removable(self, seat: int) -> Iterable[str]: ...


@runtime_checkable
class SeatDefaults(Protocol):
    """An engine that says what an absent seat gets and whom it waits on."""

    def default_action(self, seat: int) -> Action | None: ...

    def awaiting(self) -> frozenset[int]: ...


@runtime_checkable
class KnowsPlayers(Protocol):
    """An engine that is told, before the deal, which seats one player holds."""

    def players_actions(self, groups: Iterable[tuple[int, ...]]) -> tuple[Action, ...]:
        """The actions that record ``groups`` (each a player's seats), none when the
        rules need nothing (no player holds two seats, or the table ignores it)."""
        ...


@runtime_checkable
class StandingOrders(Protocol):
    """An engine that keeps standing orders per seat (no stake: no money moves)."""

    def withdraw_orders(self, seat: int) -> tuple[Action, ...]:
        """The actions that take back ``seat``'s standing orders now (its player left),
        none when it has none or they can no longer change."""
        ...


__all__ = ["CarriesOver", "Carry", "KnowsPlayers", "SeatDefaults", "Spots", "StandingOrders"]
