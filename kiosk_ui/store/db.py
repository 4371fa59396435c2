"""The embedded store: one SQLite file in WAL mode holding the ledger and the game log.

One file means one transaction covers a game action's log records and its
ledger rows, so a crash can never leave them disagreeing. Writers take
``BEGIN IMMEDIATE`` under a process-wide lock; SQLite serialises them anyway,
and the lock keeps the in-memory journal head in step with what is durable.

Durability: ``synchronous=FULL`` (the default) makes every commit survive a
power cut; ``NORMAL`` survives a process crash (kill -9) but may lose the last
commits on power loss while staying consistent. The SQL is plain enough
(no SQLite-only types) that a PostgreSQL store can implement the same methods.

A store is made only where there is none (``croupier store init``, or
``create=True``: ``serve`` on a directory with neither database nor keys, library
callers): opening one whose database is missing or empty beside its signing keys,
lacks any of its tables, or has lost its keys under a log is refused, naming what
is missing, so a lost database is never quietly replaced by an empty one signed
with the same key. One process writes a
store at a time: :class:`StoreLock` holds an exclusive ``flock`` on
``<store>/croupier.lock`` for the Database's life (the kernel drops it when the
holder dies, so a killed server never blocks the next); readers (``log verify``,
``ledger audit``) open the file read-only and take no lock.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from kiosk_ui.errors import StoreError
from kiosk_ui.store.faults import StoreHealth
from kiosk_ui.store.schema import DB_NAME, SCHEMA, SCHEMA_VERSION, TABLES
from kiosk_ui.store.tx import SqliteTx

LOCK_NAME = "croupier.lock"  # held (flock) by the one process writing the store
KEYS_DIR = "keys"  # the log's signing keys (certification.log.keys.KeyStore)
MAX_GROUP = 64  # units of work per group commit at most
CHECKPOINT_EVERY = 0.05  # seconds between checkpoints of what the writers committed
PROBE_BYTES = 4 << 20  # free space a resume after a store fault proves by writing it
PROBE_NAME = "croupier.probe"

INIT_HINT = "croupier store init"


def schema_mismatch(directory: str | Path, found: int) -> str:
    """Why a store of another schema is refused (no silent migration of money records)."""
    if found == 1:
        return (
            f"store {directory} has schema 1, whose ledger rows do not name their log "
            f"records' hashes; this build expects {SCHEMA_VERSION} and cannot audit it: "
            "audit and cash out with the build that made it, then start a new store"
        )
    return f"store {directory} has schema {found}, this build expects {SCHEMA_VERSION}"


def keys_present(directory: Path) -> bool:
    """Whether the store directory holds signing keys (any file under ``keys/``)."""
    keys = directory / KEYS_DIR
    return keys.is_dir() and any(keys.iterdir())


def store_exists(directory: str | Path) -> bool:
    """Whether ``directory`` holds a store's database or keys (complete or not)."""
    d = Path(directory)
    return (d / DB_NAME).exists() or (d / f"{DB_NAME}-wal").exists() or keys_present(d)


class UnfinishedStore(StoreError):
    """A store whose creation died before its first log record: ``store init`` completes it."""


