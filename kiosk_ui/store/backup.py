"""A consistent copy of a SQLite store's database, taken while ``serve`` writes it.

SQLite's online backup (``sqlite3.Connection.backup``: the library's own page copy
under one read transaction) gives the database as of one commit, never a half-written
group, without stopping the appliance: in WAL mode the writers go on meanwhile. The
copy is a single self-contained file (rollback journal, no ``-wal`` beside it), checked
with ``PRAGMA integrity_check``, fsynced with its folder, mode 0600. What it holds is
then proven by the caller (:mod:`kiosk_ui.store_cli`): the signed log verified and the
ledger audited on the copy itself.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from kiosk_ui.errors import StoreError
from kiosk_ui.store.log_records import connect_readonly
from kiosk_ui.store.schema import DB_NAME


def copy_database(store: Path, dest: Path) -> Path:
    """Copy ``store``'s database into the folder ``dest`` (made here, or empty); its path.

    Raises :class:`StoreError` naming the cause; a failed copy is removed."""
    target = dest / DB_NAME
    source = connect_readonly(store, sqlite3.Connection)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)  # every page at once, as of one commit
            copy.execute("PRAGMA journal_mode = DELETE")  # one file: no -wal to forget
            problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise StoreError(f"the copy fails SQLite's integrity check: {problems[0]}")
        finally:
            copy.close()
    except (sqlite3.Error, OSError, StoreError) as exc:
        target.unlink(missing_ok=True)
        if isinstance(exc, StoreError):
            raise
        raise StoreError(f"cannot copy the database to {target}: {exc}") from None
    finally:
        source.close()
    target.chmod(0o600)
    durable(target)
    return target


def durable(path: Path) -> None:
    """fsync ``path`` and the folder that names it: the copy survives a power cut."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
