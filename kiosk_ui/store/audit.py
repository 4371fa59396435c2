"""Audit a store read-only: the ledger is the log's, it balances, and every game is logged once.

Three proofs, all reported together (each problem names its row):

1. :func:`kiosk_ui.store.derived.derive`: every ledger transaction is one that a log
   record implies (same record seq and hash, kind, game and postings), no record pays
   twice or goes unpaid, and every account's balance recomputed from the log alone
   equals the store's;
2. :func:`kiosk_ui.store.ledger.audit`: each transaction sums to zero, the cached
   balances are the postings' sums, no wallet or stake is negative;
3. every finished game has exactly one ``game-end`` record, and no stake is left on a
   table with no game open;
4. the vouchers the store holds unpaid are exactly those the log leaves open (same
   serials, same amounts), so the ``vouchers`` account is the sum of unpaid vouchers.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from kiosk_ui.errors import AuditError
from kiosk_ui.store import ledger
from kiosk_ui.store.db import schema_mismatch
from kiosk_ui.store.derived import derive
from kiosk_ui.store.log_records import open_readonly
from kiosk_ui.store.schema import SCHEMA_VERSION
from kiosk_ui.store.sql import Conn
from kiosk_ui.store.vouchers import SqliteVouchers

#: problems spelled out in the error (the count says how many more there are)
LISTED = 20


def audit_connection(conn: Conn) -> dict[str, Any]:
    """Raise :class:`AuditError` listing the discrepancies; otherwise return the totals."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is not None and int(row[0]) != SCHEMA_VERSION:
        raise AuditError(schema_mismatch("under audit", int(row[0])))
    derivation = derive(conn)
    problems = list(derivation.problems)
    report: ledger.AuditReport | None = None
    try:
        report = ledger.audit(conn)
    except AuditError as exc:
        problems.append(str(exc))
    game_problems, settled = _games(conn, derivation.ends)
    problems += game_problems
    problems += _vouchers(conn, derivation.vouchers)
    if problems:
        shown = "; ".join(problems[:LISTED])
        more = f" (and {len(problems) - LISTED} more)" if len(problems) > LISTED else ""
        head = "1 problem" if len(problems) == 1 else f"{len(problems)} problems"
        raise AuditError(f"{head}: {shown}{more}")
    assert report is not None
    (open_games,) = conn.execute(
        "SELECT COUNT(*) FROM games WHERE status IN ('open', 'suspended')"
    ).fetchone()
    return {
        **asdict(report),
        "games_settled": settled,
        "open_games": int(open_games),
        "money_records": derivation.records,
    }


def _games(conn: Conn, ends: dict[str, int]) -> tuple[list[str], int]:
    """Problems with the games table against the log's ``game-end`` records (per game,
    counted by the derivation's pass over the log), and how many games ended."""
    problems: list[str] = []
    for game, status in conn.execute(
        "SELECT id, status FROM games WHERE status IN ('settled', 'voided') ORDER BY id"
    ):
        n = ends.get(game, 0)
        if n != 1:
            problems.append(f"game {game} ({status}) has {n} game-end records in the log")
    known = {g for (g,) in conn.execute("SELECT id FROM games")}
    problems += [f"game {g} is in the log but not in the store" for g in sorted(set(ends) - known)]
    open_tables = {
        t
        for (t,) in conn.execute("SELECT table_id FROM games WHERE status IN ('open','suspended')")
    }
    for account, amount in ledger.balances(conn, "stakes:").items():
        table = account.split(":", 1)[1]
        if amount and table not in open_tables:
            problems.append(f"{amount} cents remain on table {table} with no game open")
    for account, amount in ledger.balances(conn, "pot:").items():
        table = account.split(":", 1)[1]
        if amount and table not in open_tables:
            problems.append(f"{amount} cents remain in the pot of table {table} with no hand open")
    return problems, len(ends)


def _vouchers(conn: Conn, logged: dict[str, int]) -> list[str]:
    """The unpaid vouchers of the store against those the log leaves open."""
    stored: dict[str, int] = {}
    if SqliteVouchers(conn).exists_table():  # a store older than vouchers has none
        stored = {
            str(s): int(a)
            for s, a in conn.execute("SELECT serial, amount FROM vouchers WHERE status = 'issued'")
        }
    problems = []
    for serial in sorted(set(stored) | set(logged)):
        have, want = stored.get(serial), logged.get(serial)
        if have == want:
            continue
        if want is None:
            problems.append(f"voucher {serial} is unpaid in the store, not open in the log")
        elif have is None:
            problems.append(f"voucher {serial} is open in the log but not unpaid in the store")
        else:
            problems.append(f"voucher {serial}: {have} cents in the store, the log says {want}")
    return problems


def audit_store(store_dir: str | Path) -> dict[str, Any]:
    conn = open_readonly(store_dir)
    try:
        return audit_connection(conn)
    finally:
        conn.close()
