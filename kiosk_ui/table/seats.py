"""Seat rules: how many seats a player may hold, when a seat is freed, and what the
action clock does when a seated player does not act.

Nobody may block the floor (issue 12, C11):

- a table whose variant has one seat and whose outcomes come from the RNG is a
  per-player game (:attr:`kiosk_ui.table.seating.Seating.per_player`): every player
  who opens it plays a game of their own, so nobody waits on anybody;
- on a shared table a seat is taken by an explicit sit or by a placed bet (a
  refused bet seats nobody) and freed by leaving, by the idle timeout or by the
  operator; a player holds at most ``per_table`` seats at one table and ``floor``
  seats in all;
- every decision a shared game waits on has an action clock: when it runs out the
  rules' default (:func:`default_action`) is applied as a logged action from the
  source ``timeout`` (so replay reproduces it) and the seat sits out: its later
  decisions get the default at once, until its player acts again.

A seat whose stakes are on the layout of the open game is never freed mid-game (its
bets settle to its player): leaving or an operator's free takes effect when that
game ends, and the seat sits out meanwhile.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from games.core.engine import Engine
from games.core.records import Action, Deal, Decide
from kiosk_ui.table.player_deal import DEAL_CARD


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRules:
    """The seat settings (``[seats]`` in the config; see kiosk_ui.settings)."""

    per_table: int = 2  # seats one player may hold at one shared table
    floor: int = 4  # seats one player may hold at all shared tables together
    idle_seconds: float = 300.0  # a seat with nothing on the layout is freed after this
    action_seconds: float = 30.0  # the clock on every decision a shared game waits on
    hand_pause: float = 3.0  # a poker room's pause before it deals the next hand

    @classmethod
    def lab(cls) -> SeatRules:
        """A bare runtime's rules (``croupier table autoplay``, the lab's soak tests): one
        scripted player may fill every seat. The appliance applies ``[seats]``."""
        return cls(per_table=16, floor=1_000_000)

    @property
    def tick(self) -> float:
        """How often the clock looks at the tables (a fraction of its shortest period)."""
        return max(0.02, min(1.0, self.action_seconds / 4, self.idle_seconds / 4))


def default_action(engine: Engine, seat: int, *, deals: bool) -> Action | None:
    """The rules' default for the decision ``seat`` has to make now, if the game waits on it.

    The decision is the engine's own (:meth:`~games.core.capabilities.SeatDefaults.
    default_action`: the one that puts no more money on the layout and asks nothing of
    the player, as a dealer does for an absent player). ``deals``: the seat has stakes in
    the open game, whose bets are closed by a deal (the dealer's "no more bets" when
    nobody deals). Betting itself never times out.
    """
    if engine.is_over:
        return None
    if engine.needs() is not None:  # a card to come: the seat's own, if it deals (page 000)
        dealing = DEAL_CARD in engine.legal_actions(seat)
        return Decide(seat=seat, decision=DEAL_CARD) if dealing else None
    decided = _passive(engine, seat)
    if decided is not None:
        return decided
    if deals and "deal" in engine.legal_actions(seat):
        return Deal(seat=seat)
    return None


def unattended(engine: Engine, seated: Container[int]) -> Action | None:
    """The default of the first seat nobody sits in that the game cannot go on without
    (:meth:`~games.core.capabilities.SeatDefaults.awaiting`), or None: the runtime
    applies it for the empty chair, as a logged action, so the table never waits on
    nobody."""
    if engine.is_over:
        return None
    for seat in sorted(_awaiting(engine)):
        if seat not in seated:
            return _passive(engine, seat)
    return None


def _passive(engine: Engine, seat: int) -> Action | None:
    """The engine's default for the seat (part of the engine contract: every Round has it;
    no runtime-checkable isinstance here, which costs microseconds on every action)."""
    return engine.default_action(seat)


def _awaiting(engine: Engine) -> frozenset[int]:
    return engine.awaiting()
