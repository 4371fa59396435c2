"""The store file: WAL pages go back to the database off the writers' path."""

from __future__ import annotations

import time
from pathlib import Path

from kiosk_ui.store.db import Database
from kiosk_ui.store.schema import DB_NAME


def test_the_checkpointer_keeps_the_wal_bounded_without_writers_doing_it(
    tmp_path: Path,
) -> None:
    db = Database(tmp_path, synchronous="FULL", create=True)
    try:
        (auto,) = db.conn.execute("PRAGMA wal_autocheckpoint").fetchone()
        assert auto == 0  # no writer's COMMIT copies the WAL back
        wal = tmp_path / f"{DB_NAME}-wal"
        blob = b"x" * 100_000
        limit = 4 << 20
        written = 0
        largest = 0
        while written < 6 * limit:
            with db.transaction() as conn:
                conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (str(written), blob))
            written += len(blob)
            largest = max(largest, wal.stat().st_size)
            time.sleep(0.01)
        # Six times the threshold was written, yet the WAL restarted from the top:
        # the checkpointer caught up in the background.
        assert largest < 3 * limit
        rows = db.conn.execute("SELECT COUNT(*) FROM meta").fetchone()[0]
        assert rows == 1 + written // len(blob)  # the schema row and every blob
    finally:
        db.close()
