"""Players as stored: the ``players`` table, with their wallet balances for the roster."""

from __future__ import annotations

from kiosk_ui.store.sql import Conn


class SqlitePlayers:
    """The players repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def add(self, player: str, name: str, created: int) -> None:
        """Create a player (an existing id is left as it is)."""
        self._conn.execute(
            "INSERT INTO players (id, name, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (player, name, created),
        )

    def exists(self, player: str) -> bool:
        row = self._conn.execute("SELECT 1 FROM players WHERE id = ?", (player,)).fetchone()
        return row is not None

    def roster(self, limit: int = 500) -> list[tuple[str, str, int]]:
        """The newest ``limit`` players as (id, name, wallet balance in cents)."""
        rows = self._conn.execute(
            "SELECT p.id, p.name, COALESCE(a.balance, 0) FROM players p "
            "LEFT JOIN accounts a ON a.name = 'wallet:' || p.id ORDER BY p.created DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    def name_of(self, player: str) -> str | None:
        """The player's name, or None when there is no such player."""
        row = self._conn.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()
        return None if row is None else str(row[0])
