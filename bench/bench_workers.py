"""``croupier serve --workers N``: settled rounds/s with 1 and 2 workers, on each backend.

Each scenario starts ``croupier serve --workers W`` (W = 1, 2) on a fresh store, SQLite
(the store directory's file, ``synchronous=FULL``) or PostgreSQL (a fresh schema on a
throwaway server started here from Debian's binaries, as the tests do), one
baccarat-pinnacle table per terminal. Terminal k plays table bac-k on the worker that
leases it (worker k mod W, listening on the base port + k mod W). The load is
bench/bench_kiosk.py's: N asyncio terminals in this process, each with its own player,
a $1 banker bet then Deal over keep-alive HTTP/1.1 on loopback; settled rounds/s and
request p50/p99 over a fixed window after a warm-up. Side by side in the same run: the
bare uvicorn peer (bench_kiosk's no-work app) as 1 and 2 processes, the HTTP ceiling
of this machine and client. And ``sqlite-apart``: W separate ``croupier serve``
processes, each on a store of its own (nothing shared: no write lock, no page
invalidated by the other, no wallet in common), terminal k on process k mod W: the
ceiling of any design in which W processes share one SQLite file, since sharing can only
add to the work of this one. The ratio 2 workers / 1 worker is per backend and
terminal count (``sqlite-apart`` over SQLite's one worker); the load generator's CPU
(this process, user + system over the window) and the whole machine's busy cores
(/proc/stat) say how much of the 2 cores the load itself takes.

Run: .venv/bin/python bench/bench_workers.py [--seconds 8] [--terminals 50 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench._common import free_ports, init_store, machine, start_server, stop_server  # noqa: E402
from bench.bench_kiosk import PEER_APP, Stats, config, pct, terminal  # noqa: E402

PYTHON = Path(sys.executable)


def wait_ports(base: int, n: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 180
    for i in range(n):
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited ({proc.returncode})")
            try:
                socket.create_connection(("127.0.0.1", base + i), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("server did not listen") from None
                time.sleep(0.2)


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) of the processes ``pids`` and their descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    todo = list(pids)
    while todo:
        pid = todo.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            todo += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total


def busy_cores() -> tuple[float, float]:
    """(busy, total) jiffies of all cores so far (/proc/stat)."""
    f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = f[3] + f[4]
    return float(sum(f) - idle), float(sum(f))


@dataclass
class Row:
    kind: str
    workers: int
    terminals: int
    rounds_s: float
    req_p50: float
    req_p99: float
    errors: int
    load_cores: float  # this process's CPU over the window, in cores
    busy: float  # the machine's busy cores over the window
    server_cores: float = 0.0  # the server's processes' CPU over the window, in cores
    cpu_ms: float = 0.0  # server CPU per settled round, ms
    db_ms: float = 0.0  # the PostgreSQL server's CPU per settled round, ms (0: SQLite)


async def load(
    base: int,
    workers: int,
    terminals: int,
    seconds: float,
    peer: bool,
    pids: list[int],
    db_pids: list[int] | None = None,
) -> Row:
    stats = Stats()
    now = time.perf_counter()
    start, stop = now + 2.0, now + 2.0 + seconds
    sample: dict[str, tuple[float, float, float, float, float]] = {}
    db = db_pids or []

    async def window() -> None:
        await asyncio.sleep(start - time.perf_counter())
        sample["a"] = (time.process_time(), *busy_cores(), tree_cpu(pids), tree_cpu(db))
        await asyncio.sleep(stop - time.perf_counter())
        sample["b"] = (time.process_time(), *busy_cores(), tree_cpu(pids), tree_cpu(db))

    await asyncio.gather(
        window(),
        *(
            terminal("127.0.0.1", base + k % workers, f"bac-{k}", stats, start, stop, peer)
            for k in range(terminals)
        ),
    )
    (c0, b0, t0, s0, d0), (c1, b1, t1, s1, d1) = sample["a"], sample["b"]
    cores = os.cpu_count() or 1
    return Row(
        "", workers, terminals, stats.rounds / seconds, pct(stats.request_ms, 50),
        pct(stats.request_ms, 99), stats.errors, (c1 - c0) / seconds,
        cores * (b1 - b0) / (t1 - t0) if t1 > t0 else float("nan"),
        (s1 - s0) / seconds, 1000 * (s1 - s0) / max(stats.rounds, 1),
        1000 * (d1 - d0) / max(stats.rounds, 1),
    )  # fmt: skip


def run(
    kind: str, workers: int, terminals: int, seconds: float, tmp: Path, url: str, db: list[int]
) -> Row:
    base = free_ports(workers)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    os.sync()
    procs: list[subprocess.Popen[str]] = []
    try:
        if kind == "peer":
            script = tmp / "peer_app.py"
            script.write_text(
                PEER_APP.replace('("127.0.0.1", 0)', '("127.0.0.1", int(sys.argv[1]))')
            )
            for i in range(workers):
                procs.append(start_server([str(PYTHON), str(script), str(base + i)], env)[0])
        elif kind == "sqlite-apart":
            for i in range(workers):  # one store each, every table configured in each
                store = tmp / f"store-{kind}-{workers}-{terminals}" / str(i) / "store"
                store.parent.mkdir(parents=True, exist_ok=True)  # its config beside it
                conf = config(store, terminals, "FULL")
                init_store([str(PYTHON), "-m", "kiosk_ui.cli"], str(conf), env)
                cmd = [str(PYTHON), "-m", "kiosk_ui.cli", "serve", "--port", str(base + i),
                       "--config", str(conf)]  # fmt: skip
                procs.append(start_server(cmd, env)[0])
        else:
            store = tmp / f"store-{kind}-{workers}-{terminals}"
            conf = config(store, terminals, "FULL")
            if kind == "postgresql":
                text = conf.read_text().replace("[store]\n", f'[store]\nurl = "{url}"\n', 1)
                conf.write_text(text)
            init_store([str(PYTHON), "-m", "kiosk_ui.cli"], str(conf), env)
            cmd = [str(PYTHON), "-m", "kiosk_ui.cli", "serve", "--port", str(base), "--config",
                   str(conf), "--workers", str(workers)]  # fmt: skip
            procs.append(start_server(cmd, env)[0])  # once a worker says where it listens
        for i, p in enumerate(procs):
            alone = kind in ("peer", "sqlite-apart")  # a process per port
            wait_ports(base + (i if alone else 0), 1 if alone else workers, p)
        pids = [p.pid for p in procs]
        db_pids = db if kind == "postgresql" else []
        row = asyncio.run(load(base, workers, terminals, seconds, kind == "peer", pids, db_pids))
    finally:
        for p in procs:
            stop_server(p, timeout=30)
    row.kind = kind
    return row


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=8.0, help="measured window per scenario")
    p.add_argument("--terminals", type=int, nargs="+", default=[50, 200])
    p.add_argument("--out", type=Path, default=HERE / "results" / "workers.md")
    p.add_argument("--kinds", nargs="+", default=["peer", "sqlite", "sqlite-apart", "postgresql"])
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = p.parse_args()
    from tests.kiosk_ui import pg_cluster

    cluster = pg_cluster.start()
    # the postmaster: its backends' CPU is the database's share of a round
    db = [int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])]
    rows: list[Row] = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-workers-") as d:
            for n in args.terminals:
                for kind in args.kinds:
                    for w in args.workers:
                        if kind == "sqlite-apart" and w == 1:
                            continue  # one process on its own store: the sqlite row
                        url = cluster.fresh_url() if kind == "postgresql" else ""
                        row = run(kind, w, n, args.seconds, Path(d), url, db)
                        rows.append(row)
                        print(f"{kind:10s} {w} workers {n:4d} terminals: {row.rounds_s:8.1f} "
                              f"rounds/s p99 {row.req_p99:6.1f} ms load {row.load_cores:.2f} "
                              f"busy {row.busy:.2f} server {row.server_cores:.2f} cores "
                              f"{row.cpu_ms:.2f} ms/round db {row.db_ms:.2f} ms/round "
                              f"errors {row.errors}",
                              flush=True)  # fmt: skip
                        shutil.rmtree(Path(d) / f"store-{kind}-{w}-{n}", ignore_errors=True)
    finally:
        cluster.stop()
    write(rows, args)
    return 0


def write(rows: list[Row], args: argparse.Namespace) -> None:
    one = {(r.kind, r.terminals): r.rounds_s for r in rows if r.workers == 1}
    for (kind, n), rate in list(one.items()):
        if kind == "sqlite":
            one["sqlite-apart", n] = rate  # the ceiling's ratio is over SQLite's one worker
    out = [
        "## Every core serving: `croupier serve --workers N` (bench/bench_workers.py)\n",
        f"Command: `.venv/bin/python bench/bench_workers.py --seconds {args.seconds:g} "
        f"--terminals {' '.join(map(str, args.terminals))}`  ",
        f"Machine: {machine()}; Python {platform.python_version()}; servers, PostgreSQL and "
        "the load on the same 2 cores, loopback.\n",
        "A round is a $1 banker bet then Deal (two requests) by one terminal with its own",
        "player and table; terminal k plays on worker k mod N. `peer`: bench_kiosk's bare",
        "uvicorn app as 1 or 2 processes. `sqlite-apart`: 2 processes on a store each, nothing",
        "shared (the ceiling of any shared-SQLite design). 2/1 = rounds/s with 2 workers over",
        "1 worker (sqlite-apart: over SQLite's 1 worker).",
        "load cores: the load generator's CPU over the window; busy: the machine's busy cores",
        "(of 2; other work on the shared machine included); server cores: the server's",
        "processes' CPU over the window; CPU/round: server CPU per settled round; db/round:",
        "the PostgreSQL server's CPU per settled round (its backends, same window).\n",
        "| server | workers | terminals | settled rounds/s | 2/1 | request p50 ms | "
        "request p99 ms | load cores | busy cores | server cores | CPU/round ms | "
        "db/round ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        base = one.get((r.kind, r.terminals))
        ratio = r.rounds_s / base if base else float("nan")
        out.append(
            f"| {r.kind} | {r.workers} | {r.terminals} | {r.rounds_s:.0f} | {ratio:.2f} | "
            f"{r.req_p50:.1f} | {r.req_p99:.1f} | {r.load_cores:.2f} | {r.busy:.2f} | "
            f"{r.server_cores:.2f} | {r.cpu_ms:.2f} | {r.db_ms:.2f} | {r.errors} |"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(out) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
