"""sp800_90b: SP 800-90B non-IID assessment of 10^6 8-bit samples, against NIST's tool.

Run: ``.venv/bin/python bench/bench_sp800_90b.py [--repeat 3] [--file F] [--bits 8]``

Times ``croupier certify sp800-90b FILE --bits-per-symbol 8 -v`` as a process (start-up,
imports, reading and both tracks of all ten estimators on ``truerand_8bit.bin``, NIST's
own 10^6-sample file, 8x10^6 bits in the bitstring track) against NIST's ``ea_non_iid -v
-v FILE 8`` (built from ``../shared/peers`` into ``.peers/`` by bench/peers.py on first
use, or the binary ``EA_NON_IID`` names), interleaved in the same run; medians of
``--repeat`` runs, wall clock and CPU (user + system, split) of each process. The two
transcripts are compared value by value. One more run in this process gives the
per-estimator table. The numba cache (the compiled predictor loops beside their modules)
is stated: warm when every kernel was already compiled. ``--no-peer`` falls back to the
tool's recorded figure.

Target (issue 19): at least 2x faster than NIST's tool, wall clock. Writes
bench/results/sp800_90b.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from certification.sp800_90b.non_iid import NonIidResult, assess_non_iid  # noqa: E402
from certification.sp800_90b.samples import read_samples  # noqa: E402

DEFAULT_FILE = ROOT / "tests" / "data" / "sp800-90b" / "truerand_8bit.bin"
RECORDED_NIST_SECONDS = 17.0
_LINE = re.compile(r"^(Literal|Bitstring) (.+?) Estimate: (.*)$")


def parse(text: str) -> dict[tuple[str, ...], str]:
    """``(track, estimator, quantity) -> value`` from a ``-vv`` transcript."""
    out: dict[tuple[str, ...], str] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            track, est, rest = m.groups()
            key, _, val = rest.partition(" = ")
            out[(track, est, key.strip())] = val.strip()
        elif line.startswith(("H_bitstring = ", "H_original", "Assessed min entropy")):
            key, _, val = line.replace(" = ", ": ").partition(": ")
            out[(key.strip(),)] = val.strip()
    return out


def differences(ours: str, theirs: str) -> list[str]:
    """Quantities that differ beyond last-digit floating-point noise (rel. 1e-12)."""
    a, b = parse(ours), parse(theirs)
    diffs = []
    for key in sorted(set(a) | set(b)):
        va, vb = a.get(key), b.get(key)
        if va == vb:
            continue
        try:
            assert va is not None and vb is not None
            fa, fb = float(va), float(vb)
            if abs(fa - fb) <= 1e-12 * max(abs(fb), 1e-300) and "." in vb:
                continue
        except (AssertionError, ValueError):
            pass
        diffs.append(f"{' / '.join(key)}: ours {va}, NIST {vb}")
    return diffs


def run_ours(path: Path, bits: int | None) -> tuple[float, float, float, str]:
    """``croupier certify sp800-90b`` as a process: wall, user and system s, transcript."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "certify", "sp800-90b", str(path), "-v"]
    cmd += ["--bits-per-symbol", str(bits)] if bits else []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, proc.stdout


def cache_state() -> str:
    """Whether numba's cache holds the kernels (warm) before the first run."""
    caches = list((ROOT / "certification" / "sp800_90b" / "__pycache__").glob("*.nbi"))
    if os.environ.get("NUMBA_CACHE_DIR"):
        return "in NUMBA_CACHE_DIR (not checked)"
    where = "certification/sp800_90b/__pycache__"
    return f"warm (compiled kernels in {where})" if caches else "cold (run 1 compiled them)"


