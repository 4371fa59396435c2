"""The appliance's store: every SQL statement and all DDL, behind :mod:`.protocol`.

:func:`open_store` opens the backend the store's URL names (:mod:`.location`): SQLite
(:class:`~kiosk_ui.store.db.Database`, the default) or PostgreSQL
(:class:`~kiosk_ui.store.pg.PgDatabase`); the table runtime and the routes type it as
:class:`~kiosk_ui.store.protocol.Store`. Modules: ``schema`` (the DDL), ``sql`` (the
seam between one copy of the queries and two engines), ``group`` (units of work and
their group commit), ``db`` / ``pg`` (each backend's connection, locking, checks),
``faults``, ``tx`` (the unit of work), one module per
kind of thing stored (``log_records``, ``checkpoints``, ``games``, ``game_seats``,
``shoes``, ``ledger``, ``players``, ``idempotency``, ``operators``), the ledger audit
(``derived``, ``audit``) and ``reader`` (a store read-only as a log, for ``croupier log``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk_ui.store.protocol import Store


def open_store(
    directory: str | Path,
    *,
    synchronous: str = "FULL",
    create: bool = False,
    url: str | None = None,
    shared: bool = False,
    worker: int | None = None,
) -> Store:
    """Open the store at ``directory`` for writing (``create``: make one if there is none);
    its database is the one ``url`` or the directory names (:mod:`.location`)."""
    from kiosk_ui.store.location import resolve

    where = resolve(directory, url)
    if where.postgres:
        from kiosk_ui.store.pg import PgDatabase

        return PgDatabase(
            where, synchronous=synchronous, create=create, shared=shared, worker=worker
        )
    from kiosk_ui.errors import StoreError
    from kiosk_ui.store.db import Database

    if shared and worker is None:
        raise StoreError(
            f"store {where.directory}: a SQLite store is shared only by the workers of one "
            "appliance (serve --workers); appliances share a PostgreSQL store "
            "([store] url = postgresql://...)"
        )
    return Database(
        where.directory, synchronous=synchronous, create=create, shared=shared, worker=worker
    )
