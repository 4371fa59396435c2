"""The game log's rows in the SQLite store (the ``log`` table), written and read back.

The log lives in the same database file as the wallet ledger, so one transaction
writes a game's log records and its ledger rows together: the two can never disagree
after a crash. Each row is a record's exact bytes (``data``) with the columns the
queries need (chain, seq, hash, type, game: a store has a chain per writer); what a
record is, and how it is checked, is :mod:`certification.log`'s. :class:`SqliteLog`
is the store's log repository (and the verifier's
:class:`~certification.log.reader.LogReader` of one chain); the module functions are
the same statements on a bare connection (the audit, tests and benches use them), on
either backend (:mod:`kiosk_ui.store.sql`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from certification.log.chain import StoredRecord
from certification.log.errors import LogFormatError
from certification.log.reader import VerifiedPosition
from kiosk_ui.store import checkpoints
from kiosk_ui.store.location import stored_url
from kiosk_ui.store.schema import DB_NAME
from kiosk_ui.store.sql import Conn


def db_path(store_dir: str | Path) -> Path:
    return Path(store_dir) / DB_NAME


def connect_readonly(
    store_dir: str | Path, factory: type[sqlite3.Connection]
) -> sqlite3.Connection:
    """Open a store's database read-only (a regulator's verification changes nothing)."""
    path = db_path(store_dir)
    if not path.exists():
        raise LogFormatError(f"no Croupier store at {store_dir} (missing {DB_NAME})")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, factory=factory)
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        # After a crash SQLite must first recover the write-ahead log, which a
        # read-only handle cannot do; a query-only handle can, and changes no data.
        conn = sqlite3.connect(path, factory=factory)
        conn.execute("PRAGMA query_only = ON")
        return conn


def open_readonly(store_dir: str | Path) -> Conn:
    """A plain read-only connection to a store's database (see :func:`connect_readonly`;
    a PostgreSQL store's: :func:`kiosk_ui.store.pg.open_readonly`). Close it after use."""
    url = stored_url(Path(store_dir))
    if url is not None:
        from kiosk_ui.store import pg

        return pg.open_readonly(url)
    return connect_readonly(store_dir, sqlite3.Connection)


def insert(conn: Conn, records: Iterable[StoredRecord]) -> None:
    conn.executemany(
        "INSERT INTO log (chain, seq, hash, type, game, data) VALUES (?, ?, ?, ?, ?, ?)",
        [(r.chain, r.seq, r.hash, r.type, r.game, r.data) for r in records],
    )


def last_seq(conn: Conn, chain: str = "") -> int:
    """The head of ``chain`` (0 for a chain with no record yet)."""
    row = conn.execute("SELECT MAX(seq) FROM log WHERE chain = ?", (chain,)).fetchone()
    return int(row[0] or 0)


def record(conn: Conn, seq: int, chain: str = "") -> bytes | None:
    row = conn.execute("SELECT data FROM log WHERE chain = ? AND seq = ?", (chain, seq)).fetchone()
    return None if row is None else bytes(row[0])


def chunks(
    conn: Conn, after: int = 0, upto: int | None = None, size: int = 20_000, chain: str = ""
) -> Iterator[list[bytes]]:
    """The records of ``chain`` after seq ``after`` (through ``upto``), in seq order,
    ``size`` at a time: a million-record log is read without holding it all in memory."""
    top = upto if upto is not None else 2**63 - 1
    while True:
        rows = conn.execute(
            "SELECT seq, data FROM log WHERE chain = ? AND seq > ? AND seq <= ? "
            "ORDER BY seq LIMIT ?",
            (chain, after, top, size),
        ).fetchall()
        if not rows:
            return
        after = int(rows[-1][0])
        yield [bytes(d) for _, d in rows]


def key_records(conn: Conn, chain: str = "") -> list[bytes]:
    """The log-start and key-rotation records of ``chain`` (its key chain), in seq order."""
    return [
        bytes(d)
        for (d,) in conn.execute(
            "SELECT data FROM log WHERE chain = ? AND type IN ('log-start', 'key-rotation') "
            "ORDER BY seq",
            (chain,),
        )
    ]


def chains(conn: Conn) -> list[str]:
    """Every chain of the store, by name."""
    return [str(c) for (c,) in conn.execute("SELECT DISTINCT chain FROM log ORDER BY chain")]


def rows(conn: Conn, size: int = 20_000) -> Iterator[list[tuple[str, bytes]]]:
    """Every record of every chain as ``(chain, bytes)``, in the store's order (each chain
    in seq order, a game's records in the order they were written), ``size`` at a time."""
    after = 0
    while True:
        got = conn.execute(
            "SELECT id, chain, data FROM log WHERE id > ? ORDER BY id LIMIT ?", (after, size)
        ).fetchall()
        if not got:
            return
        after = int(got[-1][0])
        yield [(str(c), bytes(d)) for _, c, d in got]


def lines(conn: Conn) -> list[bytes]:
    """Every record's exact bytes, every chain, in the store's order."""
    return [bytes(d) for (d,) in conn.execute("SELECT data FROM log ORDER BY id")]


def game_lines(conn: Conn, game: str) -> Iterator[bytes]:
    """One game's records in the order written, across chains (a game taken over by
    another writer continues in that writer's chain)."""
    for (d,) in conn.execute("SELECT data FROM log WHERE game = ? ORDER BY id", (game,)):
        yield bytes(d)


def has_game_end(conn: Conn, game: str) -> bool:
    """Whether the log holds a ``game-end`` record of ``game`` (in any chain)."""
    return (
        conn.execute(
            "SELECT 1 FROM log WHERE game = ? AND type = 'game-end' LIMIT 1", (game,)
        ).fetchone()
        is not None
    )


class SqliteLog:
    """The log repository of one connection, reading one chain (``chain``; ``""``: the
    log of a store one process writes alone): writes records (each into its own
    chain), reads the chain back in order, and the whole store's records across
    chains (``rows``, ``lines``, ``game_lines``)."""

    __slots__ = ("_conn", "_views", "chain")

    def __init__(self, conn: Conn, chain: str = "") -> None:
        self._conn = conn
        self.chain = chain
        self._views: dict[str, SqliteLog] = {}

    def of(self, chain: str) -> SqliteLog:
        """The same repository reading chain ``chain``."""
        if chain == self.chain:
            return self
        view = self._views.get(chain)
        if view is None:
            view = self._views[chain] = SqliteLog(self._conn, chain)
        return view

    def insert(self, records: Iterable[StoredRecord]) -> None:
        insert(self._conn, records)

    def last_seq(self) -> int:
        return last_seq(self._conn, self.chain)

    def record(self, seq: int) -> bytes | None:
        return record(self._conn, seq, self.chain)

    def chunks(
        self, after: int = 0, upto: int | None = None, size: int = 20_000
    ) -> Iterator[list[bytes]]:
        return chunks(self._conn, after, upto, size, self.chain)

    def key_records(self) -> list[bytes]:
        return key_records(self._conn, self.chain)

    def verified(self) -> VerifiedPosition | None:
        return checkpoints.read(self._conn, self.chain)

    def chains(self) -> list[str]:
        return chains(self._conn)

    def rows(self, size: int = 20_000) -> Iterator[list[tuple[str, bytes]]]:
        return rows(self._conn, size)

    def lines(self) -> list[bytes]:
        return lines(self._conn)

    def game_lines(self, game: str) -> Iterator[bytes]:
        return game_lines(self._conn, game)

    def has_game_end(self, game: str) -> bool:
        return has_game_end(self._conn, game)
