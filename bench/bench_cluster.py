"""The SP 800-22 battery over many sequences of 10^6 bits: one process against a Dask
LocalCluster of 1 and 2 worker processes (``croupier certify sp800-22 --dask local:N``).

Same sequences (seeded NumPy bits), same 15 tests, in this run: the single-process
``run_suite`` with one thread and with its default threads (one per core), its heap
keeping freed memory as the command's does (``keep_freed_memory``), then
``run_suite(dask=...)`` on a fresh LocalCluster of 1 and of 2 single-threaded workers
(cluster start-up included, as a campaign pays it, and shown apart). Every run's
p-values are checked equal to the first's. Wall seconds, sequences per second, the
speed-up over the one-thread process, and CPU seconds (user + system) of the process
and of the Dask workers, which on a shared machine say more than wall time. The
issue's campaign is 1,000 sequences (the default).

Run: .venv/bin/python bench/bench_cluster.py [--sequences 1000]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

from bench._common import machine  # noqa: E402
from certification.cluster import client, keep_freed_memory  # noqa: E402
from certification.stats.sp800_22.suite import SuiteResult, run_suite  # noqa: E402


@dataclass
class Row:
    name: str
    wall: float
    cpu: float  # user + system seconds: this process, plus the Dask workers'
    start: float  # the cluster's start-up (wall, included in ``wall``)
    same: bool


def cpu_now() -> float:
    """This process's user + system seconds (a worker's, when run there)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def local(seqs: list[Any], threads: int, name: str, base: SuiteResult | None) -> tuple[Row, Any]:
    c0, t0 = cpu_now(), time.perf_counter()
    got = run_suite(seqs, threads=threads)
    row = Row(name, time.perf_counter() - t0, cpu_now() - c0, 0.0,
              base is None or got.per_sequence == base.per_sequence)  # fmt: skip
    return row, got


def on_cluster(seqs: list[Any], n: int, base: SuiteResult) -> Row:
    c0, t0 = cpu_now(), time.perf_counter()
    with client(f"local:{n}") as dask:
        start = time.perf_counter() - t0
        measure: Callable[[], float] = cpu_now
        w0 = dask.run(measure)
        got = run_suite(seqs, dask=dask)
        w1 = dask.run(measure)
    wall = time.perf_counter() - t0
    workers = sum(w1[k] - w0[k] for k in w1 if k in w0)
    return Row(f"Dask LocalCluster, {n} worker{'s' if n > 1 else ''}", wall,
               cpu_now() - c0 + workers, start, got.per_sequence == base.per_sequence)  # fmt: skip


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sequences", type=int, default=1000)
    p.add_argument("--length", type=int, default=1_000_000)
    p.add_argument("--out", type=Path, default=HERE / "results" / "cluster.md")
    args = p.parse_args()
    keep_freed_memory()  # as `croupier certify sp800-22` does, and as every Dask task does
    rng = np.random.default_rng(18)
    seqs = [rng.integers(0, 2, args.length, dtype=np.uint8) for _ in range(args.sequences)]
    load0 = os.getloadavg()[0]
    first, base = local(seqs, 1, "one process, 1 thread", None)
    rows = [first]
    print(rows[-1], flush=True)
    cores = os.cpu_count() or 1
    rows.append(local(seqs, cores, f"one process, {cores} threads (the default)", base)[0])
    print(rows[-1], flush=True)
    for n in (1, 2):
        rows.append(on_cluster(seqs, n, base))
        print(rows[-1], flush=True)
    load1 = os.getloadavg()[0]
    single = rows[0].wall
    out = [
        "## SP 800-22 campaigns on Dask (bench/bench_cluster.py)\n",
        f"Command: `.venv/bin/python bench/bench_cluster.py --sequences {args.sequences}`  ",
        f"Machine: {machine()}; load average {load0:.1f} at the start, {load1:.1f} at the",
        f"end. {args.sequences:,} sequences of {args.length:,} bits, all 15 tests; the",
        "cluster's start-up is included in its wall time (and shown apart); CPU is user +",
        "system seconds of this process plus the Dask workers'; identical = every p-value",
        "equals the one-thread process's.\n",
        "| run | wall s | sequences/s | speed-up | CPU s | CPU ms a sequence | "
        "cluster start s | identical |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        out.append(
            f"| {r.name} | {r.wall:.1f} | {args.sequences / r.wall:.2f} | {single / r.wall:.2f} "
            f"| {r.cpu:.1f} | {1000 * r.cpu / args.sequences:.0f} | "
            f"{r.start:.1f} | {'yes' if r.same else 'NO'} |"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(out) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
