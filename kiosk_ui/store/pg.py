"""The PostgreSQL store: the same schema, repositories and guarantees on a database server.

Chosen by URL (:mod:`kiosk_ui.store.location`): the store directory keeps the signing
keys and the writer lock, the server keeps everything :mod:`kiosk_ui.store.schema`
declares (stated for PostgreSQL by :func:`kiosk_ui.store.sql.postgres_ddl`), in the
connection's current schema. Every query is the repositories' one copy, translated by
:class:`PgTx`; units of work and their group commit are
:class:`~kiosk_ui.store.group.GroupCommit`'s, exactly as on SQLite: a unit's log
records and ledger rows in one transaction, and nobody answered before the COMMIT
holding their work returned (``synchronous_commit = on``: flushed to the server's WAL,
and to a synchronous standby's when ``synchronous_standby_names`` asks for one).

One writer per database: the store holds a session advisory lock
(``pg_try_advisory_lock``) for its life; PostgreSQL drops it when the holder's
connection ends (its process died, its host went away), so the next writer takes the
store over without anybody clearing a stale lock, and a second writer meanwhile is
refused naming the holder (its ``application_name``: pid, host, command). A writer
that lost its connection lost the lock with it: it writes nothing more until
:meth:`PgDatabase.probe` (the operator's resume) reconnects and takes the lock again.

A shared store (``[store] shared``: a floor's appliances, ``serve --workers``) holds
the first lock in share mode, and each writer appends a log chain of its own
(:mod:`certification.log.chains`), held by a second session lock on the chain's name
so no two processes ever append one chain. Their transactions take no lock of the
store's: they run side by side, serialised only where they touch the same rows (a
player's wallet, a table's lease, the house's accounts), by PostgreSQL's row locks.
"""

from __future__ import annotations

import os
import shlex
import socket
import sys
from collections.abc import Iterable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

from kiosk_ui.errors import StoreError
from kiosk_ui.store.db import (
    INIT_HINT,
    KEYS_DIR,
    StoreLock,
    UnfinishedStore,
    keys_present,
    schema_mismatch,
)
from kiosk_ui.store.group import GroupCommit
from kiosk_ui.store.location import URL_FILE, Location, appliance_name, public, remember
from kiosk_ui.store.schema import LEASES_DDL, SCHEMA, SCHEMA_VERSION, TABLES
from kiosk_ui.store.sql import Dialect, Rows, postgres_ddl, to_postgres
from kiosk_ui.store.tx import Repositories

LOCK_CLASS = 0x43525550  # "CRUP": the advisory lock's first key (its second: the schema)
#: a shared store's log chain, held by its one writer for the session (second key: the
#: schema and the chain's name)
CHAIN_CLASS = LOCK_CLASS + 1
#: shared openers' DDL, one at a time: PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe
#: against itself (two at once: "duplicate key ... pg_type_typname_nsp_index")
DDL_CLASS = LOCK_CLASS + 2
#: the server's durability per ``[store] synchronous`` (NORMAL: a crash of the server
#: may lose the last commits, never consistency, as SQLite's NORMAL on power loss)
SYNCHRONOUS = {"FULL": "on", "EXTRA": "on", "NORMAL": "off"}


