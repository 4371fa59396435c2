"""Who sat where in each game, as stored: the ``game_seats`` table, read by the routes.

The functions take the connection they run on and add no locking of their own: the
caller holds ``Database.lock``.
"""

from __future__ import annotations

import sqlite3


def seats_of(conn: sqlite3.Connection, game: str, player: str) -> set[int]:
    """The seats ``player`` held in ``game`` (empty when they held none)."""
    return {
        int(s)
        for (s,) in conn.execute(
            "SELECT seat FROM game_seats WHERE game = ? AND player = ?", (game, player)
        )
    }
