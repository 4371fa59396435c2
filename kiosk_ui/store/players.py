"""Players as stored: the ``players`` table with their wallet balances, for the routes.

The functions take the connection they run on and add no locking of their own: the
caller holds ``Database.lock``.
"""

from __future__ import annotations

import sqlite3


def roster(conn: sqlite3.Connection, limit: int = 500) -> list[tuple[str, str, int]]:
    """The newest ``limit`` players as (id, name, wallet balance in cents)."""
    rows = conn.execute(
        "SELECT p.id, p.name, COALESCE(a.balance, 0) FROM players p "
        "LEFT JOIN accounts a ON a.name = 'wallet:' || p.id ORDER BY p.created DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]


def name_of(conn: sqlite3.Connection, player: str) -> str | None:
    """The player's name, or None when there is no such player."""
    row = conn.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()
    return None if row is None else str(row[0])
