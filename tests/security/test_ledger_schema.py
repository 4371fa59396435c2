"""Issue 12 point 5, existing stores: a store whose ledger rows do not name their log
records' hashes (schema 1) is refused with a clear message, never silently migrated."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kiosk_ui.errors import StoreError
from kiosk_ui.table.runtime import Runtime
from tests.security.conftest import croupier


def test_a_schema_1_store_is_refused_by_the_runtime_and_the_audit(tmp_path: Path) -> None:
    store = tmp_path / "store"
    Runtime(store, synchronous="NORMAL", create=True).close()
    conn = sqlite3.connect(store / "croupier.db", isolation_level=None)
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    conn.close()
    with pytest.raises(StoreError, match="has schema 1, whose ledger rows do not name"):
        Runtime(store, synchronous="NORMAL")
    r = croupier("ledger", "audit", "--store", str(store))
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "schema 1" in out and "Traceback" not in out
