"""Store faults: an I/O error on the store (a full disk, a disk I/O error, a file system
gone read-only) and the state it leaves the appliance in until the operator resumes.

Any write to the store that fails with an I/O error (a statement of a unit of work,
BEGIN, COMMIT and its fsync, the checkpoint thread, a key file) reports it to the
store's :class:`StoreHealth`. The first report opens a fault: every table of the store
is suspended (``Table.suspended`` reads it; bets are refused with
:class:`~kiosk_ui.errors.StoreUnavailable`, HTTP 503), and the alarm goes to the
process log at once. The game log cannot take it now (the disk is what failed), so
the alarm is written to it by the operator's resume, as that resume's first records
(:mod:`kiosk_ui.table.faults`), which also proves the store writable again
(:meth:`~kiosk_ui.store.db.Database.probe`) before any table reopens. The unit of work
that failed rolled back (SQLite's rollback plus the tables rebuilt from the log), so
nothing half done is kept and everything already answered stays durable.

While the fault is open every unit of work is refused before it touches the store
(:meth:`StoreHealth.refuse`, called by :meth:`~kiosk_ui.store.db.Database.transaction`):
a write that happens to fit on the full disk (SQLite reuses WAL frames already
allocated) must not succeed either, or the appliance would answer some writes and not
others while the disk stays full. Only the code that has just proven the store writable
again writes: the resume, and an operator's sign-in (the way to the resume when the
session has ended), each inside :meth:`StoreHealth.admitted`.

Other errors (a refused bet, a busy database) are not faults and are not reported.
Nor is a lost lock race: PostgreSQL ends one unit of work of a deadlock between two
writers (SQLSTATE 40P01: two appliances' open groups each holding a wallet row the
other wants) or a serialization failure (40001). The server rolled that unit back to
its savepoint, the store is sound, and asking again succeeds: :func:`conflict` makes
it a :class:`~kiosk_ui.errors.StoreConflict` (409, retryable), never a fault.
"""

from __future__ import annotations

import contextvars
import errno
import logging
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from kiosk_ui.errors import StoreConflict, StoreUnavailable

log = logging.getLogger("kiosk_ui.store")

#: SQLite primary result codes that mean the medium failed, not the request
IO_CODES = frozenset(
    (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY)
)
#: the same, by the message SQLite gives (an error made by hand carries no code)
IO_MESSAGES = (
    "database or disk is full",
    "disk i/o error",
    "unable to open database file",
    "attempt to write a readonly database",
)
IO_ERRNOS = frozenset((errno.ENOSPC, errno.EIO, errno.EROFS, errno.EDQUOT))
#: PostgreSQL SQLSTATE classes that mean the server or the way to it failed: a lost
#: connection (08), insufficient resources such as a full disk (53), an operator's
#: shutdown (57P), a system or I/O error (58); never a statement's own error
PG_IO_CLASSES = ("08", "53", "57P", "58")
#: PostgreSQL SQLSTATEs that mean this transaction lost a race with another one:
#: nothing is wrong with the store, the same request asked again may succeed
PG_CONFLICTS = {"40P01": "a deadlock", "40001": "a serialization failure"}


def is_io_error(exc: BaseException) -> bool:
    """Whether ``exc`` says the store's medium failed (full, I/O error, read-only)."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int):
            return code & 0xFF in IO_CODES  # extended codes keep the primary in the low byte
        return any(m in str(exc).lower() for m in IO_MESSAGES)
    if "psycopg" in sys.modules:  # loaded by the PostgreSQL backend only
        import psycopg

        if isinstance(exc, psycopg.Error):
            state = exc.sqlstate
            if state is None:  # no answer from the server: the connection is gone
                return isinstance(exc, psycopg.OperationalError)
            return state.startswith(PG_IO_CLASSES)
    return isinstance(exc, OSError) and exc.errno in IO_ERRNOS


def conflict(exc: BaseException) -> StoreConflict | None:
    """The retryable answer to ``exc`` if the database ended this unit of work to let
    another writer's go on (a deadlock, a serialization failure); None otherwise."""
    if "psycopg" not in sys.modules:
        return None
    import psycopg

    if not isinstance(exc, psycopg.Error) or exc.sqlstate not in PG_CONFLICTS:
        return None
    return StoreConflict(
        f"the database ended this request's work to break {PG_CONFLICTS[exc.sqlstate]} "
        f"with another writer of the same wallets (SQLSTATE {exc.sqlstate}): nothing of it "
        "was kept; retry it"
    )


