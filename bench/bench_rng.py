"""rng: DRBG bytes/s against /dev/urandom, shuffles/s and randbelow/s against the stdlib.

Run: ``.venv/bin/python bench/bench_rng.py [--repeat 5] [--mb 200]``

Side by side, in one run (medians of ``--repeat`` runs each):

* bytes/s of ``croupier rng stream --source os --bytes N`` (a subprocess writing to a
  pipe this script drains) against ``head -c N /dev/urandom`` into the same kind of
  pipe, sustained (after the first MiB) and over the whole run (start-up included); and
  in-process, the CTR_DRBG generator's ``generate(1 MiB)`` against ``read(1 MiB)`` from
  /dev/urandom;
* shuffles/s of a 6-deck (312) and an 8-deck (416) shoe: ``Rng.shoe`` against
  ``random.SystemRandom().shuffle`` and a Fisher-Yates over ``secrets.randbelow``;
* ``Rng.randbelow(52)`` calls/s against ``secrets.randbelow(52)``.

Targets (issue 3): shuffles at least 5x SystemRandom().shuffle, DRBG output within 2x
of /dev/urandom. Writes bench/results/rng.md.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import machine  # noqa: E402
from rng.config import RngConfig  # noqa: E402
from rng.factory import open_rng  # noqa: E402
from rng.generator import DrbgGenerator  # noqa: E402
from rng.sample import Rng  # noqa: E402

MIB = 1 << 20


def side_by_side(fns: list[Callable[[], int]], repeat: int) -> list[float]:
    """Median rate (units / s) of each function; the runs are interleaved (a, b, c, a, b,
    c, ...) after one warm-up round, so a shared machine's load swings hit all alike."""
    rates: list[list[float]] = [[] for _ in fns]
    for round_ in range(repeat + 1):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            units = fn()
            if round_:
                rates[i].append(units / (time.perf_counter() - t))
    return [statistics.median(r) for r in rates]