class StoreLock:
    """One writer per store: an exclusive ``flock`` on ``<store>/croupier.lock``.

    The file names the holder (pid, host, command, since when) so a refused second
    writer can say who has the store. ``flock`` belongs to the open file and the
    kernel releases it when the process dies, so a stale file never blocks.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder_text(self.path)
            os.close(self._fd)
            raise StoreError(
                f"store {directory} is in use by {holder}: one writer per store "
                f"(croupier log verify and ledger audit may read it meanwhile)"
            ) from None
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "command": shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]])[:300],
            "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, (json.dumps(info) + "\n").encode(), 0)

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the file releases the flock
            self._fd = -1


def _holder_text(path: Path) -> str:
    try:
        info = json.loads(path.read_text())
        return f"pid {info['pid']} on {info['host']} ({info['command']}) since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process (its details are not readable)"


class Database:
    """A Croupier store directory: ``croupier.db`` plus the signing keys.

    ``create=False`` (what ``croupier serve`` uses) opens an existing store only;
    ``create=True`` also makes one where there is none yet (nothing in the
    directory, or a first start that died before anything was logged). Either way
    a damaged store is refused with :class:`StoreError` naming what is missing.
    """

    #: what the driver raises (beside StoreError) when the store fails
    errors: tuple[type[Exception], ...] = (sqlite3.Error,)

    def __init__(
        self, directory: str | Path, *, synchronous: str = "FULL", create: bool = False
    ) -> None:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise StoreError(f"unknown synchronous mode {synchronous!r}")
        self.directory = Path(directory)
        db_file = self.directory / DB_NAME
        keys = self.directory / KEYS_DIR
        if not store_exists(self.directory) and not create:
            raise StoreError(f"no store at {self.directory}: create it with {INIT_HINT}")
        if not (db_file.exists() or (self.directory / f"{DB_NAME}-wal").exists()) and (
            keys_present(self.directory)
        ):
            raise StoreError(
                f"store missing but its signing keys exist in {keys}: restore the database "
                f"({db_file}) from a backup, or move the keys away (keep them for the "
                f"auditor) and create a new store with {INIT_HINT}"
            )
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._store_lock = StoreLock(self.directory)
        except OSError as exc:
            raise StoreError(f"cannot open store {directory}: {exc}") from None
        try:
            self.conn = sqlite3.connect(
                db_file,
                isolation_level=None,
                check_same_thread=False,
                timeout=30,
                factory=SqliteTx,
            )
            fresh = self._check(db_file, keys, create=create)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute(f"PRAGMA synchronous={synchronous}")
            # WAL pages are copied back to the database by a thread of its own
            # (:class:`_Checkpointer`), not inside some unlucky writer's COMMIT.
            self.conn.execute("PRAGMA wal_autocheckpoint=0")
            self.conn.execute("PRAGMA foreign_keys=ON")
            if fresh:
                # One transaction: a kill during first start leaves no half-made schema.
                self.conn.executescript(
                    "BEGIN IMMEDIATE;\n"
                    + SCHEMA
                    + f"\nINSERT INTO meta (key, value) VALUES ('schema', '{SCHEMA_VERSION}');"
                    + "\nCOMMIT;"
                )
        except StoreError:
            self._abandon()
            raise
        except (sqlite3.Error, OSError) as exc:
            self._abandon()
            raise StoreError(f"cannot open store {directory}: {exc}") from None
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
        self._checkpointer = _Checkpointer(self.directory / DB_NAME, synchronous, self.health)

    @property
    def handle(self) -> SqliteTx:
        """The connection outside any unit of work (see :attr:`Store.handle`)."""
        return self.conn

    @contextmanager
    def read(self) -> Iterator[SqliteTx]:
        """Reads under the store lock, outside any transaction of their own."""
        with self.lock:
            yield self.conn

    def audit(self) -> dict[str, Any]:
        """The ledger audit on the open store (under its lock; see :mod:`.audit`)."""
        from kiosk_ui.store.audit import audit_connection

        with self.lock:
            return audit_connection(self.conn)

    @contextmanager
    def transaction(self, *, defer: bool = False) -> Iterator[SqliteTx]:
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
            self.health.refuse()  # while a fault is open, even a unit that would fit
            if not self._in_tx:
                self._execute("BEGIN IMMEDIATE", "begin")
                self._in_tx = True
                self._group += 1
                self._members = 0
            group = self._group
            self._execute("SAVEPOINT unit", "unit")
            self._depth = 1
            failure: BaseException | None = None
            try:
                yield self.conn
            except BaseException as exc:
                failure = self.health.report(exc, "unit") or exc
                if not self._undo_unit():
                    self._abort(group, failure)  # SQLite dropped the whole transaction
            finally:
                self._depth = 0
            if self._in_tx and self._group == group:
                try:
                    self.conn.execute("RELEASE unit")
                except sqlite3.Error as exc:
                    self._abort(group, self.health.report(exc, "unit") or exc)
            self._members += 1
            with self._counter:
                others_waiting = self._waiting > 0
            if group in self._failed:
                pass  # gone already: nothing to commit or wait for
            elif defer and failure is None:
                pass  # left open: the caller commits it (commit_open) before answering
            elif others_waiting and self._members < MAX_GROUP:
                while self._committed < group and group not in self._failed:
                    self._cond.wait()
            else:
                self._commit(group)
            if group in self._failed and failure is None:
                failure = self._error_of(group)
            if failure is not None:
                raise failure
        finally:
            self.lock.release()

    def _execute(self, sql: str, where: str) -> None:
        """Run one control statement; an I/O error becomes the store fault's error."""
        try:
            self.conn.execute(sql)
        except sqlite3.Error as exc:
            raise (self.health.report(exc, where) or exc) from None

    def _undo_unit(self) -> bool:
        """Roll the failed unit back to its savepoint; False if SQLite had already rolled
        back the whole group transaction (it may, on a full disk or an I/O error)."""
        if not self.conn.in_transaction:
            return False
        try:
            self.conn.execute("ROLLBACK TO unit")
        except sqlite3.Error:
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
        self._committed = group
        self._cond.notify_all()

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            with suppress(sqlite3.Error):  # nothing else to do: the next BEGIN finds out
                self.conn.execute("ROLLBACK")

    def _error_of(self, group: int) -> StoreError:
        """A fresh copy of the error ``group`` failed with (one per unit that raises it)."""
        err = self._failed[group]
        return type(err)(str(err))

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
        except sqlite3.Error as exc:
            # A failed COMMIT (or its fsync) may have been rolled back by SQLite already.
            self._rollback()
            self._failed[group] = self.health.report(exc, "commit") or StoreError(
                f"commit failed: {exc}"
            )
        finally:
            self._in_tx = False
            self._committed = group
            self._cond.notify_all()

    def probe(self) -> None:
        """Prove the store writable after a fault: write and fsync :data:`PROBE_BYTES` in
        its directory (the disk has room again) and checkpoint the WAL into the database
        file (the write that fails first on a full disk). Raises
        :class:`~kiosk_ui.errors.StoreUnavailable` if either fails."""
        path = self.directory / PROBE_NAME
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                block = bytes(1 << 16)
                for _ in range(PROBE_BYTES // len(block)):
                    os.write(fd, block)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            fault = self.health.report(exc, "probe") or StoreError(f"probe failed: {exc}")
            raise fault from None
        finally:
            with suppress(OSError):
                path.unlink(missing_ok=True)
        with self.lock:
            if self._in_tx:
                return  # a group is open: its commit is the rest of the proof
            try:
                self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error as exc:
                unavailable = self.health.report(exc, "probe")
                if unavailable is not None:  # busy (the checkpoint thread) proves nothing bad
                    raise unavailable from None

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

    def _check(self, db_file: Path, keys: Path, *, create: bool) -> bool:
        """Refuse a damaged store; return whether the schema is still to be made."""
        names = {
            str(n)
            for (n,) in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        has_keys = keys_present(self.directory)
        if not names:  # a zero-length file, or a first start that died before its schema
            if has_keys:
                size = db_file.stat().st_size if db_file.exists() else 0
                raise StoreError(
                    f"store database {db_file} is empty ({size} bytes) but its signing keys "
                    f"exist in {keys}: restore the database from a backup; an empty store "
                    f"is never started in its place"
                )
            if not create:
                raise StoreError(f"no store at {self.directory}: create it with {INIT_HINT}")
            return True
        missing = [t for t in TABLES if t not in names]
        if missing:
            raise StoreError(
                f"store database {db_file} is missing its tables ({', '.join(missing)}): "
                f"restore it from a backup"
            )
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            raise StoreError(
                f"store database {db_file} has no schema version: not a Croupier store"
            )
        if int(row[0]) != SCHEMA_VERSION:
            raise StoreError(schema_mismatch(self.directory, int(row[0])))
        if not has_keys:
            logged = self.conn.execute("SELECT COUNT(*) FROM log").fetchone()[0]
            if not logged and not create:  # a first start that died before its first record
                raise UnfinishedStore(
                    f"store {self.directory} was never finished: complete it with {INIT_HINT}"
                )
            if logged:
                raise StoreError(
                    f"store {self.directory} has a database with {logged} log records but its "
                    f"signing keys are missing ({keys}): restore the keys directory from a backup"
                )
        return False

    def _abandon(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.close()
        self._store_lock.release()

    def close(self) -> None:
        self._checkpointer.stop()
        with self.lock:
            self.conn.close()
        self._store_lock.release()


class _Checkpointer(threading.Thread):
    """Copies committed WAL pages back into the database file, off the writers' path.

    With SQLite's automatic checkpoint, the COMMIT that crosses the threshold also
    copies (and under FULL, fsyncs) the whole WAL while holding the store lock, and
    every request waits behind it. A PASSIVE checkpoint from a connection of its own
    runs beside the writer instead and never blocks it; SQLite restarts the WAL from
    the top once a checkpoint has caught up.
    """

    def __init__(
        self,
        path: Path,
        synchronous: str,
        health: StoreHealth,
        *,
        every: float = CHECKPOINT_EVERY,
    ) -> None:
        super().__init__(name="croupier-checkpoint", daemon=True)
        self.path = path
        self.synchronous = synchronous
        self.health = health
        self.every = every
        self._stop_event = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute(f"PRAGMA synchronous={self.synchronous}")
        except sqlite3.Error:
            return  # the store's own connection reports problems with the file
        try:
            while not self._stop_event.wait(self.every):
                try:  # cheap when there is nothing new; small steps keep each fsync short
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as exc:
                    # A full disk or an I/O error suspends the tables (the WAL can no
                    # longer be emptied); busy: try again next turn.
                    self.health.report(exc, "checkpoint")
                    continue
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            pass
        finally:
            conn.close()

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=10)
