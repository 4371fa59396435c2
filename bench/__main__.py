"""Run every side-by-side benchmark, then gather their figures into bench/RESULTS.md.

``python -m bench``            runs all bench_*.py scripts (each writes bench/results/<topic>.md)
``python -m bench --collect``  only rebuilds RESULTS.md from the existing results files
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def collect() -> Path:
    parts = [
        "# Benchmark results\n",
        "Every figure below was measured side by side with its peer in the same run, on the",
        "project's machine class (2 cores, 24 GiB, shared and noisy): medians and ratios.",
        "Each section names the command that produced it; `make bench` re-runs them all and",
        "rebuilds this file (`python -m bench --collect` only rebuilds it).\n",
    ]
    for md in sorted((HERE / "results").glob("*.md")):
        parts.append(md.read_text().strip() + "\n")
    out = HERE / "RESULTS.md"
    out.write_text("\n".join(parts))
    return out


def main() -> int:
    p = argparse.ArgumentParser(prog="python -m bench")
    p.add_argument("--collect", action="store_true", help="only rebuild RESULTS.md")
    p.add_argument("only", nargs="*", help="run only these topics (e.g. rng eval)")
    args = p.parse_args()
    if not args.collect:
        print(f"machine: {platform.machine()} python {sys.version.split()[0]}")
        for script in sorted(HERE.glob("bench_*.py")):
            topic = script.stem.removeprefix("bench_")
            if args.only and topic not in args.only:
                continue
            print(f"== {script.name}", flush=True)
            subprocess.run([sys.executable, str(script)], check=True, cwd=HERE.parent)
    print(f"wrote {collect()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
