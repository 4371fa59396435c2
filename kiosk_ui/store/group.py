"""Group commit, shared by both store backends: units of work in savepoints of one transaction.

:class:`GroupCommit` is the unit-of-work machinery of :class:`kiosk_ui.store.db.Database`
(SQLite) and :class:`kiosk_ui.store.pg.PgDatabase` (PostgreSQL): each unit runs in its
own ``SAVEPOINT`` inside a shared transaction, writers that find others waiting leave
it open for them, and the last of the group commits once (one fsync, or one WAL flush
on the server, for the whole group). Nobody returns before the commit holding its
work is durable; a failed unit rolls back to its savepoint alone. A backend gives it
its connection (``conn``: the repositories and ``execute``, with ``in_transaction``),
its driver's errors, how a group begins, and the store's fault state.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from kiosk_ui.errors import StoreError
from kiosk_ui.store.faults import StoreHealth, conflict
from kiosk_ui.store.sql import Conn

MAX_GROUP = 64  # units of work per group commit at most


class UnitConn(Conn, Protocol):
    """A backend's connection as the group commit drives it."""

    @property
    def in_transaction(self) -> bool: ...


T = TypeVar("T", bound=UnitConn)


class GroupCommit(ABC, Generic[T]):
    """The unit of work and its group commit (see the module docstring)."""

    #: what the driver raises (beside StoreError) when the store fails
    errors: tuple[type[Exception], ...] = ()
    #: how a group transaction starts
    BEGIN = "BEGIN"
    conn: T
    directory: Path

    #: whether other appliances write this store too (:attr:`Store.shared`)
    shared = False
    #: whether starting a group may wait for another process's writer (SQLite's one
    #: write lock on a shared store): the event loop then opens its groups off the
    #: loop (:meth:`begin_group`, :mod:`kiosk_ui.table.commit`)
    begin_waits = False
    appliance = ""

    @abstractmethod
    def probe(self) -> None:
        """Prove the store writable after a fault (each backend's own way)."""

    def _begin(self) -> None:
        """Start a group transaction (a shared store also takes its writer lock here)."""
        self._execute(self.BEGIN, "begin")

    def _init_groups(self) -> None:
        """The group-commit state (shared by both backends: see :meth:`transaction`)."""
        self.lock = threading.RLock()
        self._cond = threading.Condition(self.lock)
        self._counter = threading.Lock()
        self._waiting = 0  # writers blocked on the lock: they will join the open group
        self._depth = 0
        self._in_tx = False
        self._group = 0  # id of the open (or last) group transaction
        self._members = 0
        self._committed = 0  # id of the last group that finished committing
        self._failed: dict[int, StoreError] = {}
        self.commits = 0  # group commits so far (each one fsync under synchronous=FULL)
        self.health = StoreHealth()  # I/O faults: see kiosk_ui.store.faults

    @property
    def handle(self) -> T:
        """The connection outside any unit of work (see :attr:`Store.handle`)."""
        return self.conn

    @contextmanager
    def read(self) -> Iterator[T]:
        """Reads under the store lock, outside any transaction of their own."""
        with self.lock:
            yield self.conn

    def audit(self) -> dict[str, Any]:
        """The ledger audit on the open store (under its lock; see :mod:`.audit`)."""
        from kiosk_ui.store.audit import audit_connection

        with self.lock:
            return audit_connection(self.conn)

    @contextmanager
    def transaction(self, *, defer: bool = False) -> Iterator[T]:
        """One atomic unit of work: all of it is kept, or none of it. Re-entrant.

        ``defer=True`` (the event loop's units, see :mod:`kiosk_ui.table.commit`):
        the unit ends without committing or waiting; the group stays open for more
        units, and the caller must make it durable with :meth:`commit_open` (and see
        :meth:`group_outcome`) before it reports success to anyone.

        Group commit: each unit runs in its own SAVEPOINT inside a shared transaction.
        When other writers are already waiting, the unit leaves the transaction open
        for them and waits; the last writer of the group commits once (one fsync for
        the whole group) and wakes the others. Nobody returns before the transaction
        that holds its work is durably committed. A unit that fails rolls back to its
        savepoint and never disturbs the others.

        While a store fault is open a unit is refused with
        :class:`~kiosk_ui.errors.StoreUnavailable` before it touches the store, unless
        its caller proved the store writable (:meth:`writable`; see
        :mod:`kiosk_ui.store.faults`).
        """
        if self.begin_waits and not self._in_tx:
            # Queue for the other processes' groups before taking the store lock, so
            # this process's reads (the event loop's) go on while this thread waits.
            self._await_writer()
        with self._counter:
            self._waiting += 1
        self.lock.acquire()
        with self._counter:
            self._waiting -= 1
        try:
            if self._depth:  # nested: part of the caller's unit
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            group = self._enter()
            self._execute("SAVEPOINT unit", "unit")
            self._depth = 1
            failure: BaseException | None = None
            try:
                yield self.conn
            except BaseException as exc:
                failure = self.health.report(exc, "unit") or conflict(exc) or exc
                if not self._undo_unit():
                    self._abort(group, failure)  # SQLite dropped the whole transaction
            finally:
                self._depth = 0
            if self._in_tx and self._group == group:
                try:
                    self.conn.execute("RELEASE unit")
                except self.errors as exc:
                    self._abort(group, self.health.report(exc, "unit") or exc)
            self._members += 1
            failure = self._leave(group, failure, defer=defer)
            if failure is not None:
                raise failure
        finally:
            self.lock.release()

    def _enter(self) -> int:
        """The group a new unit joins (opened if none is): refused while a fault is open."""
        try:
            self.health.refuse()  # while a fault is open, even a unit that would fit
        except BaseException:
            if not self._in_tx:
                self._ended()  # the writer's queue waited for above: let it go
            raise
        if not self._in_tx:
            self._open_group()
        return self._group

    def _open_group(self) -> None:
        self._begin()
        self._in_tx = True
        self._group += 1
        self._members = 0

    def _leave(
        self, group: int, failure: BaseException | None, *, defer: bool
    ) -> BaseException | None:
        """End a unit's part in ``group``: leave it open (deferred), wait for the others'
        commit (writers are waiting to join), or commit it; the unit's error, if any.

        A unit that failed has nothing in the group to wait for: with writers waiting to
        join it answers at once (the last of them commits), else it commits the others'
        work itself, as the group's last writer."""
        with self._counter:
            others_waiting = self._waiting > 0
        if group in self._failed:
            pass  # gone already: nothing to commit or wait for
        elif defer and failure is None:
            pass  # left open: the caller commits it (commit_open) before answering
        elif others_waiting and self._members < MAX_GROUP:
            while failure is None and self._committed < group and group not in self._failed:
                self._cond.wait()
        else:
            self._commit(group)
        if group in self._failed and failure is None:
            return self._error_of(group)
        return failure

    def _execute(self, sql: str, where: str) -> None:
        """Run one control statement; an I/O error becomes the store fault's error."""
        try:
            self.conn.execute(sql)
        except self.errors as exc:
            raise (self.health.report(exc, where) or exc) from None

    def _undo_unit(self) -> bool:
        """Roll the failed unit back to its savepoint; False if SQLite had already rolled
        back the whole group transaction (it may, on a full disk or an I/O error)."""
        if not self.conn.in_transaction:
            return False
        try:
            self.conn.execute("ROLLBACK TO unit")
        except self.errors:
            return False
        return True

    def _abort(self, group: int, error: BaseException) -> None:
        """End ``group`` as failed: everything in it is rolled back, every unit of it
        (the deferred ones through :meth:`group_outcome`) answers ``error``."""
        self._rollback()
        self._failed[group] = (
            error
            if isinstance(error, StoreError)
            else StoreError(f"commit failed: the transaction was lost: {error}")
        )
        self._in_tx = False
        self._ended()
        self._committed = group
        self._cond.notify_all()

    def _ended(self) -> None:
        """A group transaction ended (committed or not): a backend's hook."""

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            with suppress(*self.errors):  # nothing else to do: the next BEGIN finds out
                self.conn.execute("ROLLBACK")

    def _error_of(self, group: int) -> StoreError:
        """A fresh copy of the error ``group`` failed with (one per unit that raises it)."""
        err = self._failed[group]
        return type(err)(str(err))

    def begin_group(self) -> None:
        """Open a group transaction now, if none is open, for the next units to join.

        Called off the event loop where :attr:`begin_waits`: taking the write lock may
        wait for another process's whole group, and the loop goes on reading requests
        meanwhile. A failure is left for the first unit to meet (its own begin raises
        it), and so is an open store fault (the unit is refused)."""
        self._await_writer()  # outside the store lock: its reads go on meanwhile
        with self.lock:
            if self._in_tx:
                return  # a unit of a worker thread opened one meanwhile: they join it
            if self.health.fault is not None:
                self._ended()
                return
            failures: tuple[type[Exception], ...] = (StoreError, *self.errors)
            with suppress(*failures):
                self._open_group()

    def _await_writer(self) -> None:
        """Wait until this process may write (a backend's hook: SQLite's writer queue)."""

    def open_group(self) -> int | None:
        """The id of the group transaction still open (units done, not yet durable)."""
        with self.lock:
            return self._group if self._in_tx else None

    def commit_open(self) -> None:
        """Commit the open group now, if there is one and no unit is inside it."""
        with self.lock:
            if self._in_tx and not self._depth:
                self._commit(self._group)

    def group_outcome(self, group: int) -> StoreError | None:
        """The error ``group`` failed to commit with (a fresh copy), or None once it is
        durable: :class:`~kiosk_ui.errors.StoreUnavailable` for an I/O error.

        Raises :class:`StoreError` if the group is still open.
        """
        with self.lock:
            if self._committed < group:
                raise StoreError(f"group {group} is not committed yet")
            return self._error_of(group) if group in self._failed else None

    def _commit(self, group: int) -> None:
        try:
            self.conn.execute("COMMIT")
            self.commits += 1
        except self.errors as exc:
            # A failed COMMIT (or its fsync) may have been rolled back by SQLite already.
            self._rollback()
            self._failed[group] = (
                self.health.report(exc, "commit")
                or conflict(exc)
                or StoreError(f"commit failed: {exc}")
            )
        finally:
            self._in_tx = False
            self._ended()
            self._committed = group
            self._cond.notify_all()

    @contextmanager
    def writable(self) -> Iterator[None]:
        """Let the caller's units write even while a store fault is open, once
        :meth:`probe` has proven the store writable again (raises
        :class:`~kiosk_ui.errors.StoreUnavailable` if not). With no fault open it
        proves nothing and admits nothing: the units run as always."""
        if self.health.fault is None:
            yield
            return
        self.probe()
        with self.health.admitted():
            yield