def run_nist(binary: str, path: Path, bits: int | None) -> tuple[float, float, str]:
    cmd = [binary, "-v", "-v", str(path)] + ([str(bits)] if bits else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


@dataclass
class Runs:
    """The timings of ``--repeat`` runs (ours, and NIST's when it ran), and the last results."""

    cache: str = ""
    ours_wall: list[float] = field(default_factory=list)
    ours_user: list[float] = field(default_factory=list)
    ours_sys: list[float] = field(default_factory=list)
    nist_wall: list[float] = field(default_factory=list)
    nist_cpu: list[float] = field(default_factory=list)
    ours_text: str = ""
    nist_text: str = ""
    last: NonIidResult | None = None


def run_all(args: argparse.Namespace, nist: str | None) -> Runs:
    """Our command ``--repeat`` times, each followed by NIST's tool when it is given."""
    runs = Runs(cache=cache_state())
    for _ in range(args.repeat):
        wall, user, sys_s, runs.ours_text = run_ours(args.file, args.bits)
        runs.ours_wall.append(wall)
        runs.ours_user.append(user)
        runs.ours_sys.append(sys_s)
        print(f"ours: {wall:.1f} s wall, {user:.1f} s user, {sys_s:.1f} s system", flush=True)
        if nist:
            w, c, runs.nist_text = run_nist(nist, args.file, args.bits)
            runs.nist_wall.append(w)
            runs.nist_cpu.append(c)
            print(f"NIST ea_non_iid: {w:.1f} s wall, {c:.1f} s CPU", flush=True)
    runs.last = assess_non_iid(read_samples(args.file, args.bits))  # per-estimator times
    return runs


def report(args: argparse.Namespace, nist: str | None, runs: Runs) -> list[str]:
    """The results file's lines: the whole run against NIST's, then per estimator."""
    last = runs.last
    assert last is not None
    mw = statistics.median(runs.ours_wall)
    mu, ms = statistics.median(runs.ours_user), statistics.median(runs.ours_sys)
    mc = mu + ms
    load = os.getloadavg()
    bits = f" --bits-per-symbol {args.bits}" if args.bits else ""
    lines = [
        "## SP 800-90B non-IID assessment (certification.sp800_90b)\n",
        f"Command: `.venv/bin/python bench/bench_sp800_90b.py --repeat {args.repeat}`"
        + ("" if nist else " --no-peer"),
        f"Data: `{args.file.name}` ({last.samples} samples, {last.word_size}-bit, "
        f"{last.bit_count} bits in the bitstring track). Machine: {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end (shared, noisy). "
        f"numba cache: {runs.cache}.\n",
        "| run (a process each, medians) | wall s | CPU s (user + system) |",
        "|---|---|---|",
        f"| `croupier certify sp800-90b {args.file.name}{bits} -v` | {mw:.2f} "
        f"| {mc:.2f} ({mu:.2f} + {ms:.2f}) |",
    ]
    if nist:
        nw, nc = statistics.median(runs.nist_wall), statistics.median(runs.nist_cpu)
        lines.append(
            f"| NIST `ea_non_iid -v -v {args.file.name} {args.bits}` | {nw:.2f} | {nc:.2f} |"
        )
        lines.append("")
        verdict = "met" if nw / mw >= 2.0 else "NOT met"
        lines.append(
            f"NIST / croupier: {nw / mw:.2f}x wall, {nc / mc:.2f}x CPU "
            f"(target at least 2x wall: {verdict})."
        )
        diffs = differences(runs.ours_text, runs.nist_text)
        lines.append(
            "Result differences: none (every printed quantity equal, reals to 1e-12)."
            if not diffs
            else "Result differences:\n" + "\n".join(f"- {d}" for d in diffs)
        )
    else:
        lines.append(
            f"| NIST ea_non_iid (recorded figure for this machine class; `EA_NON_IID` unset) "
            f"| {RECORDED_NIST_SECONDS:.0f} | - |"
        )
        lines.append("")
        lines.append(
            f"NIST (recorded) / croupier: {RECORDED_NIST_SECONDS / mw:.2f}x wall (target at "
            "least 2x). Results: identical to NIST's transcript `truerand_8bit.res` "
            "(tests/certification/sp800_90b)."
        )
    lines += [
        f"Assessed min-entropy: {last.h_assessed:.17g} "
        f"(H_original {last.h_original}, H_bitstring {last.h_bitstring}).\n",
        "Per estimator (one more run inside this process, warm; LRS comes out of the t-Tuple",
        "suffix pass, so its time is in the t-Tuple row; CPU is the estimator's thread's):\n",
        "| estimator | track | wall s | CPU s |",
        "|---|---|---|---|",
    ]
    for row in last.rows:
        lines.append(
            f"| {row.estimator} | {row.track} | {row.seconds:.2f} | {row.cpu_seconds:.2f} |"
        )
    cpu_of = {(r.estimator, r.track): r.cpu_seconds for r in last.rows}
    total = sum(cpu_of.values()) or 1.0
    top = sorted(cpu_of.items(), key=lambda kv: -kv[1])[:4]
    lines += [
        "",
        "Largest shares of the estimators' CPU: "
        + ", ".join(f"{e} on the {t.lower()} {c:.2f} s" for (e, t), c in top)
        + f" ({sum(c for _k, c in top) / total:.0%}). The predictors are compiled loops "
        "(numba, certification/sp800_90b/predictor_loops.py and context_tables.py) that "
        "run without the GIL; the estimators run two at a time in threads, as the tool "
        "uses both cores with OpenMP. The system time is page faults: the first touch of "
        "fresh arrays (t-Tuple's suffix arrays, compression's G-function terms); "
        "sp800_90b/memory.py keeps freed memory for reuse within a run.",
        "",
        "Wall time on this shared 2-core machine includes waiting for a core (load average "
        "above); CPU time is given beside it.",
    ]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--bits", type=int, default=8)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "sp800_90b.md")
    ap.add_argument("--no-peer", action="store_true", help="do not build or run ea_non_iid")
    args = ap.parse_args()
    nist = os.environ.get("EA_NON_IID")
    if not nist and not args.no_peer:
        from bench.peers import peer

        nist = str(peer("ea_non_iid"))
    lines = report(args, nist, run_all(args, nist))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
