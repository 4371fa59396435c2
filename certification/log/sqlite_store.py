"""The log's table inside the appliance's SQLite store, and reading it back.

The log lives in the same database file as the wallet ledger, so one
transaction writes a game's log records and its ledger rows together: the two
can never disagree after a crash. ``croupier log verify --store DIR`` reads this
table directly; ``croupier log export`` writes its records as JSON lines.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from certification.log.chain import StoredRecord
from certification.log.errors import LogFormatError

DB_NAME = "croupier.db"

LOG_DDL = """
CREATE TABLE IF NOT EXISTS log (
    seq  INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    type TEXT NOT NULL,
    game TEXT NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS log_by_game ON log(game, seq) WHERE game != '';
CREATE INDEX IF NOT EXISTS log_keys ON log(seq) WHERE type IN ('log-start', 'key-rotation');
CREATE TABLE IF NOT EXISTS log_verified (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    seq       INTEGER NOT NULL,
    hash      TEXT NOT NULL,
    tree      TEXT NOT NULL,
    key_id    TEXT NOT NULL,
    signature TEXT NOT NULL
);
"""
# log_keys: the key chain (log-start and rotations) is read at every start without a
# scan of the log. log_verified: the last checkpoint the start-up check (or a clean
# stop) vouched for, with the RFC 6962 tree at it, signed (certification.log.integrity).


def db_path(store_dir: str | Path) -> Path:
    return Path(store_dir) / DB_NAME


def open_readonly(store_dir: str | Path) -> sqlite3.Connection:
    """Open a store's database read-only (a regulator's verification changes nothing)."""
    path = db_path(store_dir)
    if not path.exists():
        raise LogFormatError(f"no Croupier store at {store_dir} (missing {DB_NAME})")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        # After a crash SQLite must first recover the write-ahead log, which a
        # read-only handle cannot do; a query-only handle can, and changes no data.
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA query_only = ON")
        return conn


def insert(conn: sqlite3.Connection, records: Iterable[StoredRecord]) -> None:
    conn.executemany(
        "INSERT INTO log (seq, hash, type, game, data) VALUES (?, ?, ?, ?, ?)",
        [(r.seq, r.hash, r.type, r.game, r.data) for r in records],
    )


def last_seq(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log").fetchone()[0])


def record(conn: sqlite3.Connection, seq: int) -> bytes | None:
    row = conn.execute("SELECT data FROM log WHERE seq = ?", (seq,)).fetchone()
    return None if row is None else bytes(row[0])


def chunks(
    conn: sqlite3.Connection, after: int = 0, upto: int | None = None, size: int = 20_000
) -> Iterator[list[bytes]]:
    """The records after seq ``after`` (through ``upto``), in seq order, ``size`` at a time:
    a million-record log is read without holding it all in memory."""
    top = upto if upto is not None else 2**63 - 1
    while True:
        rows = conn.execute(
            "SELECT seq, data FROM log WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
            (after, top, size),
        ).fetchall()
        if not rows:
            return
        after = int(rows[-1][0])
        yield [bytes(d) for _, d in rows]


def key_records(conn: sqlite3.Connection) -> list[bytes]:
    """The log-start and key-rotation records (the key chain), in seq order."""
    return [
        bytes(d)
        for (d,) in conn.execute(
            "SELECT data FROM log WHERE type IN ('log-start', 'key-rotation') ORDER BY seq"
        )
    ]


def lines(conn: sqlite3.Connection) -> list[bytes]:
    """Every record's exact bytes, in seq order."""
    return [bytes(d) for (d,) in conn.execute("SELECT data FROM log ORDER BY seq")]


def game_lines(conn: sqlite3.Connection, game: str) -> Iterator[bytes]:
    for (d,) in conn.execute("SELECT data FROM log WHERE game = ? ORDER BY seq", (game,)):
        yield bytes(d)
