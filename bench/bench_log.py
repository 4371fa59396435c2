"""Game log and runtime throughput, side by side with plain baselines.

1. Journal appends/s, durable (SQLite WAL, synchronous=FULL, one commit per batch), with
   SHA-256 chaining and an Ed25519-signed Merkle checkpoint every 1,000 records; peer:
   the same rows inserted into the same table with no chain and no signatures.
2. Verification records/s of the whole log; peer: SHA-256 of every record alone.
3. Settled baccarat games/s through the full runtime (wallet, ledger, log, rng shoe),
   synchronous FULL and NORMAL.

Run: .venv/bin/python bench/bench_log.py [--records 200000]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from certification.log import sqlite_store
from certification.log.chain import JournalWriter
from certification.log.keys import SigningKey
from certification.log.verify import verify_lines
from kiosk_ui.runtime.autoplay import play_round
from kiosk_ui.runtime.outcomes import RngOutcomes
from kiosk_ui.runtime.runtime import Runtime
from kiosk_ui.store.db import SCHEMA
from rng.sample import Rng, SeededBytes

BATCH = 500


def _db(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.executescript(SCHEMA)
    return conn


def _body(i: int) -> dict[str, object]:
    return {"kind": "bet-settled", "seat": i % 7, "bet": "banker", "stake": 1000,
            "returned": 1950, "commission": 50, "result": "win", "note": ""}  # fmt: skip


def bench_append(n: int, tmp: Path) -> tuple[float, float, list[bytes], SigningKey]:
    key = SigningKey.generate()
    conn = _db(tmp / "chain.db")
    writer = JournalWriter(key, checkpoint_every=1000)
    clock = itertools.count(1_800_000_000_000_000)
    conn.execute("BEGIN")
    sqlite_store.insert(conn, writer.start(next(clock)))
    conn.execute("COMMIT")
    t0 = time.perf_counter()
    for start in range(0, n, BATCH):
        recs = []
        for i in range(start, min(n, start + BATCH)):
            recs += writer.append(next(clock), "engine", "event", _body(i), f"g-{i // 10}")
        conn.execute("BEGIN")
        sqlite_store.insert(conn, recs)
        conn.execute("COMMIT")
    conn.execute("BEGIN")
    sqlite_store.insert(conn, [writer.checkpoint(next(clock))])
    conn.execute("COMMIT")
    ours = n / (time.perf_counter() - t0)
    lines = sqlite_store.lines(conn)
    conn.close()
    # Peer: the same bytes, same table, same batching and fsync policy; no chain, no signature.
    plain = _db(tmp / "plain.db")
    t0 = time.perf_counter()
    for start in range(0, n, BATCH):
        rows = [(i + 1, "", "event", "", lines[i]) for i in range(start, min(n, start + BATCH))]
        plain.execute("BEGIN")
        plain.executemany("INSERT INTO log (seq, hash, type, game, data) VALUES (?,?,?,?,?)", rows)
        plain.execute("COMMIT")
    peer = n / (time.perf_counter() - t0)
    plain.close()
    return ours, peer, lines, key


def bench_verify(lines: list[bytes], key: SigningKey, repeat: int) -> tuple[float, float]:
    ours, peer = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        verify_lines(lines, [key.public])
        ours.append(len(lines) / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        for line in lines:
            hashlib.sha256(line).digest()
        peer.append(len(lines) / (time.perf_counter() - t0))
    return statistics.median(ours), statistics.median(peer)


def bench_runtime(tmp: Path, sync: str, rounds: int) -> float:
    rt = Runtime(tmp / f"rt-{sync}", synchronous=sync, create=True)
    player = rt.create_player("bench")
    rt.cash_in(player, 10**9, operator="bench")
    table = rt.open_table("bac", "baccarat-pinnacle", RngOutcomes(Rng(SeededBytes(1))))
    table.sit(0, player)
    t0 = time.perf_counter()
    for _ in range(rounds):
        play_round(table, 0)
    rate = rounds / (time.perf_counter() - t0)
    rt.audit()
    rt.close()
    return rate


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--records", type=int, default=200_000)
    p.add_argument("--rounds", type=int, default=2_000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        append, append_peer, lines, key = bench_append(args.records, tmp)
        ver, ver_peer = bench_verify(lines, key, args.repeat)
        full = bench_runtime(tmp, "FULL", args.rounds)
        normal = bench_runtime(tmp, "NORMAL", args.rounds)
    cmd = f".venv/bin/python bench/bench_log.py --records {args.records} --rounds {args.rounds}"
    rows = [
        (
            f"durable appends/s (WAL, synchronous=FULL, one commit per {BATCH} records, "
            "Ed25519-signed Merkle checkpoint per 1,000)",
            f"{append:,.0f}",
            f"{append_peer:,.0f} (same rows and commits, no chain, no signature)",
            f"{append / append_peer:.2f}",
            ">= 20,000",
        ),
        (
            f"verification records/s (every link, Merkle root and signature; "
            f"median of {args.repeat})",
            f"{ver:,.0f}",
            f"{ver_peer:,.0f} (SHA-256 of each record, nothing else)",
            f"{ver / ver_peer:.2f}",
            ">= 100,000",
        ),
        ("settled baccarat games/s, full runtime, synchronous=FULL", f"{full:,.0f}", "", "", ""),
        (
            "settled baccarat games/s, full runtime, synchronous=NORMAL",
            f"{normal:,.0f}",
            "",
            "",
            "",
        ),
    ]
    table = "\n".join("| " + " | ".join(r) + " |" for r in rows)
    out = (
        "## Game log and runtime (issue 7)\n\n"
        f"Command: `{cmd}` (2 cores, shared machine).\n\n"
        "| measure | Croupier | peer | ratio | target |\n|---|---:|---:|---:|---:|\n"
        f"{table}\n\n{args.records:,} event records ({len(lines):,} stored with checkpoints); "
        "runtime games: one bet and one deal per game, each request one transaction.\n"
    )
    (Path(__file__).parent / "results" / "log.md").write_text(out)
    print(out)


if __name__ == "__main__":
    main()
