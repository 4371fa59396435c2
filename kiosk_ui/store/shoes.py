"""The working copy of each game's shoe: the ``shoes`` table (order, salt, next card).

The log holds the commitment made when the shoe was shuffled; this row is what the
runtime deals from, read back and checked against that commitment after a restart
(``kiosk_ui/table/outcomes.py``).
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from certification.log.commitments import StoredShoe as CommittedShoe
from kiosk_ui.store.sql import Conn


class StoredShoe(NamedTuple):
    cards: str  # card indices, comma-separated, in dealing order
    salt: str  # the commitment nonce
    next: int  # position of the next card (0-based)


class SqliteShoes:
    """The shoes repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def insert(self, game: str, cards: str, salt: str) -> None:
        """Store a freshly shuffled shoe, positioned at its first card."""
        self._conn.execute(
            "INSERT INTO shoes (game, cards, salt, next) VALUES (?, ?, ?, 0)", (game, cards, salt)
        )

    def read(self, game: str) -> StoredShoe | None:
        """The game's stored shoe, or None when it has none."""
        row = self._conn.execute(
            "SELECT cards, salt, next FROM shoes WHERE game = ?", (game,)
        ).fetchone()
        return None if row is None else StoredShoe(str(row[0]), str(row[1]), int(row[2]))

    def take_next(self, game: str) -> int | None:
        """Advance the game's shoe by one card; the position of the card taken, or None
        when the game has no shoe. It rolls back with the unit of work that dealt it."""
        row = self._conn.execute(
            "UPDATE shoes SET next = next + 1 WHERE game = ? RETURNING next", (game,)
        ).fetchone()
        return None if row is None else int(row[0]) - 1

    def every(self) -> dict[str, CommittedShoe]:
        """Every stored shoe, for ``croupier log verify --store`` (empty for a store with
        no shoes table: a log-only store)."""
        try:
            rows = self._conn.execute("SELECT game, salt, cards, next FROM shoes").fetchall()
        except sqlite3.OperationalError:  # a log-only store has no shoes table
            return {}
        return {str(g): CommittedShoe(str(s), str(c), int(n)) for g, s, c, n in rows}
