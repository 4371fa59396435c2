"""``croupier ledger audit`` speed, side by side with the audit it replaced.

The audit derives every ledger transaction from the log (one pass over the money
records, through the runtime's own rules) and compares it with the stored rows, then
recomputes every balance from the log. Peer: the audit before issue 12, which only
proved the ledger balances by itself (per-transaction sums, cached balances, one
pass over the game-end records), on the same store, in the same run.

Run: .venv/bin/python bench/bench_audit.py [--rounds 20000] [--store DIR] [--repeat 3]
(``--store`` reuses a store, e.g. one made by ``croupier table autoplay --game baccarat
--rounds 100000 --store DIR --seed 1 --sync NORMAL --quiet``.)
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
from pathlib import Path

from bench._common import median_seconds
from kiosk_ui.store import ledger, log_records
from kiosk_ui.store.audit import audit_connection
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.outcomes import RngOutcomes
from kiosk_ui.table.runtime import Runtime
from rng.sample import Rng, SeededBytes

OUT = Path(__file__).resolve().parent / "results" / "audit.md"


def build(store: Path, rounds: int) -> None:
    rt = Runtime(store, synchronous="NORMAL", create=True)
    try:
        player = rt.create_player("bench", "bench")
        rt.cash_in(player, 100_000_000, operator="bench")
        table = rt.open_table("bac", "baccarat-pinnacle", RngOutcomes(Rng(SeededBytes(1))))
        table.sit(0, player)
        for _ in range(rounds):
            play_round(table, 0)
    finally:
        rt.close()


def old_audit(conn: sqlite3.Connection) -> None:
    """The audit before issue 12: the ledger balances by itself; games logged once."""
    ledger.audit(conn)
    ends: dict[str, int] = {}
    for (line,) in conn.execute("SELECT data FROM log WHERE type = 'game-end'"):
        game = json.loads(line)["game"]
        ends[game] = ends.get(game, 0) + 1
    for game, _status in conn.execute(
        "SELECT id, status FROM games WHERE status IN ('settled', 'voided')"
    ):
        assert ends.get(game) == 1
    conn.execute(
        "SELECT t.id FROM txns t LEFT JOIN log l ON l.seq = t.log_seq WHERE l.seq IS NULL"
    ).fetchone()


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--store", type=Path, help="audit this store instead of building one")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store
        if store is None:
            store = Path(tmp) / "store"
            build(store, args.rounds)
        conn = log_records.open_readonly(store)
        try:
            counts = {
                t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("games", "log", "txns", "postings")
            }
            old = median_seconds(lambda: old_audit(conn), args.repeat)
            new = median_seconds(lambda: audit_connection(conn), args.repeat)
        finally:
            conn.close()
    text = "\n".join(
        [
            "## Ledger audit (bench/bench_audit.py)\n",
            f"Store: {counts['games']:,} baccarat games, {counts['log']:,} log records, "
            f"{counts['txns']:,} ledger transactions, {counts['postings']:,} postings; "
            f"median of {args.repeat}.\n",
            "| audit | seconds | ratio |",
            "|---|---|---|",
            f"| before issue 12: the ledger balances by itself (peer) | {old:.2f} | 1.00 |",
            f"| the ledger derived from the log, row by row, every balance recomputed "
            f"| {new:.2f} | {new / old:.2f} |",
            "",
        ]
    )
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