def drain(cmd: list[str], n: int) -> tuple[float, float]:
    """Run ``cmd``, read its ``n`` bytes; return (bytes/s overall, bytes/s after the first MiB).

    The second figure leaves out process start-up (Python imports for croupier), so it
    compares the generators' sustained output.
    """
    start = time.perf_counter()
    with subprocess.Popen(cmd, stdout=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        got = 0
        first_at = 0.0
        while chunk := proc.stdout.read(MIB):
            got += len(chunk)
            if not first_at and got >= MIB:
                first_at, first_bytes = time.perf_counter(), got
        if proc.wait() != 0 or got != n:
            raise SystemExit(f"{cmd[0]} failed or wrote {got} of {n} bytes")
    end = time.perf_counter()
    return n / (end - start), (n - first_bytes) / (end - first_at)


def median_pipes(a: list[str], b: list[str], n: int, repeat: int) -> list[float]:
    """Whole-run and sustained medians of two commands, runs interleaved."""
    runs_a, runs_b = [], []
    for _ in range(repeat):
        runs_a.append(drain(a, n))
        runs_b.append(drain(b, n))
    return [statistics.median(x[i] for x in runs) for runs in (runs_a, runs_b) for i in (0, 1)]


def secrets_shuffle(x: list[int]) -> None:
    for i in range(len(x) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        x[i], x[j] = x[j], x[i]


Row = tuple[str, str, float, str]  # (measure, who, rate, unit)


def byte_rows(n: int, r: int) -> tuple[list[Row], dict[str, float]]:
    """``rng stream`` against ``head -c /dev/urandom`` through a pipe (subprocesses)."""
    croupier = [sys.executable, "-m", "kiosk_ui.cli", "rng", "stream", "--source", "os"]
    cli_total, cli_drbg, head_total, cli_urandom = median_pipes(
        [*croupier, "--bytes", str(n)], ["head", "-c", str(n), "/dev/urandom"], n, r
    )
    rows = [
        ("pipe, sustained (after 1st MiB)", "croupier rng stream (CTR_DRBG)", cli_drbg, "MB/s"),
        ("pipe, sustained (after 1st MiB)", "head -c N /dev/urandom", cli_urandom, "MB/s"),
        ("pipe, whole run incl. start-up", "croupier rng stream (CTR_DRBG)", cli_total, "MB/s"),
        ("pipe, whole run incl. start-up", "head -c N /dev/urandom", head_total, "MB/s"),
    ]
    ratios = {"pipe": cli_drbg / cli_urandom, "pipe whole": cli_total / head_total}
    return rows, ratios


def in_process_rows(gen: DrbgGenerator, n: int, r: int) -> tuple[list[Row], float]:
    """The DRBG's ``generate(1 MiB)`` against ``read(1 MiB)`` from /dev/urandom."""

    def drbg_run() -> int:
        for _ in range(n // MIB):
            gen.generate(MIB)
        return n

    def urandom_run() -> int:
        with open("/dev/urandom", "rb", buffering=0) as f:
            for _ in range(n // MIB):
                f.read(MIB)
        return n

    in_drbg, in_urandom = side_by_side([drbg_run, urandom_run], r)
    rows = [
        ("in process, 1 MiB reads", "DrbgGenerator.generate (CTR_DRBG)", in_drbg, "MB/s"),
        ("in process, 1 MiB reads", "read /dev/urandom", in_urandom, "MB/s"),
    ]
    return rows, in_drbg / in_urandom


def shuffle_rows(rng: Rng, r: int) -> tuple[list[Row], dict[int, float]]:
    """6- and 8-deck shoes: ``Rng.shoe`` against SystemRandom and a secrets Fisher-Yates."""
    rows: list[Row] = []
    system = random.SystemRandom()
    shuffle_ratio = {}
    for decks in (6, 8):
        cards = list(range(52)) * decks
        reps = 2000

        def ours(decks: int = decks, reps: int = reps) -> int:
            for _ in range(reps):
                rng.shoe(decks)
            return reps

        def sysrandom(cards: list[int] = cards, reps: int = reps) -> int:
            for _ in range(reps // 5):
                system.shuffle(cards)
            return reps // 5

        def viasecrets(cards: list[int] = cards, reps: int = reps) -> int:
            for _ in range(reps // 5):
                secrets_shuffle(cards)
            return reps // 5

        a, b, c = side_by_side([ours, sysrandom, viasecrets], r)
        shuffle_ratio[decks] = a / b
        label = f"{decks}-deck shoe ({52 * decks} cards)"
        rows += [
            (label, "Rng.shoe (rejection, batched, Fisher-Yates)", a, "shuffles/s"),
            (label, "random.SystemRandom().shuffle", b, "shuffles/s"),
            (label, "Fisher-Yates over secrets.randbelow", c, "shuffles/s"),
        ]
    return rows, shuffle_ratio


def randbelow_rows(rng: Rng, r: int) -> tuple[list[Row], float]:
    """``Rng.randbelow(52)`` calls/s against ``secrets.randbelow(52)``."""
    calls = 200_000

    def ours_below() -> int:
        for _ in range(calls):
            rng.randbelow(52)
        return calls

    def secrets_below() -> int:
        for _ in range(calls):
            secrets.randbelow(52)
        return calls

    below_ours, below_secrets = side_by_side([ours_below, secrets_below], r)
    rows = [
        ("randbelow(52)", "Rng.randbelow", below_ours, "calls/s"),
        ("randbelow(52)", "secrets.randbelow", below_secrets, "calls/s"),
    ]
    return rows, below_ours / below_secrets


def report(
    r: int,
    mb: int,
    rows: list[Row],
    pipe: dict[str, float],
    in_proc: float,
    shuffle_ratio: dict[int, float],
    below: float,
) -> str:
    """The results file: every rate, then the ratios against their targets."""

    def fmt(rate: float, unit: str) -> str:
        return f"{rate / 1e6:,.1f}" if unit == "MB/s" else f"{rate:,.0f}"

    lines = [
        "## rng: DRBG throughput, shuffles and randbelow against the standard peers",
        "",
        f"Command: `.venv/bin/python bench/bench_rng.py --repeat {r} --mb {mb}`  ",
        f"Machine: {machine()}  ",
        f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; every figure is the "
        f"median of {r} runs, "
        "interleaved with the peer's runs after a warm-up round.",
        "",
        "| measure | implementation | median rate | unit |",
        "|---|---|---:|---|",
    ]
    lines += [f"| {m} | {who} | {fmt(rate, unit)} | {unit} |" for m, who, rate, unit in rows]
    lines += [
        "",
        "| ratio | value | target |",
        "|---|---:|---|",
        f"| `rng stream` / `head -c /dev/urandom` (pipe, sustained) "
        f"| {pipe['pipe']:.2f} | >= 0.5 |",
        f"| the same, whole run incl. start-up | {pipe['pipe whole']:.2f} | (none) |",
        f"| DRBG generate / read /dev/urandom (in process) | {in_proc:.2f} | >= 0.5 |",
        f"| 6-deck shoe: Rng.shoe / SystemRandom().shuffle | {shuffle_ratio[6]:.1f} | >= 5 |",
        f"| 8-deck shoe: Rng.shoe / SystemRandom().shuffle | {shuffle_ratio[8]:.1f} | >= 5 |",
        f"| randbelow: Rng / secrets | {below:.2f} | (none) |",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--mb", type=int, default=200, help="MiB per byte-throughput run")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "rng.md")
    args = ap.parse_args()
    r, n = args.repeat, args.mb * MIB

    rows, pipe = byte_rows(n, r)
    stack = open_rng(RngConfig(source="os"), real_money=False)
    in_rows, in_proc = in_process_rows(stack.generator, n, r)
    shuffles, shuffle_ratio = shuffle_rows(stack.rng, r)
    below_rows, below = randbelow_rows(stack.rng, r)
    stack.close()
    rows += in_rows + shuffles + below_rows

    text = report(r, args.mb, rows, pipe, in_proc, shuffle_ratio, below)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
