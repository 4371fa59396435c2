"""Audit a store read-only: the ledger balances, and ledger and log agree on every game."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict
from pathlib import Path
from typing import Any

from certification.log import sqlite_store
from kiosk_ui.errors import AuditError
from kiosk_ui.store import ledger


def audit_connection(conn: sqlite3.Connection) -> dict[str, Any]:
    """Raise :class:`AuditError` at the first discrepancy; otherwise return the totals."""
    report = ledger.audit(conn)
    ends: dict[str, int] = {}
    for (line,) in conn.execute("SELECT data FROM log WHERE type = 'game-end'"):
        game = json.loads(line)["game"]
        ends[game] = ends.get(game, 0) + 1
    for game, status in conn.execute(
        "SELECT id, status FROM games WHERE status IN ('settled', 'voided') ORDER BY id"
    ):
        n = ends.get(game, 0)
        if n != 1:
            raise AuditError(f"game {game} ({status}) has {n} game-end records in the log")
    known = {g for (g,) in conn.execute("SELECT id FROM games")}
    extra = sorted(set(ends) - known)
    if extra:
        raise AuditError(f"game {extra[0]} is in the log but not in the store")
    open_tables = {
        t
        for (t,) in conn.execute("SELECT table_id FROM games WHERE status IN ('open','suspended')")
    }
    for account, amount in ledger.balances(conn, "stakes:").items():
        table = account.split(":", 1)[1]
        if amount and table not in open_tables:
            raise AuditError(f"{amount} cents remain on table {table} with no game open")
    orphan = conn.execute(
        "SELECT t.id, t.kind FROM txns t LEFT JOIN log l ON l.seq = t.log_seq "
        "WHERE l.seq IS NULL ORDER BY t.id LIMIT 1"
    ).fetchone()
    if orphan:
        raise AuditError(f"ledger transaction {orphan[0]} ({orphan[1]}) has no log record")
    (open_games,) = conn.execute(
        "SELECT COUNT(*) FROM games WHERE status IN ('open', 'suspended')"
    ).fetchone()
    return {**asdict(report), "games_settled": len(ends), "open_games": int(open_games)}


def audit_store(store_dir: str | Path) -> dict[str, Any]:
    conn = sqlite_store.open_readonly(store_dir)
    try:
        return audit_connection(conn)
    finally:
        conn.close()
