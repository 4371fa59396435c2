"""One table: the current game's engine, its outcome source, and every write (its
seats, their lifecycle and per-player games: :mod:`kiosk_ui.table.seating`).

Each request is one store transaction that holds the player's action, the
engine's events, any cards or dice the source supplied, and the ledger rows
those events imply. If anything fails, the transaction rolls back and the
engine is rebuilt from the log, so memory, ledger and log never disagree.

An I/O error on the store (a full disk, a disk I/O error: see
:mod:`kiosk_ui.store.faults`) suspends every table of that store at once: ``suspended``
reads the store's fault, and bets are refused with ``StoreUnavailable`` (HTTP 503) until
the operator resumes, which first proves the store writable again
(:func:`kiosk_ui.table.faults.resume_store`).

Crash rule (documented in docs/architecture.md): a game whose log replays
through the engine to exactly the logged events is *resumed* at the point it
stopped (same cards, same pending decision); one whose replay does not match
(for example after a software change) is *voided*: every stake still on the
layout is returned and the void is logged. A settled game is never touched.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from games import catalog
from games.catalog import Family
from games.core.capabilities import KnowsPlayers, StandingOrders
from games.core.engine import Engine, Variant
from games.core.errors import IllegalAction
from games.core.records import (
    Action,
    Deal,
    Event,
)
from kiosk_ui.errors import SeatError, TableError, TableSuspended
from kiosk_ui.store import ledger
from kiosk_ui.store.protocol import Tx
from kiosk_ui.table.answers import ActResult, visible_to
from kiosk_ui.table.outcomes import KeepsShoes, OutcomeFault, OutcomeSource, draw_info
from kiosk_ui.table.player_deal import dealing_seat, is_deal_request, with_seat
from kiosk_ui.table.seating import logged_seats
from kiosk_ui.table.seats import unattended
from kiosk_ui.table.table_money import TableMoney

if TYPE_CHECKING:
    from kiosk_ui.table.runtime import Runtime


class Table(TableMoney):
    """One table: its game's engine and outcome source, and every write (its seats:
    :class:`~kiosk_ui.table.seating.Seating`; suspend and resume:
    :class:`~kiosk_ui.table.suspension.Suspension`; its money:
    :class:`~kiosk_ui.table.table_money.TableMoney`)."""

    room = False  # a poker room (kiosk_ui.table.room): player against player

    def __init__(
        self,
        runtime: Runtime,
        table_id: str,
        variant: Variant[Any],
        family: Family,
        source: OutcomeSource,
    ) -> None:
        super().__init__()  # the seats (kiosk_ui.table.seating)
        self.rt = runtime
        self.id = table_id
        self.variant = variant
        self.family = family
        self.source = source
        self.engine: Engine | None = None
        self.game: str | None = None
        self._suspended: str | None = None  # its own reason (see suspended)
        self.hand = 0  # games started at this table before the current one
        self._started: int | None = None  # games started here; read from the store once
        self._previous: Engine | None = None  # the last finished game, for the next one
        self._looked_back = False  # whether the log was asked for it since start-up
        self._carry: dict[str, Any] | None = None  # what the next game takes from it
        self._new_players: frozenset[int] = frozenset()  # seats whose player changed since
        self._encoded: dict[int, dict[str, Any]] = {}  # this request's events, encoded once
        self.lock = threading.RLock()

    @property
    def suspended(self) -> str | None:
        """Why the table takes no bets: a store fault (all tables of the store), or its
        own suspension (device fault, RNG halt, the operator); None while it plays."""
        return self.rt.db.health.reason() or self._suspended

    @suspended.setter
    def suspended(self, reason: str | None) -> None:
        self._suspended = reason

    # --- playing -------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees of the table (None: the public view): the engine's view as
        ``state`` (and the upcoming game's as ``next``), JSON-able, never indexed here."""
        with self.lock:
            base: dict[str, Any] = {
                "table": self.id,
                "variant": self.variant.id,
                "game": self.game,
                "suspended": self.suspended,
            }
            if self.engine is not None:
                base["state"] = self.engine.view(seat)
                base["over"] = self.engine.is_over
                decides: Engine = self.engine
                if self.engine.is_over and seat is not None:
                    # The result stays on show; what the seat may do now belongs to the
                    # next game, which may open with something to decide.
                    upcoming = self._peek_next()
                    if upcoming is not None:
                        decides = upcoming
                        base["next"] = upcoming.view(seat)
                base["legal"] = sorted(decides.legal_actions(seat)) if seat is not None else []
                self._show_collection(base, decides)
            else:
                base["state"] = None
                base["over"] = True
                upcoming = self._peek_next() if seat is not None else None
                if upcoming is not None:
                    base["next"] = upcoming.view(seat)
                base["legal"] = (
                    sorted(upcoming.legal_actions(seat))
                    if upcoming is not None and seat is not None
                    else []
                )
                if upcoming is not None:
                    self._show_collection(base, upcoming)
            return base

    def act(self, action: Action, *, idempotency_key: str | None = None) -> ActResult:
        """Apply one seat's action, then let the source deal until a player must act."""
        return self.act_many([action], idempotency_key=idempotency_key)

    def act_many(
        self,
        actions: Sequence[Action],
        *,
        idempotency_key: str | None = None,
        request_digest: str = "",
        defer: bool = False,
        by: str | None = None,
        game: str | None = None,
    ) -> ActResult:
        """Apply several actions of one seat atomically (a bet slip and Deal): all or none.

        A repeated ``idempotency_key`` gets the first answer again, if its
        ``request_digest`` (the request's table and body) is the first one's.

        ``defer=True`` leaves the store's group transaction open (the event loop's
        requests, :class:`kiosk_ui.table.commit.LoopCommitter`): the result is not
        durable, and must not be reported, until that group commits.

        ``by`` names a source other than the seat's player (``"timeout"``: the action
        clock's default, logged as such; the seat then sits out); ``game``: apply only
        if that game is still the open one.
        """
        seats = {a.seat for a in actions}
        if not actions or len(seats) != 1 or None in seats:
            raise SeatError("actions need exactly one seat")
        seat = actions[0].seat
        assert seat is not None
        player = self.player_at(seat)
        with self.lock:
            if game is not None and self.game != game:
                raise TableError(f"game {game} at table {self.id} is no longer open")
            if idempotency_key:
                done = self.rt.idempotent_response(idempotency_key, request_digest)
                if done is not None:
                    return ActResult(**done)
            if self.rt.db.health.fault is not None:
                raise self.rt.db.health.unavailable()
            if self.suspended:
                raise TableSuspended(f"table {self.id} is suspended: {self.suspended}")
            self._encoded.clear()
            with self._transaction(defer) as conn:
                events: list[Event] = []
                for action in actions:
                    self.current_engine()
                    if self.game is None:
                        self._start_game(conn)
                    assert self.engine is not None and self.game is not None
                    self._pass_unattended(conn)
                    if is_deal_request(action):  # a player deals: one card, then wait
                        events += self._deal_next(conn, seat)
                        continue
                    self.engine.verify(action)
                    if isinstance(action, Deal):
                        self._check_collection(conn, self.engine)
                        events += self._record_players(conn, self.engine)
                    events += self._apply(conn, action, by or f"seat:{seat}")
                    if not self.source.blocking:
                        events += self._drive(conn)
                    elif self.engine.is_over:
                        self._finish(conn)
                result = self._result(conn, seat, player, events)
                if idempotency_key:
                    self.rt.store_response(conn, idempotency_key, result, request_digest)
            self._acted(seat, by=by)
            return result

    def _record_players(self, conn: Tx, engine: Engine) -> list[Event]:
        """Before a deal, tell a round that asks (KnowsPlayers) which seats each player
        holds, as logged runtime actions, so its rules and a replay both know it."""
        if not isinstance(engine, KnowsPlayers):
            return []
        groups: dict[str, list[int]] = {}
        for seat, player in sorted(self.seats.items()):
            if player:
                groups.setdefault(player, []).append(seat)
        events: list[Event] = []
        for record in engine.players_actions(tuple(g) for g in groups.values()):
            events += self._apply(conn, record, "runtime")
        return events

    def advance(self) -> list[dict[str, Any]]:
        """For a blocking (device) source: wait for outcomes and apply them until players act.

        The wait happens outside the table lock, so views and other requests are served
        while the device is read; the outcome is applied only if the game is still the
        one that asked for it.
        """
        out: list[Event] = []
        self._encoded.clear()
        while True:
            with self.lock:
                engine, game = self.engine, self.game
                need = engine.needs() if engine is not None and game is not None else None
                if engine is None or game is None or need is None or self.suspended:
                    break
            try:
                action, info = self.source.supply(self.rt.db.handle, game, need)
            except OutcomeFault as exc:
                self.suspend(str(exc))
                raise TableSuspended(f"table {self.id} is suspended: {exc}") from None
            with self.lock:
                if self.game != game or self.engine is not engine or engine.needs() != need:
                    # Voided or suspended meanwhile: the physical outcome is logged, not used.
                    with self.rt.log.transaction() as conn:
                        body = {"action": action.encode(), **info}
                        self.rt.log.append(conn, self.source.name, "outcome-unused", body, game)
                    break
                try:
                    with self.rt.log.transaction() as conn:
                        out += self._apply(conn, action, self.source.name, draw_info(need, info))
                        if engine.is_over:
                            self._finish(conn)
                except BaseException:
                    self._rebuild()
                    raise
        return [e.encode() for e in out]

    # --- internals -----------------------------------------------------------

    def current_engine(self) -> Engine:
        """The engine the next action applies to: a fresh one once the last game is over.

        A fresh engine becomes a logged game only when its first action succeeds.
        """
        with self.lock:
            if self.engine is None or self.engine.is_over:
                if self.engine is not None:  # the game just over hands on to the next
                    self._previous = self.engine
                elif self._previous is None and not self._looked_back:
                    self._previous = self._last_game_from_log()  # after a restart
                self._looked_back = True
                self.hand = self._games_started()
                self._carry = catalog.carry_of(self._previous)
                self._new_players = (
                    self._changed_seats() if self._carry is not None else frozenset()
                )
                self.engine = catalog.new_game(
                    self.variant,
                    max(self.variant.seats, 1),
                    hand=self.hand,
                    previous=self._previous,
                    new_players=self._new_players,
                )
                self.game = None
                if unattended(self.engine, self.seats) is not None:
                    # The new game waits on a seat nobody sits in: open it and give that
                    # seat its default now, or the seated players would wait on an empty chair.
                    with self.rt.log.transaction() as conn:
                        self._start_game(conn)
                        self._pass_unattended(conn)
            return self.engine

    def _pass_unattended(self, conn: Tx) -> None:
        """A decision the game waits on from an empty seat (a bank offered to a chair
        nobody sits in) gets the rules' default, applied by the runtime as a logged
        action, so the table never waits on nobody (:func:`.seats.unattended`)."""
        assert self.engine is not None
        while (action := unattended(self.engine, self.seats)) is not None:
            self._apply(conn, action, "runtime")

    def _peek_next(self) -> Engine | None:
        """The game that will follow the finished one (or open first), made the way
        current_engine will make it (engines are pure, and what it gives empty seats is
        applied as :meth:`_pass_unattended` will); None when a finished game hands
        nothing on, so the next one starts like any."""
        if self.engine is not None and catalog.carry_of(self.engine) is None:
            return None
        if self.engine is None and self._previous is None and not self._looked_back:
            self._previous = self._last_game_from_log()  # after a restart
            self._looked_back = True
        upcoming = catalog.new_game(
            self.variant,
            max(self.variant.seats, 1),
            hand=self._games_started(),
            previous=self.engine or self._previous,
            new_players=self._changed_seats(),
        )
        while (action := unattended(upcoming, self.seats)) is not None:
            upcoming.apply(action)
        return upcoming

    def _changed_seats(self) -> frozenset[int]:
        """The seats whose player is not the one the log names for them in the last game
        (sat down since, or left it empty): the next game drops what the last one
        carries for them that is the player's
        (:attr:`~games.core.engine.GameContext.new_players`). A seat its player left
        counts too: the next game may be opened, by another seat's first action, before
        anybody sits there, and whoever sits down in it then inherits nothing (a craps
        come-out option, a place in the pai gow bank rotation, a queued jackpot chip)."""
        held, seats = self._logged_seats, self.seats
        return frozenset(s for s in {*held, *seats} if held.get(s) != seats.get(s))

    def _last_game_from_log(self) -> Engine | None:
        """The table's last settled game, replayed: what the next game follows on from
        (what its :func:`games.catalog.carry_of` hands on)."""
        with self.rt.db.read() as tx:
            # a per-player game follows on from the player's own last game
            last = tx.games.last_settled(self.id, self.owner)
        if last is None:
            return None
        replayed = self.rt.replay(last)
        if replayed is None or not replayed.matches or not replayed.engine.is_over:
            return None
        self._logged_seats = logged_seats(replayed.records)  # who played it, seat by seat
        return replayed.engine

    def _start_game(self, conn: Tx) -> None:
        self.rt.check_lease(conn, self.id)  # a shared store's table: still this appliance's
        number = self._games_started() + 1
        game = self.rt.game_id(self.id, number)
        engine = self.engine
        assert engine is not None
        ts = self.rt.log.clock()
        conn.games.insert(game, self.id, self.variant.id, ts, self.source.name)
        info = self.source.start_game(conn, game, self.variant)
        self.rt.log.append(
            conn,
            "runtime",
            "game-start",
            {
                "table": self.id,
                "variant": self.variant.id,
                "hand": self.hand,
                "seats": _seats(self.seats),
                **({"carry": self._carry} if self._carry is not None else {}),
                **({"new_players": sorted(self._new_players)} if self._new_players else {}),
                **info,
            },
            game,
        )
        self.engine, self.game = engine, game
        (self.parent or self)._started = number
        self._logged_seats = dict(self.seats)

    def _games_started(self) -> int:
        # Every player's game at a per-player table is numbered from the table's one
        # count, so game ids stay "<table>-<n>" and unique.
        counter = self.parent or self
        if counter._started is None:
            counter._started = self.rt.games_started(self.id)
        return counter._started

    def _apply(
        self,
        conn: Tx,
        action: Action,
        source: str,
        info: Mapping[str, Any] | None = None,
    ) -> list[Event]:
        assert self.engine is not None and self.game is not None
        self.rt.check_lease(conn, self.id)
        body = action.encode()
        if info:
            body["_draw"] = dict(info)
        self.rt.log.append(conn, source, "action", body, self.game)
        events = list(self.engine.apply(action))
        ts = self.rt.log.clock()
        for ev in events:
            encoded = self._encoded[id(ev)] = ev.encode()  # logged, and answered by _result
            seat: int | None = getattr(ev, "seat", None)
            money = isinstance(ev, self.money_events)
            if seat is not None and money and self._logged_seats.get(seat) != self.player_at(seat):
                self._log_seat(conn, seat)  # before the event: the log names its wallet
            rec = self.rt.log.append(conn, "engine", "event", encoded, self.game)
            if money:
                self._post(conn, ev, seat, rec, ts)
        return events

    def _drive(self, conn: Tx) -> list[Event]:
        assert self.engine is not None and self.game is not None
        events: list[Event] = []
        while (need := self.engine.needs()) is not None:
            if dealing_seat(self.engine, self.seats) is not None:
                return events  # the seat dealing is asked for each card (player_deal.py)
            action, info = self.source.supply(conn, self.game, need)
            events += self._apply(conn, action, self.source.name, draw_info(need, info))
        if self.engine.is_over:
            self._finish(conn)
        return events

    def _deal_next(self, conn: Tx, seat: int) -> list[Event]:
        """The next card from the source, as ``seat``'s own deal (it must be dealing now)."""
        assert self.engine is not None and self.game is not None
        need = self.engine.needs()
        if need is None or self.source.blocking or dealing_seat(self.engine, [seat]) != seat:
            raise IllegalAction(f"seat {seat} has no card to deal now")
        action, info = self.source.supply(conn, self.game, need)
        dealt = with_seat(action, seat)
        events = self._apply(conn, dealt, self.source.name, draw_info(need, info))
        return events + self._drive(conn)

    def _finish(self, conn: Tx) -> None:
        assert self.game is not None
        info = self.source.end_game(conn, self.game)
        nets = conn.seats.nets(self.game)
        self.rt.log.append(
            conn, "runtime", "game-end", {"status": "settled", "net": nets, **info}, self.game
        )
        conn.games.end(self.game, "settled", self.rt.log.clock())
        self.rt.log.checkpoint(conn)

    def _result(self, conn: Tx, seat: int, player: str, events: list[Event]) -> ActResult:
        assert self.engine is not None and self.game is not None
        return ActResult(
            game=self.game,
            events=[self._encoded.get(id(e)) or e.encode() for e in events if visible_to(e, seat)],
            view=self.view(seat),
            balance=conn.ledger.balance(ledger.wallet(player)),
            over=self.engine.is_over,
        )

    def rebuild(self) -> None:
        """Restore the engine from the log (its last unit of work was not kept); at a
        per-player table, every player's game."""
        with self.lock:
            self._rebuild()
            games = list(self.games_of.values())
        for mine in games:
            mine.rebuild()

    @contextmanager
    def _transaction(self, defer: bool) -> Iterator[Tx]:
        """One unit of the table's work (the caller holds the lock): a log transaction
        whose failure restores the engine from the log (:meth:`_rebuild`); an outcome
        source's fault also suspends the table, with its alarm (``TableSuspended``)."""
        try:
            with self.rt.log.transaction(defer=defer) as conn:
                yield conn
        except OutcomeFault as exc:
            self._rebuild()
            self.suspend(str(exc), alarm=exc.alarm)
            raise TableSuspended(f"table {self.id} is suspended: {exc}") from None
        except BaseException:
            self._rebuild()
            raise

    def _rebuild(self) -> None:
        """Restore the engine from the log after a failed transaction."""
        (self.parent or self)._started = None  # a game started by the lost work is gone
        if self.game is not None and isinstance(self.source, KeepsShoes):
            self.source.forget(self.game)  # its shoe is read back from the store, and checked
        if self.game is None:
            self.engine = None  # a fresh engine is made on the next request
            return
        replayed = self.rt.replay(self.game)
        if replayed is None:  # the game never reached the log
            self.engine, self.game = None, None
        else:
            self.engine = replayed.engine
            self._logged_seats = logged_seats(replayed.records)

    def _free(self, seat: int) -> None:
        """Free the seat; standing orders its player left in the open game (Caribbean
        Stud's queued jackpot chips and always-contribute button, craps come-out options,
        the pai gow bank rotation's place, baccarat's Player as Dealer) go with them
        (:meth:`_withdraw_orders`), and what the last game carries for the seat is not
        handed to the next (:meth:`_changed_seats`): the seat's next player inherits none."""
        if self.seats.get(seat) is not None:
            self._withdraw_orders(seat)  # first: a failed unit leaves the seat as it was
        super()._free(seat)

    def _withdraw_orders(self, seat: int) -> None:
        """Take back ``seat``'s standing orders in the open game (logged runtime actions,
        so a replay and the audit agree; no money moves: an order is no stake), then let
        the source go on if the game was waiting on the seat (baccarat's shoe handed back
        to the banker mid-deal: the banker deals the rest). A fresh game not yet in the
        log is dropped instead: the next one is made for whoever sits next
        (``new_players``)."""
        with self.lock:
            engine = self.engine
            if engine is None or engine.is_over or not isinstance(engine, StandingOrders):
                return
            actions = engine.withdraw_orders(seat)
            if not actions:
                return
            if self.game is None:
                self.engine = None
                return
            with self._transaction(False) as conn:
                for action in actions:
                    self._apply(conn, action, "runtime")
                if not self.source.blocking:
                    self._drive(conn)

    def restore(self, game: str, engine: Engine, seats: Mapping[int, str]) -> None:
        with self.lock:
            self.game, self.engine = game, engine
            for seat, player in seats.items():
                self.seats.setdefault(seat, player)
                self._active.setdefault(seat, time.monotonic())
            self._logged_seats = dict(seats)


def _seats(seats: Mapping[int, str]) -> dict[str, str]:
    return {str(k): v for k, v in sorted(seats.items())}
