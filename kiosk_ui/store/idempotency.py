"""Idempotency keys as stored: the ``idempotency`` table (a key and its first answer)."""

from __future__ import annotations

from kiosk_ui.store.sql import Conn


class SqliteIdempotency:
    """The idempotency-key repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def answer(self, key: str) -> str | None:
        """The stored answer (JSON text) to ``key``, or None."""
        row = self._conn.execute(
            "SELECT response FROM idempotency WHERE key = ?", (key,)
        ).fetchone()
        return None if row is None else str(row[0])

    def keep(self, key: str, response: str) -> None:
        """Store the answer to ``key``'s first request (in the unit that made it)."""
        self._conn.execute("INSERT INTO idempotency (key, response) VALUES (?, ?)", (key, response))
