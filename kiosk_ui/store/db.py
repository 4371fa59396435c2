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
import hashlib
import json
import os
import shlex
import socket
import sqlite3
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path

from kiosk_ui.errors import StoreError
from kiosk_ui.store.faults import StoreHealth
from kiosk_ui.store.group import GroupCommit
from kiosk_ui.store.location import appliance_name
from kiosk_ui.store.schema import DB_NAME, LEASES_DDL, SCHEMA, SCHEMA_VERSION, TABLES
from kiosk_ui.store.tx import SqliteTx

LOCK_NAME = "croupier.lock"  # held (flock) by the one process writing the store
KEYS_DIR = "keys"  # the log's signing keys (certification.log.keys.KeyStore)
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
    if found == 2:
        return (
            f"store {directory} has schema 2, one log chain for the whole store; this build "
            f"expects {SCHEMA_VERSION} (a chain per writer) and does not rewrite a signed "
            "log: verify, audit and cash out with the build that made it, then start a new "
            "store (keep the old one for the auditor)"
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

    def __init__(self, directory: Path, *, shared: bool = False) -> None:
        # shared: the workers of one appliance (serve --workers) hold it together
        self.path = directory / LOCK_NAME
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except OSError:
            holder = _holder_text(self.path)
            os.close(self._fd)
            raise StoreError(
                f"store {directory} is in use by {holder}: one writer per store "
                f"(croupier log verify and ledger audit may read it meanwhile)"
            ) from None
        if shared:
            return  # the lock file names the store's only writer, not its workers
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


class ChainLock:
    """One writer per log chain of a shared store: an exclusive ``flock`` on
    ``<store>/chains/<digest of the chain's name>.lock`` (a worker or appliance started
    twice is refused; the kernel drops the lock when its holder dies)."""

    def __init__(self, directory: Path, chain: str) -> None:
        folder = directory / "chains"
        folder.mkdir(exist_ok=True)
        name = hashlib.sha256(chain.encode()).hexdigest()[:24]
        self._fd = os.open(folder / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._fd)
            raise StoreError(
                f"store {directory}: the log chain {chain} is appended by another process "
                "already (this appliance or worker runs twice): one writer per chain"
            ) from None

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _private_file(path: Path) -> None:
    """Create ``path`` empty, readable by its owner only, unless it exists: the database
    holds the operators' password hashes, the players' names and wallets, so another
    local user of the host does not read it (nor its WAL, which follows its mode)."""
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _holder_text(path: Path) -> str:
    try:
        info = json.loads(path.read_text())
        return f"pid {info['pid']} on {info['host']} ({info['command']}) since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process (its details are not readable)"


class Database(GroupCommit[SqliteTx]):
    """A Croupier store directory: ``croupier.db`` plus the signing keys.

    ``create=False`` (what ``croupier serve`` uses) opens an existing store only;
    ``create=True`` also makes one where there is none yet (nothing in the
    directory, or a first start that died before anything was logged). Either way
    a damaged store is refused with :class:`StoreError` naming what is missing.
    """

    #: what the driver raises (beside StoreError) when the store fails
    errors: tuple[type[Exception], ...] = (sqlite3.Error,)
    #: how a group transaction starts (SQLite: take the write lock at once)
    BEGIN = "BEGIN IMMEDIATE"

    def __init__(
        self,
        directory: str | Path,
        *,
        synchronous: str = "FULL",
        create: bool = False,
        shared: bool = False,
        worker: int | None = None,
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
            self._store_lock = StoreLock(self.directory, shared=shared)
        except OSError as exc:
            raise StoreError(f"cannot open store {directory}: {exc}") from None
        # shared: the workers of one appliance write it by turns (BEGIN IMMEDIATE is the
        # writer lock across processes; see kiosk_ui.store.leases)
        self.shared = shared
        self.begin_waits = shared
        try:
            if create:  # made 0600: SQLite gives its -wal and -shm the database's mode
                _private_file(db_file)
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
            if shared:
                self._writer_fd = os.open(
                    self.directory / "croupier.writer", os.O_RDWR | os.O_CREAT, 0o600
                )
                self.conn.executescript(LEASES_DDL)
                self.appliance = appliance_name(self.directory, worker)
                self._chain_lock = ChainLock(self.directory, self.appliance)
                self.conn.shard = self.appliance
        except StoreError:
            self._abandon()
            raise
        except (sqlite3.Error, OSError) as exc:
            self._abandon()
            raise StoreError(f"cannot open store {directory}: {exc}") from None
        self._init_groups()
        self._checkpointer = _Checkpointer(self.directory / DB_NAME, synchronous, self.health)

    def _begin(self) -> None:
        """BEGIN IMMEDIATE; the workers of a shared store first queue on an exclusive
        ``flock`` of their own (``croupier.writer``): the kernel wakes the next waiter
        the moment a group ends, where SQLite's busy handler would poll with sleeps of up
        to 100 ms. Released when the group ends (:meth:`_ended`)."""
        if self.shared:
            fcntl.flock(self._writer_fd, fcntl.LOCK_EX)
        try:
            self._execute(self.BEGIN, "begin")
        except BaseException:
            self._ended()
            raise

    def _await_writer(self) -> None:
        """Queue on ``croupier.writer`` (the other workers' groups) without the store
        lock; the group's ``_begin`` then finds the flock held (same file: no wait)."""
        if self.shared:
            fcntl.flock(self._writer_fd, fcntl.LOCK_EX)

    def _ended(self) -> None:
        if self.shared:
            fcntl.flock(self._writer_fd, fcntl.LOCK_UN)

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
        chain = getattr(self, "_chain_lock", None)
        if chain is not None:
            chain.release()
        self._store_lock.release()

    def close(self) -> None:
        self._checkpointer.stop()
        with self.lock:
            self.conn.close()
            if self.shared:
                os.close(self._writer_fd)
                self._chain_lock.release()
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
