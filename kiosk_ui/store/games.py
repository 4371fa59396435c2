"""Games as stored: the ``games`` table (one row per game a table started) and the
per-player totals over them (joined with ``game_seats``).

The log decides what happened in a game; this row is the store's index of it (its
table, variant, status and times), written in the unit of work that logs the change.
"""

from __future__ import annotations

from typing import NamedTuple

from kiosk_ui.store.sql import Conn


class GameRow(NamedTuple):
    id: str
    table: str
    status: str  # open, settled, voided, suspended


class HistoryRow(NamedTuple):
    game: str
    variant: str
    table: str
    status: str
    started: int
    ended: int | None
    staked: int
    net: int  # the wallet's change in play, the collection included
    collection: int = 0  # the California collection fees the player paid (page 004)


class SqliteGames:
    """The games repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def insert(self, game: str, table: str, variant: str, started: int, source: str) -> None:
        """A game just started (status ``open``)."""
        self._conn.execute(
            "INSERT INTO games (id, table_id, variant, status, started, source) "
            "VALUES (?, ?, ?, 'open', ?, ?)",
            (game, table, variant, started, source),
        )

    def set_status(self, game: str, status: str) -> None:
        """Suspend or reopen a game (``suspended`` / ``open``)."""
        self._conn.execute("UPDATE games SET status = ? WHERE id = ?", (status, game))

    def end(self, game: str, status: str, ended: int) -> None:
        """A game ended ``settled`` or ``voided`` at ``ended``."""
        self._conn.execute(
            "UPDATE games SET status = ?, ended = ? WHERE id = ?", (status, ended, game)
        )

    def restore(self, game: str, status: str, ended: int) -> None:
        """Put back the status the log ended the game with (its end time if it has none)."""
        self._conn.execute(
            "UPDATE games SET status = ?, ended = COALESCE(ended, ?) WHERE id = ?",
            (status, ended, game),
        )

    def status(self, game: str) -> str | None:
        row = self._conn.execute("SELECT status FROM games WHERE id = ?", (game,)).fetchone()
        return None if row is None else str(row[0])

    def started(self, table: str) -> int:
        """How many games ``table`` started."""
        (n,) = self._conn.execute(
            "SELECT COUNT(*) FROM games WHERE table_id = ?", (table,)
        ).fetchone()
        return int(n)

    def settled(self, table: str) -> int:
        """How many of ``table``'s games were settled."""
        (n,) = self._conn.execute(
            "SELECT COUNT(*) FROM games WHERE table_id = ? AND status = 'settled'", (table,)
        ).fetchone()
        return int(n)

    def unfinished(self) -> list[GameRow]:
        """Every game open or suspended, by id."""
        rows = self._conn.execute(
            "SELECT id, table_id, status FROM games "
            "WHERE status IN ('open', 'suspended') ORDER BY id"
        ).fetchall()
        return [GameRow(str(g), str(t), str(s)) for g, t, s in rows]

    def last_finished(self) -> list[GameRow]:
        """Each table's last game, where that game is settled or voided."""
        rows = self._conn.execute(
            "SELECT g.id, g.table_id, g.status FROM games g JOIN "
            "(SELECT table_id, MAX(id) AS id FROM games GROUP BY table_id) m "
            "ON g.id = m.id WHERE g.status IN ('settled', 'voided')"
        ).fetchall()
        return [GameRow(str(g), str(t), str(s)) for g, t, s in rows]

    def last_settled(self, table: str, player: str | None = None) -> str | None:
        """The id of ``table``'s last settled game (``player``: the last one they sat in)."""
        if player is None:
            row = self._conn.execute(
                "SELECT id FROM games WHERE table_id = ? AND status = 'settled' "
                "ORDER BY id DESC LIMIT 1",
                (table,),
            ).fetchone()
        else:
            row = self._conn.execute(
                "SELECT g.id FROM games g JOIN game_seats s ON s.game = g.id "
                "WHERE g.table_id = ? AND g.status = 'settled' AND s.player = ? "
                "ORDER BY g.id DESC LIMIT 1",
                (table, player),
            ).fetchone()
        return None if row is None else str(row[0])

    def totals(self, table: str) -> tuple[int, int]:
        """Total staked and net over ``table``'s settled games."""
        staked, net = self._conn.execute(
            "SELECT COALESCE(SUM(s.staked), 0), COALESCE(SUM(s.net), 0) FROM game_seats s "
            "JOIN games g ON g.id = s.game WHERE g.table_id = ? AND g.status = 'settled'",
            (table,),
        ).fetchone()
        return int(staked), int(net)

    def history(self, player: str, limit: int) -> list[HistoryRow]:
        """``player``'s last ``limit`` finished games, newest first, with their totals."""
        rows = self._conn.execute(
            "SELECT g.id, g.variant, g.table_id, g.status, g.started, g.ended, "
            "SUM(s.staked), SUM(s.net) FROM game_seats s JOIN games g ON g.id = s.game "
            "WHERE s.player = ? AND g.status IN ('settled', 'voided') "
            "GROUP BY g.id ORDER BY g.ended DESC, g.id DESC LIMIT ?",
            (player, limit),
        ).fetchall()
        fees = self._collections(player, [str(r[0]) for r in rows])
        return [
            HistoryRow(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                int(r[6] or 0),
                int(r[7] or 0),
                fees.get(r[0], 0),
            )
            for r in rows
        ]

    def _collections(self, player: str, games: list[str]) -> dict[str, int]:
        """The collection ``player`` paid in each of ``games``, from the ledger's rows."""
        if not games:
            return {}
        marks = ", ".join("?" for _ in games)
        return {
            str(game): int(paid)
            for game, paid in self._conn.execute(
                "SELECT t.game, -SUM(p.amount) FROM postings p JOIN txns t ON t.id = p.txn "
                f"WHERE p.account = ? AND t.kind = 'collection' AND t.game IN ({marks}) "
                "GROUP BY t.game",
                ("wallet:" + player, *games),
            )
        }
