"""sp800_90b_tracks: the IID track and the restart tests, against ea_iid and ea_restart.

Run: ``.venv/bin/python bench/bench_sp800_90b_tracks.py [--file F] [--bits 8] [--h-i 7]``

Side by side in one run on the same file (default NIST's ``truerand_8bit.bin``, 10^6
8-bit samples), NIST's binaries built from ``../shared/peers`` into ``.peers/`` by
bench/peers.py on first use:

* IID: ``assess_iid`` in this process against ``ea_iid -v -v -v FILE 8``: wall and CPU
  time, the 19 permutation statistics of the unshuffled data (which must be equal), the
  shuffles each tool needed and the IID verdicts;
* restart: ``restart_tests(samples, 8, H_I)`` (the file read as the 1000 x 1000 restart
  matrix) against ``ea_restart -v FILE 8 H_I``: wall and CPU time and the verdicts.

Targets (issue 19): faster than ea_iid and ea_restart. Writes
bench/results/sp800_90b_tracks.md.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import machine  # noqa: E402
from bench.peers import peer  # noqa: E402
from certification.sp800_90b.iid import IidResult, assess_iid  # noqa: E402
from certification.sp800_90b.restart import RestartResult, restart_tests  # noqa: E402
from certification.sp800_90b.samples import read_samples  # noqa: E402

DEFAULT_FILE = ROOT / "tests" / "data" / "sp800-90b" / "truerand_8bit.bin"
RESULTS = ROOT / "bench" / "results" / "sp800_90b_tracks.md"
_UNPERMUTED = re.compile(r"Unpermuted result (\S+) = (\S+)")


def cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run_peer(cmd: list[str]) -> tuple[float, float, str]:
    """(wall s, CPU s of the child, its standard output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, out


def timed_iid(path: Path, bits: int) -> tuple[float, float, IidResult]:
    t, c = time.perf_counter(), cpu_self()
    res = assess_iid(read_samples(path, bits))
    return time.perf_counter() - t, cpu_self() - c, res


def timed_restart(path: Path, bits: int, h_i: float) -> tuple[float, float, RestartResult]:
    t, c = time.perf_counter(), cpu_self()
    res = restart_tests(read_samples(path, bits), bits, h_i)
    return time.perf_counter() - t, cpu_self() - c, res


def iid_lines(path: Path, bits: int) -> list[str]:
    ours_wall, ours_cpu, res = timed_iid(path, bits)
    print(f"ours IID: {ours_wall:.1f} s wall, {ours_cpu:.1f} s CPU", flush=True)
    cmd = [str(peer("ea_iid")), "-v", "-v", "-v", str(path), str(bits)]
    nist_wall, nist_cpu, text = run_peer(cmd)
    print(f"ea_iid: {nist_wall:.1f} s wall, {nist_cpu:.1f} s CPU", flush=True)
    theirs = {m.group(1): float(m.group(2)) for m in _UNPERMUTED.finditer(text)}
    mine = {r.name: r.t for r in res.permutation.rows}
    equal = sum(
        1 for k, v in mine.items() if k in theirs and abs(v - theirs[k]) <= 1e-9 * max(1.0, abs(v))
    )
    m = re.search(r"IID permutation tests: (\w+)", text)
    nist_verdict = m.group(1) if m else "?"
    ours_verdict = "Passed" if res.permutation.passed else "Failed"
    comp = next(r for r in res.permutation.rows if r.name == "compression")
    cm = re.search(r"^\s+compression\s+(\d+)\s+(\d+)\s+(\d+)", text, re.M)
    nist_comp = sum(int(v) for v in cm.groups()) if cm else -1
    return [
        "### IID track",
        "",
        "| tool | wall | CPU (user + sys) | ratio (NIST / croupier) |",
        "|---|---|---|---|",
        f"| croupier `assess_iid` (one process) | {ours_wall:.1f} s | {ours_cpu:.1f} s | 1 |",
        f"| NIST `{' '.join(['ea_iid', *cmd[1:]])}` | {nist_wall:.1f} s | {nist_cpu:.1f} s "
        f"| **{nist_wall / ours_wall:.2f}x** wall, {nist_cpu / ours_cpu:.2f}x CPU |",
        "",
        f"Unshuffled statistics equal to ea_iid's: {equal}/{len(mine)}. Permutation tests: "
        f"croupier {ours_verdict} ({res.permutation.shuffles} shuffles for the last "
        f"statistic decided), ea_iid {nist_verdict}. The compression statistic (bzip2 of "
        f"the 3.6 MB text of the samples, some 0.2 s of CPU each) needed "
        f"{comp.c0 + comp.c1 + comp.c2} shuffles here and {nist_comp} in ea_iid: the "
        "shuffles are random (croupier: NumPy's seeded PCG64; ea_iid: xoshiro256**), and "
        "that count sets most of either tool's time.",
        "",
    ]


def restart_lines(path: Path, bits: int, h_i: float) -> list[str]:
    ours_wall, ours_cpu, res = timed_restart(path, bits, h_i)
    print(f"ours restart: {ours_wall:.1f} s wall, {ours_cpu:.1f} s CPU", flush=True)
    cmd = [str(peer("ea_restart")), "-v", str(path), str(bits), f"{h_i:g}"]
    nist_wall, nist_cpu, text = run_peer(cmd)
    print(f"ea_restart: {nist_wall:.1f} s wall, {nist_cpu:.1f} s CPU", flush=True)
    ours = "passed" if res.passed else "failed"
    tail = " / ".join(line.strip() for line in text.splitlines() if line.strip())[-300:]
    return [
        "### Restart tests",
        "",
        "| tool | wall | CPU (user + sys) | ratio (NIST / croupier) |",
        "|---|---|---|---|",
        f"| croupier `restart_tests(samples, {bits}, {h_i:g})` | {ours_wall:.1f} s "
        f"| {ours_cpu:.1f} s | 1 |",
        f"| NIST `ea_restart -v FILE {bits} {h_i:g}` | {nist_wall:.1f} s | {nist_cpu:.1f} s "
        f"| **{nist_wall / ours_wall:.2f}x** wall, {nist_cpu / ours_cpu:.2f}x CPU |",
        "",
        f"croupier: {ours} (X_max {res.x_max}, cutoff {res.x_cutoff}). ea_restart's "
        f"transcript ends: `{tail}`",
        "",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--bits", type=int, default=8)
    ap.add_argument("--h-i", type=float, default=7.0)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    mach = machine(numpy=True, load=True)
    print(mach, flush=True)
    lines = [
        "## SP 800-90B IID track and restart tests (certification.sp800_90b)",
        "",
        f"Command: `python bench/bench_sp800_90b_tracks.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {mach}.  ",
        f"Data: `{args.file.relative_to(ROOT) if args.file.is_relative_to(ROOT) else args.file}`"
        f" ({args.bits}-bit samples). NIST's tools (OpenMP, both cores) run right after "
        "croupier's, in the same run.",
        "",
        *iid_lines(args.file, args.bits),
        *restart_lines(args.file, args.bits, args.h_i),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        RESULTS.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