def describe(exc: BaseException) -> str:
    """A short reason for people: SQLite's message, or the OS error's."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__


@dataclass(frozen=True, slots=True)
class StoreFault:
    """An open fault: what failed first, where, when (wall clock, microseconds)."""

    reason: str
    where: str  # "unit", "begin", "commit", "checkpoint", "probe", "request"
    since: int

    def record(self, errors: int) -> dict[str, object]:
        """The body of the game log's ``store-fault`` record."""
        return {"reason": self.reason, "where": self.where, "since": self.since, "errors": errors}


class StoreHealth:
    """Whether the store is writable; thread-safe, and never takes the store's lock
    (it is told about faults from inside it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.fault: StoreFault | None = None
        self.errors = 0  # I/O errors seen since the fault opened
        self.resume_lock = threading.Lock()  # one resume at a time
        # whether this context (thread, or task on the loop) may write during a fault
        self._admitted: contextvars.ContextVar[bool] = contextvars.ContextVar(
            "store_admitted", default=False
        )

    def refuse(self) -> None:
        """Raise :class:`StoreUnavailable` while a fault is open, before any write: unless
        the caller is inside :meth:`admitted` (it proved the store writable)."""
        if self.fault is not None and not self._admitted.get():
            raise self.unavailable()

    @contextmanager
    def admitted(self) -> Iterator[None]:
        """Let this context write while the fault is open; only for code that has just
        proven the store writable (:meth:`~kiosk_ui.store.db.Database.probe`)."""
        mark = self._admitted.set(True)
        try:
            yield
        finally:
            self._admitted.reset(mark)

    def report(self, exc: BaseException, where: str) -> StoreUnavailable | None:
        """Note ``exc`` if it is an I/O error and return the error to answer with;
        None if it is not a fault (the caller raises it as it is)."""
        if not is_io_error(exc):
            return None
        with self._lock:
            self.errors += 1
            first = self.fault is None
            if first:
                self.fault = StoreFault(describe(exc), where, time.time_ns() // 1000)
        if first:
            log.error(
                "store fault at %s: %s; every table is suspended until the operator resumes "
                "them (the alarm is written to the game log by that resume)",
                where,
                describe(exc),
            )
        return self.unavailable()

    def reason(self) -> str | None:
        """Why the tables are suspended, while a fault is open."""
        fault = self.fault
        if fault is None:
            return None
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(fault.since / 1e6))
        return f"store unavailable: {fault.reason} (at {fault.where}, since {when})"

    def unavailable(self) -> StoreUnavailable:
        fault = self.fault
        why = fault.reason if fault is not None else "the store cannot be written"
        return StoreUnavailable(
            f"the store cannot be written ({why}); nothing of this request was kept, and "
            "the tables are suspended until the operator resumes them"
        )

    def alarm(self) -> dict[str, object] | None:
        """The open fault for the operator console, or None."""
        fault = self.fault
        if fault is None:
            return None
        return {"kind": "store-fault", "message": self.reason(), **fault.record(self.errors)}

    def clear(self, fault: StoreFault) -> int:
        """Close ``fault`` (the resume wrote its records); return the errors it counted."""
        with self._lock:
            errors = self.errors
            if self.fault is fault:
                self.fault = None
                self.errors = 0
        log.warning("store fault cleared: %s", fault.reason)
        return errors
