"""The appliance's store: every SQL statement and all DDL, behind :mod:`.protocol`.

:func:`open_store` opens the one backend built so far, SQLite
(:class:`~kiosk_ui.store.db.Database`); the table runtime and the routes type it as
:class:`~kiosk_ui.store.protocol.Store`. Modules: ``schema`` (the DDL), ``db`` (the
connection, locking, group commit, faults), ``tx`` (the unit of work), one module per
kind of thing stored (``log_records``, ``checkpoints``, ``games``, ``game_seats``,
``shoes``, ``ledger``, ``players``, ``idempotency``, ``operators``), the ledger audit
(``derived``, ``audit``) and ``reader`` (a store read-only as a log, for ``croupier log``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk_ui.store.protocol import Store


def open_store(directory: str | Path, *, synchronous: str = "FULL", create: bool = False) -> Store:
    """Open the store at ``directory`` for writing (``create``: make one if there is none)."""
    from kiosk_ui.store.db import Database

    return Database(directory, synchronous=synchronous, create=create)
