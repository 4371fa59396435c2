"""A store opened read-only as a log, for ``croupier log`` (verify, pubkey, anchor, export,
recall): the :class:`~certification.log.reader.StoredLog` that :mod:`kiosk_ui.log_cli`
hands to :mod:`certification.log.cli`. It takes no lock and changes nothing, so it
also reads a store the server refused or one another process is writing."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from certification.log.commitments import StoredShoe
from kiosk_ui.store.log_records import SqliteLog, connect_readonly
from kiosk_ui.store.tx import SqliteTx


class StoreReader(SqliteLog):
    """The log of a store opened read-only, with its working shoes."""

    __slots__ = ("_tx",)

    def __init__(self, tx: SqliteTx) -> None:
        super().__init__(tx)
        self._tx = tx

    def stored_shoes(self) -> Mapping[str, StoredShoe]:
        return self._tx.shoes.every()

    def close(self) -> None:
        self._tx.close()


def open_reader(store_dir: Path) -> StoreReader:
    """Open ``store_dir`` read-only (LogFormatError naming it if it holds no store)."""
    conn = connect_readonly(store_dir, SqliteTx)
    assert isinstance(conn, SqliteTx)
    return StoreReader(conn)
