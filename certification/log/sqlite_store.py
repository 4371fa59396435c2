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

from certification.log.chain import CHECKPOINT, GENESIS_PREV, StoredRecord
from certification.log.errors import LogFormatError
from certification.log.merkle import leaf_hash

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
"""


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


def head(conn: sqlite3.Connection) -> tuple[int, str, list[bytes]]:
    """``(last seq, last hash, leaf hashes since the last checkpoint)``."""
    row = conn.execute("SELECT seq, hash FROM log ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:
        return 0, GENESIS_PREV, []
    seq, hash_ = int(row[0]), str(row[1])
    cp = conn.execute(
        "SELECT COALESCE(MAX(seq), 0) FROM log WHERE type = ?", (CHECKPOINT,)
    ).fetchone()[0]
    leaves = [
        leaf_hash(bytes(d))
        for (d,) in conn.execute("SELECT data FROM log WHERE seq > ? ORDER BY seq", (cp,))
    ]
    return seq, hash_, leaves


def lines(conn: sqlite3.Connection) -> list[bytes]:
    """Every record's exact bytes, in seq order."""
    return [bytes(d) for (d,) in conn.execute("SELECT data FROM log ORDER BY seq")]


def game_lines(conn: sqlite3.Connection, game: str) -> Iterator[bytes]:
    for (d,) in conn.execute("SELECT data FROM log WHERE game = ? ORDER BY seq", (game,)):
        yield bytes(d)