class PgTx(Repositories):
    """A PostgreSQL connection as the store's unit of work (see :mod:`kiosk_ui.store.tx`).

    ``execute`` takes the repositories' ``?`` statements (translated once each, then
    prepared by the server after a few runs); each call has a cursor of its own, so a
    result can be iterated while other statements run."""

    dialect: Dialect = "postgresql"

    def __init__(self, pg: psycopg.Connection[Any]) -> None:
        self.pg = pg
        self._sql: dict[str, str] = {}
        self._attach()

    def _q(self, sql: str) -> str:
        q = self._sql.get(sql)
        if q is None:
            q = self._sql[sql] = to_postgres(sql)
        return q

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Rows:
        return self.pg.execute(self._q(sql), parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> psycopg.Cursor[Any]:
        cur = self.pg.cursor()
        cur.executemany(self._q(sql), parameters)
        return cur

    def script(self, sql: str) -> None:
        """Run several statements with no parameters (the DDL) as they are."""
        self.pg.execute(sql.encode())

    @property
    def in_transaction(self) -> bool:
        return self.pg.info.transaction_status != TransactionStatus.IDLE

    @property
    def broken(self) -> bool:
        return self.pg.closed or self.pg.broken

    def close(self) -> None:
        self.pg.close()


def _shown(arg: str) -> str:
    """A command-line argument as ``pg_stat_activity`` may show it to any role of the
    server: a URL or a ``password=`` argument (which may hold the password) as ``...``."""
    return "..." if "://" in arg or "password" in arg.lower() else arg


def connect(url: str, *, readonly: bool = False) -> psycopg.Connection[Any]:
    """A connection to the store's server: autocommit (the store says BEGIN and COMMIT
    itself), named for ``pg_stat_activity`` by pid, host and command."""
    who = shlex.join([Path(sys.argv[0]).name, *map(_shown, sys.argv[1:])])[:40]
    name = f"croupier pid {os.getpid()} on {socket.gethostname()} ({who})"[:63]
    try:
        pg = psycopg.connect(url, autocommit=not readonly, application_name=name)
    except psycopg.Error as exc:
        raise StoreError(f"cannot reach the store's database {public(url)}: {exc}") from None
    if readonly:  # one consistent snapshot for the whole read (an audit while play goes on)
        pg.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        pg.read_only = True
    return pg


def open_readonly(url: str) -> PgTx:
    """The store's database read-only, on one snapshot (``log verify``, ``ledger audit``)."""
    return PgTx(connect(url, readonly=True))


class PgDatabase(GroupCommit[PgTx]):
    """A store whose database is a PostgreSQL server (see the module docstring).

    ``create`` and the refusals are :class:`~kiosk_ui.store.db.Database`'s: a store is
    made only where there is none, and a database emptied or missing tables beside
    existing signing keys is refused, never started afresh."""

    errors: tuple[type[Exception], ...] = (psycopg.Error,)
    BEGIN = "BEGIN"

    def __init__(
        self,
        location: Location,
        *,
        synchronous: str = "FULL",
        create: bool = False,
        shared: bool = False,
        worker: int | None = None,
    ) -> None:
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"unknown synchronous mode {synchronous!r}")
        assert location.url is not None
        self.directory = location.directory
        self.url = location.url
        self.synchronous = synchronous
        self.shared = shared
        keys = self.directory / KEYS_DIR
        # an appliance joins a floor's store with its keys and the database's URL
        if (
            not create
            and not (self.directory / URL_FILE).exists()
            and not keys_present(self.directory)
        ):
            raise StoreError(f"no store at {self.directory}: create it with {INIT_HINT}")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._store_lock = StoreLock(self.directory, shared=shared)
            # the chain this writer appends (its table leases' holder name too)
            self.appliance = appliance_name(self.directory, worker) if shared else ""
        except OSError as exc:
            raise StoreError(f"cannot open store {self.directory}: {exc}") from None
        try:
            self.conn = PgTx(self._writer_connection())
            self.conn.shard = self.appliance
        except BaseException:
            self._store_lock.release()
            raise
        try:
            if self._check(keys, create=create):
                self.conn.script(
                    "BEGIN;\n"
                    + postgres_ddl(SCHEMA)
                    + postgres_ddl(LEASES_DDL)  # a floor's: made by the owner, at creation
                    + f"\nINSERT INTO meta (key, value) VALUES ('schema', '{SCHEMA_VERSION}');"
                    + "\nCOMMIT;"
                )
            if shared and not self._has_floor_tables():
                # workers and appliances open at once: one CREATE at a time. Only when
                # missing: CREATE ... IF NOT EXISTS needs CREATE on the schema even when
                # the table exists, and a floor's role may have rows' rights only.
                self.conn.script(
                    "BEGIN;\n"
                    f"SELECT pg_advisory_xact_lock({DDL_CLASS}, hashtext(current_schema()));\n"
                    + postgres_ddl(LEASES_DDL)
                    + "\nCOMMIT;"
                )
            remember(location)
        except StoreError:
            self._abandon()
            raise
        except (psycopg.Error, OSError) as exc:
            self._abandon()
            raise StoreError(f"cannot open store {self.directory}: {exc}") from None
        self._init_groups()

    def _has_floor_tables(self) -> bool:
        """Whether the schema has the floor's tables (leases, servers) already."""
        row = self.conn.execute(
            "SELECT to_regclass('leases') IS NOT NULL AND to_regclass('servers') IS NOT NULL"
        ).fetchone()
        return bool(row and row[0])

    def _writer_connection(self) -> psycopg.Connection[Any]:
        """Connect and take the store's writer lock (refused, naming its holder)."""
        pg = connect(self.url)
        try:
            pg.execute(
                "SELECT set_config('synchronous_commit', %s, false)",
                (SYNCHRONOUS[self.synchronous],),
            )
            # Alone: the lock exclusively. Shared: the lock in share mode (any number of
            # shared appliances, never beside one that thinks it is alone).
            take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
            row = pg.execute(
                f"SELECT {take}(%s, hashtext(current_schema())), hashtext(current_schema())",
                (LOCK_CLASS,),
            ).fetchone()
            assert row is not None
            if not row[0]:
                holder = self._holder(pg, int(row[1]))
                why = (
                    "a shared appliance waits for a store's only writer to stop"
                    if self.shared
                    else "one writer per store unless every writer shares it ([store] "
                    "shared = true); croupier log verify and ledger audit may read it meanwhile"
                )
                raise StoreError(
                    f"store {self.directory} (database {public(self.url)}) is in use by "
                    f"{holder}: {why}"
                )
            if self.shared:
                self._take_chain(pg)
        except BaseException:
            pg.close()
            raise
        return pg

    def _take_chain(self, pg: psycopg.Connection[Any]) -> None:
        """Take the session lock of this writer's log chain (refused while another
        process appends it: the same appliance, or worker, started twice)."""
        row = pg.execute(
            "SELECT pg_try_advisory_lock(%s, hashtext(current_schema() || '/' || %s))",
            (CHAIN_CLASS, self.appliance),
        ).fetchone()
        assert row is not None
        if not row[0]:
            raise StoreError(
                f"store {self.directory}: the log chain {self.appliance} is appended by "
                "another process already (this appliance or worker runs twice): one "
                "writer per chain"
            )

    @staticmethod
    def _holder(pg: psycopg.Connection[Any], objid: int) -> str:
        row = pg.execute(
            "SELECT a.application_name, a.client_addr, a.backend_start FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
            "AND l.classid = %s AND l.objid = %s AND l.granted",
            (LOCK_CLASS, objid & 0xFFFFFFFF),
        ).fetchone()
        if row is None:
            return "another session"
        where = f" from {row[1]}" if row[1] else ""
        return f"{row[0] or 'a session'}{where} since {row[2]:%Y-%m-%dT%H:%M:%SZ}"

    def _check(self, keys: Path, *, create: bool) -> bool:
        """Refuse a damaged store; return whether the schema is still to be made."""
        names = {
            str(n)
            for (n,) in self.conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }
        has_keys = keys_present(self.directory)
        where = f"{public(self.url)} (schema {self._schema()})"
        if not names & set(TABLES):
            if has_keys:
                raise StoreError(
                    f"store database {where} is empty but its signing keys exist in {keys}: "
                    "restore the database from a backup; an empty store is never started "
                    "in its place"
                )
            if not create:
                raise StoreError(f"no store at {self.directory}: create it with {INIT_HINT}")
            return True
        missing = [t for t in TABLES if t not in names]
        if missing:
            raise StoreError(
                f"store database {where} is missing its tables ({', '.join(missing)}): "
                "restore it from a backup"
            )
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            raise StoreError(f"store database {where} has no schema version: not a Croupier store")
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
                    f"store {self.directory} has a database with {logged} log records but "
                    f"its signing keys are missing ({keys}): restore the keys directory "
                    "from a backup"
                )
        return False

    def _schema(self) -> str:
        return str(self.conn.execute("SELECT current_schema()").fetchone()[0])

    def probe(self) -> None:
        """Prove the store writable after a fault: reconnect if the connection is gone
        (taking the writer lock again: refused if another writer took the store over
        meanwhile) and write a row in a transaction of its own. Raises
        :class:`~kiosk_ui.errors.StoreUnavailable` (or the takeover's StoreError)."""
        with self.lock:
            if self._in_tx and not self.conn.broken:
                return  # a group is open: its commit is the rest of the proof
            try:
                if self.conn.broken:
                    self._in_tx = False
                    self.conn.pg = self._writer_connection()
                self.conn.execute("BEGIN")
                self.conn.execute("UPDATE meta SET value = value WHERE key = 'schema'")
                self.conn.execute("COMMIT")
            except psycopg.Error as exc:
                fault = self.health.report(exc, "probe") or StoreError(f"probe failed: {exc}")
                raise fault from None

    def _abandon(self) -> None:
        self.conn.close()
        self._store_lock.release()

    def close(self) -> None:
        with self.lock:
            self._unlock()
            self.conn.close()  # ends the session: the server drops the writer lock
        self._store_lock.release()

    def _unlock(self) -> None:
        """Drop this session's writer and chain locks before the connection closes: the
        server frees a closed session's locks only once its backend has exited, and the
        same appliance opened again at once (a restart) found its chain still locked."""
        if self.conn.broken:
            return
        with suppress(psycopg.Error):  # gone meanwhile: the server drops them anyway
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            self.conn.execute("SELECT pg_advisory_unlock_all()")
