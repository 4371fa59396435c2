"""sp800_90b_tracks: the IID track and the restart tests, against ea_iid and ea_restart.

Run: ``.venv/bin/python bench/bench_sp800_90b_tracks.py [--file F] [--bits 8] [--h-i 7]
[--runs 5] [--part iid|restart|both]`` (one part rewrites only its section of the results)

Side by side in one run on the same file (default NIST's ``truerand_8bit.bin``, 10^6
8-bit samples), NIST's binaries built from ``../shared/peers`` into ``.peers/`` by
bench/peers.py on first use:

* IID: ``croupier certify sp800-90b FILE --iid --seed S --json`` (one process each, as a
  lab runs it) against ``ea_iid -v -v -v FILE 8``, ``--runs`` times each, interleaved:
  wall and CPU time, the 19 permutation statistics of the unshuffled data (which must be
  equal), the shuffles each run needed and the IID verdicts. The number of shuffles the
  compression statistic needs (0.17 s of bzip2 each) sets most of either tool's time and
  is random in both (same distribution: uniform shuffles), so the runs' means compare;
* restart: ``restart_tests(samples, 8, H_I)`` (the file read as the 1000 x 1000 restart
  matrix) against ``ea_restart -v FILE 8 H_I``: wall and CPU time and the verdicts.

Targets (issue 19): faster than ea_iid and ea_restart. Writes
bench/results/sp800_90b_tracks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import machine  # noqa: E402
from bench.peers import peer  # noqa: E402
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


def timed_restart(path: Path, bits: int, h_i: float) -> tuple[float, float, RestartResult]:
    t, c = time.perf_counter(), cpu_self()
    res = restart_tests(read_samples(path, bits), bits, h_i)
    return time.perf_counter() - t, cpu_self() - c, res


@dataclass(frozen=True)
class IidRun:
    """One run of either tool on the IID track."""

    wall: float
    cpu: float
    compression: int  # shuffles counted for the compression statistic
    shuffles: int  # shuffles run (the last statistic decided)
    passed: bool
    statistics: dict[str, float]  # the unshuffled data's 19 statistics


def ours_iid(path: Path, bits: int, seed: int) -> IidRun:
    code = "import sys; from kiosk_ui.cli import main; sys.exit(main(sys.argv[1:]))"
    cmd = [sys.executable, "-c", code, "certify", "sp800-90b", str(path), "--iid"]
    cmd += ["--bits-per-symbol", str(bits), "--seed", str(seed), "--json"]
    wall, cpu, text = run_peer(cmd)
    perm = json.loads(text)["iid"]["permutation"]
    rows = {r["statistic"]: r for r in perm["tests"]}
    comp = rows["compression"]
    return IidRun(
        wall,
        cpu,
        comp["c0"] + comp["c1"] + comp["c2"],
        perm["shuffles"],
        all(r["passed"] for r in rows.values()),
        {k: float(r["t"]) for k, r in rows.items()},
    )


def nist_iid(path: Path, bits: int) -> IidRun:
    cmd = [str(peer("ea_iid")), "-v", "-v", "-v", str(path), str(bits)]
    wall, cpu, text = run_peer(cmd)
    counts = {
        m.group(1): [int(v) for v in m.groups()[1:]]
        for m in re.finditer(r"^\s+(\S+?)\*?\s+(\d+)\s+(\d+)\s+(\d+)$", text, re.M)
    }
    m = re.search(r"IID permutation tests: (\w+)", text)
    return IidRun(
        wall,
        cpu,
        sum(counts["compression"]),
        max(sum(c) for c in counts.values()),
        bool(m and m.group(1) == "Passed"),
        {k: float(v) for k, v in _UNPERMUTED.findall(text)},
    )


def _equal(mine: dict[str, float], theirs: dict[str, float]) -> int:
    return sum(
        1 for k, v in mine.items() if k in theirs and abs(v - theirs[k]) <= 1e-12 * max(1.0, abs(v))
    )


def iid_lines(path: Path, bits: int, runs: int) -> list[str]:
    ours: list[IidRun] = []
    nist: list[IidRun] = []
    for seed in range(runs):
        ours.append(ours_iid(path, bits, seed))
        nist.append(nist_iid(path, bits))
        for who, r in (("croupier", ours[-1]), ("ea_iid", nist[-1])):
            print(
                f"{who} run {seed + 1}: {r.wall:.1f} s wall, {r.cpu:.1f} s CPU, "
                f"compression {r.compression}, shuffles {r.shuffles}",
                flush=True,
            )
    equal = min(_equal(o.statistics, n.statistics) for o, n in zip(ours, nist, strict=True))

    def mean(rs: list[IidRun], f: str) -> float:
        return statistics.fmean(float(getattr(r, f)) for r in rs)

    rows = [
        f"| {i + 1} | {o.wall:.1f} s / {o.cpu:.1f} s | {o.compression} / {o.shuffles} "
        f"| {n.wall:.1f} s / {n.cpu:.1f} s | {n.compression} / {n.shuffles} |"
        for i, (o, n) in enumerate(zip(ours, nist, strict=True))
    ]
    ow, oc, nw, nc = mean(ours, "wall"), mean(ours, "cpu"), mean(nist, "wall"), mean(nist, "cpu")
    comp_all = [r.compression for r in ours + nist]
    ours_per = oc / max(1.0, mean(ours, "compression"))
    nist_per = nc / max(1.0, mean(nist, "compression"))
    return [
        "### IID track",
        "",
        f"{runs} runs of each, interleaved: croupier `certify sp800-90b FILE --iid --seed S "
        f"--json` (one process, S = run - 1) and NIST `ea_iid -v -v -v FILE {bits}` (OpenMP). "
        "Each cell: wall / CPU (user + sys), and the shuffles the compression statistic "
        "needed / the shuffles run until the last statistic was decided.",
        "",
        "| run | croupier | croupier shuffles | ea_iid | ea_iid shuffles |",
        "|---|---|---|---|---|",
        *rows,
        f"| **mean** | **{ow:.1f} s** / {oc:.1f} s | {mean(ours, 'compression'):.0f} / "
        f"{mean(ours, 'shuffles'):.0f} | **{nw:.1f} s** / {nc:.1f} s | "
        f"{mean(nist, 'compression'):.0f} / {mean(nist, 'shuffles'):.0f} |",
        "",
        f"NIST / croupier, means: **{nw / ow:.2f}x** wall, {nc / oc:.2f}x CPU. "
        f"Unshuffled statistics equal to ea_iid's (relative 10^-12): {equal}/19. Verdicts: "
        f"croupier {sum(r.passed for r in ours)}/{runs} passed, ea_iid "
        f"{sum(r.passed for r in nist)}/{runs} passed.",
        "",
        "The compression statistic (bzip2 of the text of the samples) dominates both: the "
        "shuffles it needs are random with the same distribution in both tools (uniform "
        "shuffles: NumPy's PCG64 per --seed here, xoshiro256** seeded from the clock in "
        f"ea_iid), {statistics.fmean(comp_all):.1f} on average over these {len(comp_all)} runs "
        f"(range {min(comp_all)}-{max(comp_all)}). CPU per compression needed, all else "
        f"included (mean CPU / mean compressions): croupier {ours_per:.3f} s, ea_iid "
        f"{nist_per:.3f} s (**{nist_per / ours_per:.2f}x**), the comparison that does not "
        "depend on the draw.",
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


def _sections(text: str) -> dict[str, list[str]]:
    """The results file's ``### `` sections by title (to keep the part not rerun)."""
    out: dict[str, list[str]] = {}
    cur: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("### "):
            cur = out.setdefault(line, [])
        if cur is not None:
            cur.append(line)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--bits", type=int, default=8)
    ap.add_argument("--h-i", type=float, default=7.0)
    ap.add_argument("--runs", type=int, default=5, help="IID runs of each tool (default 5)")
    ap.add_argument("--part", choices=("iid", "restart", "both"), default="both")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    # croupier's runs are child processes: they import this checkout
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
    )
    mach = machine(numpy=True, load=True)
    print(mach, flush=True)
    stamp = [
        f"Command: `python bench/bench_sp800_90b_tracks.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {mach}.",
        "",
    ]
    old = _sections(RESULTS.read_text()) if RESULTS.exists() else {}
    parts: list[list[str]] = []
    if args.part in ("iid", "both"):
        iid = iid_lines(args.file, args.bits, args.runs)
        parts.append([*iid[:2], *stamp, *iid[2:]])
    else:
        parts.append(old.get("### IID track", []))
    if args.part in ("restart", "both"):
        restart = restart_lines(args.file, args.bits, args.h_i)
        parts.append([*restart[:2], *stamp, *restart[2:]])
    else:
        parts.append(old.get("### Restart tests", []))
    lines = [
        "## SP 800-90B IID track and restart tests (certification.sp800_90b)",
        "",
        f"Data: `{args.file.relative_to(ROOT) if args.file.is_relative_to(ROOT) else args.file}`"
        f" ({args.bits}-bit samples). NIST's tools (OpenMP, both cores) run in the same run "
        "as croupier's, one after the other.",
        "",
        *(line for part in parts for line in part),
    ]
    text = "\n".join(lines).rstrip("\n") + "\n"
    print(text)
    if not args.no_write:
        RESULTS.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
