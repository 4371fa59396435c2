"""A store opened read-only as a log, for ``croupier log`` (verify, pubkey, anchor, export,
recall): the :class:`~certification.log.reader.StoredLog` that :mod:`kiosk_ui.log_cli`
hands to :mod:`certification.log.cli`. It takes no lock and changes nothing, so it
also reads a store the server refused or one another process is writing (a
PostgreSQL store's on one snapshot: :func:`kiosk_ui.store.pg.open_readonly`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from certification.log.commitments import StoredShoe
from kiosk_ui.store.location import stored_url
from kiosk_ui.store.log_records import SqliteLog, connect_readonly
from kiosk_ui.store.tx import Repositories, SqliteTx


class StoreReader(SqliteLog):
    """The log of a store opened read-only, with its working shoes."""

    __slots__ = ("_tx",)

    def __init__(self, tx: SqliteTx | Repositories) -> None:
        super().__init__(tx)  # type: ignore[arg-type]
        self._tx = tx

    def stored_shoes(self) -> Mapping[str, StoredShoe]:
        return self._tx.shoes.every()

    def player_name(self, player: str) -> str | None:
        """A player's name (a poker room's hand history names its players)."""
        return self._tx.players.name_of(player)

    def close(self) -> None:
        self._tx.close()  # type: ignore[union-attr]


def open_reader(store_dir: Path) -> StoreReader:
    """Open ``store_dir`` read-only (LogFormatError naming it if it holds no store)."""
    url = stored_url(Path(store_dir))
    if url is not None:
        from kiosk_ui.store import pg

        return StoreReader(pg.open_readonly(url))
    conn = connect_readonly(store_dir, SqliteTx)
    assert isinstance(conn, SqliteTx)
    return StoreReader(conn)
