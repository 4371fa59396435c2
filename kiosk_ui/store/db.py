"""The embedded store: one SQLite file in WAL mode holding the ledger and the game log.

One file means one transaction covers a game action's log records and its
ledger rows, so a crash can never leave them disagreeing. Writers take
``BEGIN IMMEDIATE`` under a process-wide lock; SQLite serialises them anyway,
and the lock keeps the in-memory journal head in step with what is durable.

Durability: ``synchronous=FULL`` (the default) makes every commit survive a
power cut; ``NORMAL`` survives a process crash (kill -9) but may lose the last
commits on power loss while staying consistent. The SQL is plain enough
(no SQLite-only types) that a PostgreSQL store can implement the same methods.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from certification.log.sqlite_store import DB_NAME, LOG_DDL
from kiosk_ui.errors import StoreError

SCHEMA_VERSION = 1

SCHEMA = (
    LOG_DDL
    + """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
    name    TEXT PRIMARY KEY,
    kind    TEXT NOT NULL,
    balance INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS txns (
    id      INTEGER PRIMARY KEY,
    kind    TEXT NOT NULL,
    game    TEXT NOT NULL DEFAULT '',
    memo    TEXT NOT NULL DEFAULT '',
    log_seq INTEGER,
    ts      INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS postings (
    txn     INTEGER NOT NULL REFERENCES txns(id),
    account TEXT NOT NULL REFERENCES accounts(name),
    amount  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS postings_by_account ON postings(account);
CREATE TABLE IF NOT EXISTS players (
    id      TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    variant  TEXT NOT NULL,
    status   TEXT NOT NULL,          -- open, settled, voided, suspended
    started  INTEGER NOT NULL,
    ended    INTEGER,
    source   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status);
CREATE TABLE IF NOT EXISTS game_seats (
    game   TEXT NOT NULL REFERENCES games(id),
    seat   INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id),
    staked INTEGER NOT NULL DEFAULT 0,
    net    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS game_seats_by_player ON game_seats(player);
CREATE TABLE IF NOT EXISTS shoes (
    game  TEXT PRIMARY KEY,
    cards TEXT NOT NULL,             -- server-side only: never served before the reveal
    salt  TEXT NOT NULL,
    next  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS idempotency (
    key      TEXT PRIMARY KEY,
    response TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS operators (
    username TEXT PRIMARY KEY,
    pw_hash  TEXT NOT NULL,
    role     TEXT NOT NULL
);
"""
)


class Database:
    """A Croupier store directory: ``croupier.db`` plus the signing keys."""

    def __init__(self, directory: str | Path, *, synchronous: str = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise StoreError(f"unknown synchronous mode {synchronous!r}")
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(
                self.directory / DB_NAME,
                isolation_level=None,
                check_same_thread=False,
                timeout=30,
            )
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute(f"PRAGMA synchronous={synchronous}")
            self.conn.execute("PRAGMA foreign_keys=ON")
            # One transaction: a kill during first start leaves no half-made schema.
            self.conn.executescript("BEGIN IMMEDIATE;\n" + SCHEMA + "\nCOMMIT;")
            row = self.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self.conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(row[0]) != SCHEMA_VERSION:
                raise StoreError(
                    f"store {directory} has schema {row[0]}, this build expects {SCHEMA_VERSION}"
                )
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open store {directory}: {exc}") from None
        self.lock = threading.RLock()
        self._depth = 0

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit: commits on success, rolls back on any exception. Re-entrant."""
        with self.lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            self.conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            else:
                self.conn.execute("COMMIT")
            finally:
                self._depth = 0

    def close(self) -> None:
        with self.lock:
            self.conn.close()
