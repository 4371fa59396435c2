"""Who sat where in each game, as stored: the ``game_seats`` table (seat, player, and
what the seat staked and won), written with each money event and read by the runtime
and the routes (recall)."""

from __future__ import annotations

from kiosk_ui.store.sql import Conn


class SqliteGameSeats:
    """The game-seats repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def add(self, game: str, seat: int, player: str, staked: int, net: int) -> None:
        """Add a money event's stake and net to the seat's row (made on its first)."""
        self._conn.execute(
            "INSERT INTO game_seats (game, seat, player, staked, net) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game, seat) DO UPDATE SET "
            "staked = game_seats.staked + excluded.staked, net = game_seats.net + excluded.net",
            (game, seat, player, staked, net),
        )

    def nets(self, game: str) -> dict[str, int]:
        """Each seat's net in ``game`` (seat number as text), by seat."""
        return {
            str(seat): net
            for seat, net in self._conn.execute(
                "SELECT seat, net FROM game_seats WHERE game = ? ORDER BY seat", (game,)
            )
        }

    def players(self, game: str) -> dict[int, str]:
        """Who held each seat of ``game`` with money on it."""
        return {
            int(seat): str(player)
            for seat, player in self._conn.execute(
                "SELECT seat, player FROM game_seats WHERE game = ?", (game,)
            )
        }

    def staked(self, game: str, seat: int) -> int | None:
        """What ``seat`` has staked in ``game`` so far (None: no money event yet)."""
        row = self._conn.execute(
            "SELECT staked FROM game_seats WHERE game = ? AND seat = ?", (game, seat)
        ).fetchone()
        return None if row is None else int(row[0])

    def seats_of(self, game: str, player: str) -> set[int]:
        """The seats ``player`` held in ``game`` (empty when they held none)."""
        return {
            int(s)
            for (s,) in self._conn.execute(
                "SELECT seat FROM game_seats WHERE game = ? AND player = ?", (game, player)
            )
        }

    def in_open_game(self, player: str) -> bool:
        """Whether ``player`` has stakes in a game not ended yet (open or suspended), at
        any table of the store: every appliance's, on a shared one."""
        row = self._conn.execute(
            "SELECT 1 FROM game_seats s JOIN games g ON g.id = s.game WHERE s.player = ? "
            "AND s.staked > 0 AND g.status IN ('open', 'suspended') LIMIT 1",
            (player,),
        ).fetchone()
        return row is not None
