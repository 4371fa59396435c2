"""How much of a worker's time and CPU falls inside SQLite's write lock (bench_workers' why).

Runs ``croupier serve`` (W = 1: one process; W = 2: ``--workers 2 --worker I`` each
started here, as the supervisor does) on a fresh SQLite store with the store's writer
lock timed: each process wraps ``Database._begin`` / ``_ended`` (the write lock taken:
``BEGIN IMMEDIATE``, and for a shared store the ``croupier.writer`` flock, until the
group ends) and every unit's body (``GroupCommit.transaction``), and writes its
totals to a file each second. Under bench_kiosk's load (N terminals, a $1 banker bet
then Deal) it prints, per process over the window: the share of wall time the lock is
held, the share of the process's CPU spent while it is held (every thread's), and the
share spent in unit bodies; and per group (one ``BEGIN IMMEDIATE`` .. ``COMMIT``): how
many units it held and how its milliseconds inside the lock split between the unit
bodies and the ``COMMIT`` (its WAL write and fsync). With a share ``s`` of the CPU inside
the lock, two workers can settle at most ``1 / s`` times what one does, whatever the
cores.

Run: .venv/bin/python bench/workers_lock.py [--workers 1 2] [--terminals 50] [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench._common import free_ports  # noqa: E402
from bench.bench_kiosk import config  # noqa: E402
from bench.bench_workers import load, wait_ports  # noqa: E402

#: run in each server process (python -c): times the lock and the units, then serves
TIMED = r"""
import runpy, sys, threading, time
from contextlib import contextmanager
from kiosk_ui.store import db
from kiosk_ui.store.group import GroupCommit
out, sys.argv = sys.argv[1], ["croupier", *sys.argv[2:]]
st = {"held": 0.0, "held_cpu": 0.0, "unit_cpu": 0.0, "t0": 0.0, "c0": 0.0, "depth": 0,
      "groups": 0, "units": 0, "unit_wall": 0.0, "commit": 0.0}
begin, ended, tx = db.Database._begin, db.Database._ended, GroupCommit.transaction
commit = GroupCommit._commit
def _begin(self):
    begin(self)
    st["t0"], st["c0"] = time.monotonic(), time.process_time()
def _ended(self):
    if st["t0"]:
        st["held"] += time.monotonic() - st["t0"]
        st["held_cpu"] += time.process_time() - st["c0"]
        st["t0"] = 0.0
        st["groups"] += 1
    ended(self)
def _commit(self, group):
    t = time.monotonic()
    try:
        commit(self, group)
    finally:
        st["commit"] += time.monotonic() - t
@contextmanager
def transaction(self, *, defer=False):
    with tx(self, defer=defer) as conn:
        st["depth"] += 1
        c, w = time.thread_time(), time.monotonic()
        try:
            yield conn
        finally:
            st["depth"] -= 1
            if not st["depth"]:
                st["unit_cpu"] += time.thread_time() - c
                st["unit_wall"] += time.monotonic() - w
                st["units"] += 1
db.Database._begin, db.Database._ended, GroupCommit.transaction = _begin, _ended, transaction
GroupCommit._commit = _commit
def dump():
    while True:
        time.sleep(0.5)
        now = (time.monotonic(), time.process_time())
        with open(out, "w") as f:
            keys = ("held", "held_cpu", "unit_cpu", "groups", "units", "unit_wall", "commit")
            f.write(" ".join(map(str, (*now, *(st[k] for k in keys)))))
threading.Thread(target=dump, daemon=True).start()
runpy.run_module("kiosk_ui.cli", run_name="__main__")
"""


def snapshot(paths: list[Path]) -> list[list[float]]:
    return [[float(x) for x in p.read_text().split()] for p in paths]


def run(workers: int, terminals: int, seconds: float) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="workers-lock-"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    conf = config(tmp / "store", terminals, "FULL")
    init = [sys.executable, "-m", "kiosk_ui.cli", "store", "init", "--config", str(conf)]
    subprocess.run(init, check=True, capture_output=True, env=env, cwd=ROOT)
    base = free_ports(workers)
    outs = [tmp / f"lock-{i}.txt" for i in range(workers)]
    procs = []
    for i in range(workers):
        extra = ["--workers", str(workers), "--worker", str(i)] if workers > 1 else []
        cmd = [sys.executable, "-c", TIMED, str(outs[i]), "serve", "--port", str(base + i),
               "--config", str(conf), *extra]  # fmt: skip
        procs.append(subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL))
    try:
        for i, p in enumerate(procs):
            wait_ports(base + i, 1, p)
        snaps: dict[str, list[list[float]]] = {}

        def take(key: str, at: float) -> None:
            time.sleep(at)
            snaps[key] = snapshot(outs)

        marks = [threading.Thread(target=take, args=k) for k in (("a", 2.6), ("b", 1.4 + seconds))]
        for t in marks:
            t.start()
        row = asyncio.run(load(base, workers, terminals, seconds, False, [p.pid for p in procs]))
        for t in marks:
            t.join()
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            p.wait(timeout=30)
    print(f"{workers} worker(s), {terminals} terminals: {row.rounds_s:.0f} rounds/s, server "
          f"{row.server_cores:.2f} cores, {row.cpu_ms:.2f} ms CPU/round")  # fmt: skip
    for i, (a, b) in enumerate(zip(snaps["a"], snaps["b"], strict=True)):
        wall, cpu = b[0] - a[0], b[1] - a[1]
        held, held_cpu, unit = b[2] - a[2], b[3] - a[3], b[4] - a[4]
        groups, units, unit_wall, commit = (b[k] - a[k] for k in (5, 6, 7, 8))
        print(f"  process {i}: write lock held {held / wall:.0%} of the time; "
              f"{held_cpu / max(cpu, 1e-9):.0%} of its CPU inside it; unit bodies "
              f"{unit / max(cpu, 1e-9):.0%} of its CPU")  # fmt: skip
        per = 1e3 / max(groups, 1)
        print(f"    {groups / wall:.0f} groups/s, {units / max(groups, 1):.1f} units each; "
              f"a group holds the lock {held * per:.1f} ms: units {unit_wall * per:.1f} ms, "
              f"COMMIT {commit * per:.1f} ms, the rest {(held - unit_wall - commit) * per:.1f} "
              "ms (opening it, the loop between units)")  # fmt: skip


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--terminals", type=int, default=50)
    p.add_argument("--seconds", type=float, default=8.0)
    args = p.parse_args()
    for w in args.workers:
        run(w, args.terminals, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
