"""Issue 13 ("one shape") may not slow the fast paths: before and after, side by side.

The "before" tree is a git revision (default ``cbe50d5``, main before issue 13) exported
with ``git archive`` into a temporary folder; the "after" tree is this checkout. Both run
with the same interpreter and packages (``.venv``), each with ``PYTHONPATH`` and the working
directory set to its own tree, alternating run by run, so machine noise falls on both.

1. **Runtime**: ``croupier table autoplay --game G --rounds N --source sim --seed 1
   --sync NORMAL --quiet`` on a fresh store: the whole runtime (engine, RNG shoe, log,
   ledger) settling rounds with no HTTP. Measured: settled rounds per CPU-second of the
   process (user + system, from ``resource.getrusage`` of the child), the figure a loaded
   shared machine keeps steady; wall-clock rounds/s is shown too.
2. **Kiosk load test**: ``croupier serve`` with one baccarat table per terminal, N
   terminals playing whole rounds (``POST .../round``) over keep-alive HTTP (the client of
   ``bench/bench_kiosk.py``); settled rounds per server CPU-second (from /proc) and
   wall-clock rounds/s.

The bar (issue 13): after / before >= 0.95 on each.

Run: .venv/bin/python -m bench.bench_layout [--before REV] [--repeats 5] [--rounds 2000]
     [--seconds 6] [--terminals 50]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

from bench.bench_kiosk import config, served_load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
CLI = "import sys; from kiosk_ui.cli import main; sys.exit(main())"
GAMES = (
    "baccarat-pinnacle",
    "blackjack-pinnacle",
    "craps-pinnacle",
    "roulette-single-zero",
    "three-card-poker",
    "pai-gow-pinnacle",
)


def export(rev: str, dest: Path) -> Path:
    """The tree of ``rev`` (tracked files only) unpacked under ``dest``."""
    blob = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def env_for(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "PYTHONUNBUFFERED": "1"}


def autoplay(tree: Path, game: str, rounds: int, store: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one autoplay run of ``rounds`` rounds in ``tree``."""
    cmd = [str(PYTHON), "-c", CLI, "table", "autoplay", "--game", game, "--rounds", str(rounds)]
    cmd += ["--store", str(store), "--source", "sim", "--seed", "1", "--sync", "NORMAL"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [*cmd, "--quiet"], capture_output=True, text=True, cwd=tree, env=env_for(tree)
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(store, ignore_errors=True)
    if done.returncode != 0:
        raise RuntimeError(f"autoplay failed in {tree}: {done.stderr.strip()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def serve(tree: Path, terminals: int, seconds: float, tmp: Path) -> tuple[float, float]:
    """(rounds per server CPU-second, wall rounds/s) of one served load run in ``tree``."""
    store = tmp / "store-serve"
    conf = str(config(store, terminals, "FULL"))
    cli = [str(PYTHON), "-c", CLI]
    cmd = [*cli, "serve", "--port", "0", "--config", conf]
    stats, busy = served_load(
        cmd, conf, store, terminals, seconds, env=env_for(tree), cli=cli, cwd=tree
    )
    if stats.errors:
        raise RuntimeError(f"{stats.errors} errors in the load run of {tree}")
    return stats.rounds / busy, stats.rounds / seconds


Runtime = dict[tuple[str, str], list[tuple[float, float]]]
Served = dict[str, list[tuple[float, float]]]


def measure(args: argparse.Namespace) -> tuple[Runtime, Served]:
    """Every run, the sides alternating: (rounds/CPU-s, rounds/s) per game and side, and
    per side for the served load."""
    with tempfile.TemporaryDirectory(prefix="bench-layout-") as d:
        tmp = Path(d)
        after = export(args.after, tmp / "after") if args.after else ROOT
        trees = {"before": export(args.before, tmp / "before"), "after": after}
        sides = ("before", "after")
        runtime: Runtime = {}
        served: Served = {}
        for rep in range(args.repeats):
            order = sides if rep % 2 == 0 else sides[::-1]
            for game in args.games:
                for side in order:
                    cpu, wall = autoplay(trees[side], game, args.rounds, tmp / f"store-{side}")
                    runtime.setdefault((game, side), []).append(
                        (args.rounds / cpu, args.rounds / wall)
                    )
                    print(f"{side:6s} {game:22s} {args.rounds / cpu:8.1f} rounds/CPU-s", flush=True)
            for side in order:
                per_cpu, wall_rate = serve(trees[side], args.terminals, args.seconds, tmp)
                served.setdefault(side, []).append((per_cpu, wall_rate))
                print(
                    f"{side:6s} serve {args.terminals} terminals {per_cpu:8.1f} rounds/CPU-s",
                    flush=True,
                )
    return runtime, served


def table_rows(args: argparse.Namespace, runtime: Runtime, served: Served) -> list[str]:
    """The results table: medians per side and the after/before ratios."""
    rows: list[str] = []
    med = statistics.median
    rows.append(
        "| what | before rounds/CPU-s | after rounds/CPU-s | ratio "
        "| before rounds/s | after rounds/s | ratio |"
    )
    rows.append("|---|---:|---:|---:|---:|---:|---:|")
    for game in args.games:
        b, a = runtime[(game, "before")], runtime[(game, "after")]
        bc, ac = med(x for x, _ in b), med(x for x, _ in a)
        bw, aw = med(y for _, y in b), med(y for _, y in a)
        rows.append(
            f"| runtime autoplay {game} | {bc:.0f} | {ac:.0f} | {ac / bc:.3f} "
            f"| {bw:.0f} | {aw:.0f} | {aw / bw:.3f} |"
        )
    b, a = served["before"], served["after"]
    bc, ac = med(x for x, _ in b), med(x for x, _ in a)
    bw, aw = med(y for _, y in b), med(y for _, y in a)
    rows.append(
        f"| kiosk load, {args.terminals} terminals, baccarat rounds | {bc:.0f} | {ac:.0f} | "
        f"{ac / bc:.3f} | {bw:.0f} | {aw:.0f} | {aw / bw:.3f} |"
    )
    return rows


def header_lines(args: argparse.Namespace) -> list[str]:
    """The results file's heading: the command, the trees and the machine."""
    head = (
        args.after
        or subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
    )
    return [
        "## Layout (issue 13): the fast paths before and after, side by side "
        "(bench/bench_layout.py)\n",
        "Command: `.venv/bin/python -m bench.bench_layout "
        f"--before {args.before} --repeats {args.repeats} --rounds {args.rounds} "
        f"--seconds {args.seconds:g} --terminals {args.terminals}"
        + (f" --after {args.after}" if args.after else "")
        + "`  ",
        f"Before: `{args.before}`; after: `{head}`. Machine: "
        f"{os.cpu_count()} cores, shared and noisy; Python {platform.python_version()}. "
        f"Sides alternate run by run; each cell is the median of {args.repeats} runs. "
        "The bar: ratio (after / before) >= 0.95.\n",
    ]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--before", default="cbe50d5", help="git revision of the before tree")
    p.add_argument(
        "--after", default="", help="git revision of the after tree (default: this checkout)"
    )
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--rounds", type=int, default=2000, help="autoplay rounds per run")
    p.add_argument("--seconds", type=float, default=6.0, help="load window per served run")
    p.add_argument("--terminals", type=int, default=50)
    p.add_argument("--games", nargs="+", default=list(GAMES))
    p.add_argument("--out", type=Path, default=HERE / "results" / "layout.md")
    args = p.parse_args()
    runtime, served = measure(args)
    rows = table_rows(args, runtime, served)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join([*header_lines(args), *rows]) + "\n")
    print("\n".join(rows))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
