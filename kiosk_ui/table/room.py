"""A poker room table: players play each other for the chips in front of them (issue 15).

A :class:`Room` is a :class:`~kiosk_ui.table.table.Table` whose money is the players'
against each other (:mod:`kiosk_ui.table.room_money`): a player buys in from the wallet
(between the variant's minimum and maximum buy-in) and their chips at the table are
their *stack* (a ledger account); every bet moves chips from the stack to the table's
*pot* account, every pot won back to a stack, the collection to ``revenue``; leaving
returns the whole stack to the wallet. The house never wins or loses a hand.

Hands start by themselves (the dealer deals): once the last one is over and at least two
seated players with chips are not sitting out, the next hand starts after a short pause
(:meth:`Room.hand_due`, ticked by :class:`kiosk_ui.table.clock.SeatClock`). At the start
of a hand the runtime tells the engine each player's stack and who is dealt in, as
logged runtime actions (so a replay is dealt the same hand), then the source deals.
Every decision is the engine's; the action clock gives a player who does not act the
rules' default (check if possible, else fold) and the seat then sits out of the next
hands until its player returns. A player who leaves during a hand is folded by the clock
at once; the seat, and the stack, are freed when the hand ends.

A restart ends the table session: once the runtime has recovered the room's open hand
(resumed from the log, or voided with every committed chip back to its stack),
:meth:`Room.return_stacks` returns every stack at the table to its player's wallet, as
leaving does (a ``stack-out`` record and its ledger rows in one unit), so no chip is
left at a table where no seat holds it. A seat dealt into the hand the restart resumed
keeps its stack for that hand (its chips are in play and its decisions are its
player's, or the clock's) and is freed, stack home, when the hand ends, unless its
player comes back to it first (acts, or buys in with 0). Stacks go home once: a
stack-out empties the stack, so a second restart or a re-sit finds nothing to return.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from games.core.engine import Engine
from games.core.records import Event
from kiosk_ui.errors import SeatError, TableError, TableSuspended
from kiosk_ui.store import ledger
from kiosk_ui.store.protocol import Tx
from kiosk_ui.table.answers import ActResult
from kiosk_ui.table.money import RowKeys, post_entries
from kiosk_ui.table.room_engine import (
    big_blind_seat,
    buy_in_limits,
    dealt_in,
    hand_start_actions,
)
from kiosk_ui.table.room_money import (
    BUY_IN,
    ROOM_EVENTS,
    STACK_OUT,
    buy_in_entry,
    post_room_event,
    stack_out_entry,
)
from kiosk_ui.table.table import Table


class Room(Table):
    """A poker room table (player against player): stacks, pot, revenue, hands that
    start themselves."""

    money_events = ROOM_EVENTS  # the room's money rules, not the house's
    room = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ended_at = 0.0  # when the table was first seen ready to deal (the pause's start)
        self.hand_pause = self.rt.seat_rules.hand_pause  # the dealer's pace ([seats])
        self.resting: set[int] = set()  # seats sitting out by their players' choice
        self._missed: set[int] = set()  # seats the big blind passed while they sat out
        self._last_bb: int | None = None  # the last hand's big blind
        # seats kept only for the hand a restart resumed (return_stacks): freed, their
        # stacks home, when it ends, unless their players come back to them first
        self._held: set[int] = set()
        # this table session's first hand (the hand history export: one file a session)
        self.first_game = self.rt.games_started(self.id) + 1

    # --- chips ---------------------------------------------------------------

    def stack(self, player: str) -> int:
        """``player``'s chips at this table (cents)."""
        with self.rt.db.read() as tx:
            return tx.ledger.balance(ledger.stack(self.id, player))

    def stacks(self) -> dict[int, int]:
        """Each seated player's stack, by seat."""
        with self.rt.db.read() as tx:
            return {
                s: tx.ledger.balance(ledger.stack(self.id, p))
                for s, p in sorted(self.seats.items())
            }

    def buy_in(self, seat: int, player: str, amount: int) -> int:
        """Sit ``player`` at ``seat`` (if not yet) and move ``amount`` from the wallet to
        the stack. The stack after it must lie within the variant's buy-in (an add-on
        may top it up to the maximum); chips are added between hands only. Returns the
        new stack. A refused buy-in changes nothing (a seat it took is freed).

        ``amount`` 0 sits the player down with the chips already theirs at this table
        (still seated: the hand a restart resumed holds their seat, and they keep it);
        a player with no chips here is told to buy in."""
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise SeatError("a buy-in is a number of cents")
        low, high = buy_in_limits(self.variant)
        with self.lock:
            mine = [s for s, p in self.seats.items() if p == player]
            if mine and mine != [seat]:
                raise SeatError(f"you sit in seat {mine[0]} at table {self.id}: one seat a player")
            took = not mine
            if took:
                Table.sit(self, seat, player)  # the seat limits apply
            try:
                have = self.stack(player)
                if amount == 0:  # back with the chips left here, whatever they come to
                    if have == 0 and not self.in_game(seat):
                        raise SeatError(f"you have no chips at table {self.id}: buy in")
                    return have
                if self.in_game(seat):
                    raise SeatError("chips are added between hands: wait for this hand to end")
                after = have + amount
                if after > high:
                    raise SeatError(
                        f"the maximum buy-in at table {self.id} is {_dollars(high)}: you have "
                        f"{_dollars(have)} in front of you, add at most {_dollars(high - have)}"
                    )
                if after < low:
                    raise SeatError(
                        f"the minimum buy-in at table {self.id} is {_dollars(low)}: "
                        f"add at least {_dollars(low - have)}"
                    )
                with self.rt.log.transaction() as tx:
                    body = {"table": self.id, "seat": seat, "player": player, "amount": amount}
                    rec = self.rt.log.append(tx, f"player:{player}", BUY_IN, body)
                    ts = self.rt.log.clock()
                    entry = buy_in_entry(self.id, player, amount)
                    post_entries(tx, [entry], ts=ts, log_seq=rec.seq, log_hash=rec.hash)
                    return tx.ledger.balance(ledger.stack(self.id, player))
            except BaseException:
                if took:
                    self.release_unused(seat, player)
                raise

    def sit(self, seat: int, player: str) -> None:
        """Back from sitting out (the seat is the player's): one sits down at a poker
        table by buying in (:meth:`buy_in`), never by a bet's request."""
        if self.seats.get(seat) != player:
            raise SeatError(f"buy in to sit at seat {seat} of poker table {self.id}")
        super().sit(seat, player)

    def _post_rows(self, conn: Tx, ev: Event, seat: int | None, keys: RowKeys) -> tuple[int, int]:
        """A room's money event: stack, pot and revenue (:mod:`.room_money`); the rake
        is the pot's, no seat's."""
        return post_room_event(conn, ev, **keys)

    def _free(self, seat: int) -> None:
        """Free the seat and return its player's stack to the wallet (``stack-out``)."""
        player = self.seats.get(seat)
        self._unseat(seat)
        if player is None or player in self.seats.values():
            return
        self._stack_out(player, seat)

    def _unseat(self, seat: int) -> None:
        """Forget the seat (its player, sitting out, missed blinds); no money moves."""
        super()._free(seat)
        self.resting.discard(seat)
        self._missed.discard(seat)
        self._held.discard(seat)

    def _stack_out(self, player: str, seat: int | None, after: str | None = None) -> int:
        """Return ``player``'s whole stack here to the wallet: a ``stack-out`` record and
        its ledger rows in one unit (the audit derives it from the record). The stack is
        read inside that unit, so a stack already returned returns nothing. ``seat``:
        the seat freed (None: no seat held it, as after a restart); ``after``: why, when
        it is no leave (``"restart"``). Returns the cents returned."""
        with self.rt.log.transaction() as tx:
            amount = tx.ledger.balance(ledger.stack(self.id, player))
            if amount <= 0:
                return 0
            body: dict[str, Any] = {"table": self.id, "player": player, "amount": amount}
            if seat is not None:
                body["seat"] = seat
            if after is not None:
                body["after"] = after
            rec = self.rt.log.append(tx, "runtime", STACK_OUT, body)
            entry = stack_out_entry(self.id, player, amount)
            post_entries(tx, [entry], ts=self.rt.log.clock(), log_seq=rec.seq, log_hash=rec.hash)
            return amount

    def return_stacks(self) -> dict[str, int]:
        """After a restart, once the room's open hand is recovered: free every seat not
        dealt into a hand still in play and return every stack at the table to its
        player's wallet (``stack-out``, ``after: "restart"``). A seat dealt into the
        resumed hand keeps its stack for it and is freed when it ends (unless its
        player comes back first: :meth:`_returns`). Returns what went home, by player."""
        returned: dict[str, int] = {}
        with self.lock:
            was: dict[str, int] = {}  # player -> the seat freed here
            for seat, player in sorted(self.seats.items()):
                if self.in_game(seat):
                    self._held.add(seat)
                    self._leaving.add(seat)
                else:
                    was[player] = seat
                    self._unseat(seat)
            with self.rt.db.read() as tx:
                stacks = tx.ledger.stacks(self.id)
            seated = set(self.seats.values())
            for player in sorted(stacks):
                if player not in seated:
                    amount = self._stack_out(player, was.get(player), after="restart")
                    if amount:
                        returned[player] = amount
        return returned

    def _returns(self, seat: int) -> None:
        """The seat's player is here (sat, bought in, acted): a seat kept only for the
        hand a restart resumed is theirs again, not freed when that hand ends."""
        super()._returns(seat)
        if seat in self._held:
            self._held.discard(seat)
            self._leaving.discard(seat)

    def release(self, seat: int, player: str | None = None) -> str:
        """Free ``seat`` (leave, the operator): a seat kept for a resumed hand is left
        for good, so a later action of the hand does not keep it."""
        with self.lock:
            if player is None or self.seats.get(seat) == player:
                self._held.discard(seat)
            return super().release(seat, player)

    def in_game(self, seat: int) -> bool:
        """Whether ``seat`` is dealt into the hand in play (its chips may be in the pot
        and its cards on the table: it is freed only when the hand ends)."""
        with self.lock:
            if self.game is None or self.engine is None or self.engine.is_over:
                return False
            return seat in dealt_in(self.engine)

    def sit_out(self, seat: int, player: str) -> None:
        """The player sits out from the next hand on: this hand's decisions stay theirs
        (the clock's sitting-out, which defaults them at once, is for a player who let
        it run out). Acting in this hand does not cancel it; :meth:`come_back` does."""
        if self.seats.get(seat) != player:
            raise SeatError(f"seat {seat} at table {self.id} is not yours")
        self.resting.add(seat)

    def come_back(self, seat: int, player: str) -> None:
        """Back from sitting out (by choice or by the clock): dealt the next hand."""
        self.sit(seat, player)  # its own seat: Seating._returns ends the clock's sitting out
        self.resting.discard(seat)

    def is_sitting_out(self, seat: int) -> bool:
        """Whether the seat sits out of the next hands (its choice, or the clock's)."""
        return seat in self.resting or seat in self.sitting_out

    # --- hands ---------------------------------------------------------------

    def ready(self) -> dict[int, int]:
        """The seats to deal in the next hand, with their stacks: seated, not sitting out
        nor leaving, with chips."""
        stacks = self.stacks()
        return {
            s: c
            for s, c in stacks.items()
            if c > 0 and not self.is_sitting_out(s) and s not in self._leaving
        }

    def hand_due(self, now: float) -> bool:
        """Whether the next hand should start now: no hand in play, two players or more
        ready, the table plays, and the dealer's pause has run since all that held (so
        players sitting down together are dealt in together)."""
        with self.lock:
            playing = self.engine is not None and not self.engine.is_over
            if self.suspended or playing or len(self.ready()) < 2:
                self._ended_at = 0.0
                return False
            self._ended_at = self._ended_at or now
            return now - self._ended_at >= self.hand_pause

    def start_hand(self, *, defer: bool = False) -> ActResult:
        """Start the next hand: a new game, each dealt-in seat's stack told to the engine
        (logged runtime actions), then the source deals until a player must act."""
        with self.lock:
            if self.engine is not None and not self.engine.is_over and self.game is not None:
                raise TableError(f"a hand is in play at table {self.id}")
            if self.rt.db.health.fault is not None:
                raise self.rt.db.health.unavailable()
            if self.suspended:
                raise TableSuspended(f"table {self.id} is suspended: {self.suspended}")
            players = self.ready()
            if len(players) < 2:
                raise TableError(f"table {self.id} needs two players with chips to deal")
            self._encoded.clear()
            with self._transaction(defer) as conn:
                events = self._open_hand(conn, players)
                seat = min(players)
                result = self._result(conn, seat, self.player_at(seat), events)
            self._ended_at = 0.0
            self._note_blinds(players)
            return result

    def _open_hand(self, conn: Tx, players: Mapping[int, int]) -> list[Event]:
        engine: Engine = self.current_engine()
        posts = {s: "bb+sb" if s in self._missed else "bb" for s in self._entering(players)}
        if self.game is None:
            self._start_game(conn)
        events: list[Event] = []
        for action in hand_start_actions(engine, players, posts):
            events += self._apply(conn, action, "runtime")
        assert self.game is not None
        for seat in sorted(players):  # every seat dealt in has the hand in its history
            conn.seats.add(self.game, seat, self.player_at(seat), 0, 0)
        events += self._drive(conn)
        return events

    def _note_blinds(self, players: Mapping[int, int]) -> None:
        """After a hand is dealt: the seats sitting out that the big blind passed (from
        the last hand's big blind, clockwise, to this one's) missed the blinds, and post
        both to come back (``[room] missed_blinds``); the seats dealt in owe nothing."""
        assert self.engine is not None
        bb = big_blind_seat(self.engine)
        if bb is None:
            return
        if self._last_bb is not None:
            n = max(self.variant.seats, 1)
            span = (bb - self._last_bb) % n or n
            for seat in self.seats:
                if seat not in players and 1 <= (seat - self._last_bb) % n <= span:
                    self._missed.add(seat)
        self._last_bb = bb
        self._missed -= set(players)

    def _entering(self, players: Mapping[int, int]) -> frozenset[int]:
        """The seats whose player was not dealt the table's last hand (sat down since, or
        back from sitting out): they post a big blind to come in. None at the table's
        first hand (after a restart too: the last hand, replayed, says who played it)."""
        previous = self._previous
        if previous is None:
            return frozenset()
        dealt = dealt_in(previous)
        held = self._logged_seats  # the last hand's seats and players, per the log
        return frozenset(s for s in players if s not in dealt or held.get(s) != self.seats.get(s))

    def restore(self, game: str, engine: Engine, seats: Mapping[int, str]) -> None:
        """A hand open at a restart resumes here: it is of this table session."""
        super().restore(game, engine, seats)
        number = int(game.rsplit("-", 1)[1])
        self.first_game = min(self.first_game, number)

    def clock_left(self, seat: int, now: float | None = None) -> float | None:
        """Seconds left on ``seat``'s action clock (None when it is not asked to act)."""
        held = self._clock.get(seat)
        if held is None:
            return None
        now = time.monotonic() if now is None else now
        return max(0.0, self.rt.seat_rules.action_seconds - (now - held[1]))


def _dollars(cents: int) -> str:
    from games.core.money import format_cents

    return format_cents(cents)
