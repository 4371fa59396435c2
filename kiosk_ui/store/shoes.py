"""The working copy of each game's shoe: the ``shoes`` table (order, salt, next card).

The log holds the commitment made when the shoe was shuffled; this row is what the
runtime deals from, read back and checked against that commitment after a restart
(``kiosk_ui/table/outcomes.py``). The functions take the connection they run on
(inside the caller's unit of work) and add no locking of their own.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple


class StoredShoe(NamedTuple):
    cards: str  # card indices, comma-separated, in dealing order
    salt: str  # the commitment nonce
    next: int  # position of the next card (0-based)


def insert(conn: sqlite3.Connection, game: str, cards: str, salt: str) -> None:
    """Store a freshly shuffled shoe, positioned at its first card."""
    conn.execute(
        "INSERT INTO shoes (game, cards, salt, next) VALUES (?, ?, ?, 0)", (game, cards, salt)
    )


def read(conn: sqlite3.Connection, game: str) -> StoredShoe | None:
    """The game's stored shoe, or None when it has none."""
    row = conn.execute("SELECT cards, salt, next FROM shoes WHERE game = ?", (game,)).fetchone()
    return None if row is None else StoredShoe(str(row[0]), str(row[1]), int(row[2]))


def take_next(conn: sqlite3.Connection, game: str) -> int | None:
    """Advance the game's shoe by one card; the position of the card taken, or None
    when the game has no shoe. It rolls back with the unit of work that dealt it."""
    row = conn.execute(
        "UPDATE shoes SET next = next + 1 WHERE game = ? RETURNING next", (game,)
    ).fetchone()
    return None if row is None else int(row[0]) - 1
