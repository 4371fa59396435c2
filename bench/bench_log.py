"""Game log and runtime throughput, side by side with plain baselines.

1. Journal appends/s, durable (SQLite WAL, synchronous=FULL, one commit per batch), with
   SHA-256 chaining and an Ed25519-signed Merkle checkpoint every 1,000 records; peer:
   the same rows inserted into the same table with no chain and no signatures.
2. Verification records/s of the whole log; peer: SHA-256 of every record alone.
3. Settled baccarat games/s through the full runtime (wallet, ledger, log, rng shoe),
   synchronous FULL and NORMAL.
4. (issue 12) On a store of 10^6 records written through the LogBook (games of ~20
   records, a signed checkpoint at each game end): the start-up integrity check,
   incremental (from the verified checkpoint a clean stop leaves) and full, the
   appliance's whole store open, and ``croupier log verify --store`` (a process, as
   the auditor runs it); peer: a plain SHA-256 pass over the same rows read from the
   same SQLite file in the same run.

Run: .venv/bin/python bench/bench_log.py [--records 200000] [--only startup]
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

from bench._common import median_seconds
from certification.log import integrity
from certification.log.chain import JournalWriter
from certification.log.keys import SigningKey
from certification.log.verify import verify_lines
from kiosk_ui.store import log_records
from kiosk_ui.store.db import Database
from kiosk_ui.store.reader import open_reader
from kiosk_ui.store.schema import SCHEMA
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.logbook import LogBook
from kiosk_ui.table.outcomes import RngOutcomes
from kiosk_ui.table.runtime import Runtime
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
    log_records.insert(conn, writer.start(next(clock)))
    conn.execute("COMMIT")
    t0 = time.perf_counter()
    for start in range(0, n, BATCH):
        recs = []
        for i in range(start, min(n, start + BATCH)):
            recs += writer.append(next(clock), "engine", "event", _body(i), f"g-{i // 10}")
        conn.execute("BEGIN")
        log_records.insert(conn, recs)
        conn.execute("COMMIT")
    conn.execute("BEGIN")
    log_records.insert(conn, [writer.checkpoint(next(clock))])
    conn.execute("COMMIT")
    ours = n / (time.perf_counter() - t0)
    lines = log_records.lines(conn)
    conn.close()
    # Peer: the same bytes, same table, same batching and fsync policy; no chain, no signature.
    plain = _db(tmp / "plain.db")
    t0 = time.perf_counter()
    for start in range(0, n, BATCH):
        rows = [("", i + 1, "", "event", "", lines[i]) for i in range(start, min(n, start + BATCH))]
        plain.execute("BEGIN")
        plain.executemany(
            "INSERT INTO log (chain, seq, hash, type, game, data) VALUES (?,?,?,?,?,?)", rows
        )
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


GAME = 20  # records per game: start, ~17 events, end; then the game-end checkpoint


def build_store(store: Path, n: int) -> int:
    """Write ``n`` records of games through the LogBook, in transactions of ~500 records."""
    db = Database(store, synchronous="NORMAL", create=True)
    clock = itertools.count(1_800_000_000_000_000)
    book = LogBook(db, clock=lambda: next(clock))
    written = 1
    game = 0
    while written < n:
        with book.transaction() as conn:
            for _ in range(25):
                game += 1
                gid = f"baccarat-pinnacle-{game:06d}"
                book.append(conn, "runtime", "game-start", {"table": "bac", "shoe": "ab" * 32}, gid)
                for i in range(GAME - 3):
                    book.append(conn, "engine", "event", _body(i), gid)
                book.append(conn, "runtime", "game-end", {"net": {"0": 95}}, gid)
                book.checkpoint(conn)
                written += GAME
    book.close()  # a clean stop: the last checkpoint is recorded as verified
    db.close()
    return written


def bench_startup(tmp: Path, n: int, repeat: int) -> tuple[list[tuple[str, ...]], int]:
    import subprocess
    import sys

    store = tmp / "startup"
    written = build_store(store, n)
    path = log_records.db_path(store)

    def sha_pass() -> None:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        for (d,) in conn.execute("SELECT data FROM log ORDER BY id"):
            hashlib.sha256(d).digest()
        conn.close()

    def check(full: bool) -> None:
        log = open_reader(store)
        assert integrity.check_log(log, full=full) is not None
        log.close()

    def open_store() -> None:
        rt = Runtime(store, synchronous="NORMAL")
        rt.close()

    root = tmp / "root.pem"
    root.write_text(
        subprocess.run(
            [sys.executable, "-m", "kiosk_ui.cli", "log", "pubkey", "--store", str(store)],
            check=True, capture_output=True, text=True,
        ).stdout
    )  # fmt: skip
    verify_cmd = [sys.executable, "-m", "kiosk_ui.cli", "log", "verify", "--store", str(store)]

    def cli_verify() -> None:
        subprocess.run([*verify_cmd, "--pubkey", str(root)], check=True, capture_output=True)

    peer = median_seconds(sha_pass, repeat)
    rows = []
    for what, fn in (
        ("start-up check, incremental (from the checkpoint a clean stop verified)",
         lambda: check(False)),
        ("start-up check, full (no verified checkpoint: every record)", lambda: check(True)),
        ("open the store as `serve` does (Database + LogBook, incremental check)", open_store),
        ("`croupier log verify --store` (a process: start, read, verify, report)", cli_verify),
    ):  # fmt: skip
        t = median_seconds(fn, repeat)
        rows.append((what, f"{t:.4g} s", f"{peer:.4g} s", f"{t / peer:.3g}"))
    return rows, written


def startup_section(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory() as d:
        rows, written = bench_startup(Path(d), args.startup_records, args.repeat)
    cmd = (
        f".venv/bin/python bench/bench_log.py --only startup "
        f"--startup-records {args.startup_records} --repeat {args.repeat}"
    )
    table = "\n".join("| " + " | ".join(r) + " |" for r in rows)
    return (
        "## Start-up integrity check and log verify at 10^6 records (issue 12)\n\n"
        f"Command: `{cmd}` (2 cores, shared machine).\n\n"
        f"Store: {written:,} records written through the LogBook (games of {GAME} records, "
        "a signed checkpoint at each game end, as the runtime writes them). Peer: a plain "
        "`hashlib.sha256` pass over the same rows read from the same SQLite file in the "
        f"same run. Median of {args.repeat}; ratio = our time / peer time.\n\n"
        "| measure | Croupier | peer (SHA-256 pass) | ratio |\n|---|---:|---:|---:|\n"
        f"{table}\n\nThe incremental check reads the key chain (indexed), the signed "
        "verified position and the records after it; a full check (and `log verify`) "
        "re-reads every link, Merkle root and signature.\n"
    )


def _write_section(section: str) -> None:
    """Replace (or add) this section of results/log.md, keeping the others."""
    path = Path(__file__).parent / "results" / "log.md"
    old = path.read_text() if path.exists() else ""
    title = section.split("\n", 1)[0]
    parts = [p for p in ("\n" + old).split("\n## ") if p.strip()]
    kept = ["## " + p.strip() + "\n" for p in parts if ("## " + p).split("\n", 1)[0] != title]
    path.write_text("\n".join([*kept, section]))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--records", type=int, default=200_000)
    p.add_argument("--rounds", type=int, default=2_000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--startup-records", type=int, default=1_000_000)
    p.add_argument("--only", choices=("startup", "log"), help="run only this part")
    args = p.parse_args()
    if args.only != "log":
        section = startup_section(args)
        _write_section(section)
        print(section)
    if args.only == "startup":
        return
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
    _write_section(out)
    print(out)


if __name__ == "__main__":
    main()
