"""The SP 800-22 battery over many sequences of 10^6 bits: one process against a Dask
LocalCluster of 1 and 2 worker processes (``croupier certify sp800-22 --dask local:N``).

Same sequences (seeded NumPy bits), same 15 tests, in this run: the single-process
``run_suite``, then ``run_suite(dask=...)`` on a fresh LocalCluster of 1 and of 2
single-threaded workers (cluster start-up included, as a campaign pays it). Every
run's p-values are checked equal to the single process's. Wall seconds and sequences
per second; speed-up over the single process. The issue's campaign is 1,000 sequences;
the default here is fewer so the run fits a shared machine (the rate is per sequence).

Run: .venv/bin/python bench/bench_cluster.py [--sequences 16]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

from bench._common import machine  # noqa: E402
from certification.cluster import client  # noqa: E402
from certification.stats.sp800_22.suite import run_suite  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sequences", type=int, default=16)
    p.add_argument("--length", type=int, default=1_000_000)
    p.add_argument("--out", type=Path, default=HERE / "results" / "cluster.md")
    args = p.parse_args()
    rng = np.random.default_rng(18)
    seqs = [rng.integers(0, 2, args.length, dtype=np.uint8) for _ in range(args.sequences)]
    t0 = time.perf_counter()
    base = run_suite(seqs)
    rows = [("one process", time.perf_counter() - t0, True)]
    for n in (1, 2):
        t0 = time.perf_counter()
        with client(f"local:{n}") as dask:
            got = run_suite(seqs, dask=dask)
        rows.append((f"Dask LocalCluster, {n} worker(s)", time.perf_counter() - t0,
                     got.per_sequence == base.per_sequence))  # fmt: skip
        print(rows[-1], flush=True)
    single = rows[0][1]
    out = [
        "## SP 800-22 campaigns on Dask (bench/bench_cluster.py)\n",
        f"Command: `.venv/bin/python bench/bench_cluster.py --sequences {args.sequences}`  ",
        f"Machine: {machine()}. {args.sequences} sequences of {args.length:,} bits, all 15",
        "tests; cluster start-up included; identical = every p-value equals the single",
        "process's.\n",
        "| run | wall s | sequences/s | speed-up | identical |",
        "|---|---:|---:|---:|---|",
    ]
    for name, secs, same in rows:
        out.append(
            f"| {name} | {secs:.1f} | {args.sequences / secs:.2f} | {single / secs:.2f} | "
            f"{'yes' if same else 'NO'} |"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(out) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
