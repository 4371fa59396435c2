"""SP 800-22: ``croupier certify sp800-22`` against NIST's sts-2.1.2 ``assess``, side by side.

Run: ``.venv/bin/python bench/bench_sp800_22.py [--sizes 10,100] [--peer-sequences 0]``

For each size N of ``--sizes`` (N sequences of 10^6 bits from the rng package's seeded
CTR_DRBG, written to one binary file), in one run, on the same file:

* croupier: the command a lab runs, ``croupier certify sp800-22 FILE --sequences N``, as
  one process (start-up included), wall and CPU time;
* NIST sts-2.1.2 ``assess`` (built -O2 from ``../shared/peers`` into ``.peers/`` by
  bench/peers.py on first use, or the binary NIST_ASSESS names; run in its own folder,
  which holds ``experiments/`` and ``templates/``): all 15 tests on all N sequences,
  binary input, wall and CPU time; every p-value compared with croupier's to 6 decimals
  (croupier's rows computed in this process, which also gives its CPU per sequence);
* nistrng (PyPI), optionally: its 15 tests on the first ``--peer-sequences`` sequences
  (minutes per sequence), timed per test, p-values compared where it has the same rows.

Targets (issue 19): at least 20x sts-2.1.2 on 10 sequences and 30x on 100, wall clock,
one process, identical p-values. Writes bench/results/sp800_22.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import machine  # noqa: E402
from certification.cluster import keep_freed_memory  # noqa: E402
from certification.stats.sp800_22.battery import TEST_ORDER  # noqa: E402
from certification.stats.sp800_22.suite import battery_rows, default_threads  # noqa: E402
from rng import SeededBytes  # noqa: E402

N_BITS = 1_000_000
RESULTS = ROOT / "bench" / "results" / "sp800_22.md"
#: (sequences, target, wall ratio, sts wall, croupier wall) of each size, as run
VERDICTS: list[tuple[int, int, float, float, float]] = []

#: nistrng battery key -> (our test name, our variants in nistrng's order or None)
NISTRNG_MAP: dict[str, tuple[str, list[str | None] | None]] = {
    "monobit": ("Frequency", None),
    "frequency_within_block": ("BlockFrequency", None),
    "runs": ("Runs", None),
    "longest_run_ones_in_a_block": ("LongestRun", None),
    "binary_matrix_rank": ("Rank", None),
    "dft": ("FFT", None),
    "non_overlapping_template_matching": ("NonOverlappingTemplate", None),
    "overlapping_template_matching": ("OverlappingTemplate", None),
    "maurers_universal": ("Universal", None),
    "linear_complexity": ("LinearComplexity", None),
    "serial": ("Serial", ["P1", "P2"]),
    "approximate_entropy": ("ApproximateEntropy", None),
    "cumulative sums": ("CumulativeSums", ["forward", "reverse"]),
    "random_excursion": ("RandomExcursions", None),
    "random_excursion_variant": ("RandomExcursionsVariant", None),
}

#: NIST's folder names under experiments/AlgorithmTesting and rows per sequence
ASSESS_DIRS = {
    "Frequency": 1, "BlockFrequency": 1, "CumulativeSums": 2, "Runs": 1, "LongestRun": 1,
    "Rank": 1, "FFT": 1, "NonOverlappingTemplate": 148, "OverlappingTemplate": 1,
    "Universal": 1, "ApproximateEntropy": 1, "RandomExcursions": 8,
    "RandomExcursionsVariant": 18, "Serial": 2, "LinearComplexity": 1,
}  # fmt: skip


def make_data(sequences: int, seed: int) -> bytes:
    return SeededBytes(seed).generate(sequences * N_BITS // 8)


def split(data: bytes, sequences: int) -> list[np.ndarray]:
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    return [bits[i * N_BITS : (i + 1) * N_BITS] for i in range(sequences)]


Rows = list[list[tuple[str, str | None, float | None]]]


def ours(seqs: list[np.ndarray]) -> tuple[list[float], list[float], Rows]:
    """Wall and CPU seconds per sequence, and every row, for the battery in this process."""
    wall: list[float] = []
    cpu: list[float] = []
    rows: Rows = []
    battery_rows(seqs[0][:200_000])  # warm-up (imports, caches)
    for s in seqs:
        t, c = time.perf_counter(), time.process_time()
        r = battery_rows(s)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        rows.append([(x.test, x.variant, x.p_value) for x in r])
    return wall, cpu, rows


def run_cli(data_file: Path, sequences: int) -> tuple[float, float, str]:
    """``croupier certify sp800-22`` as a lab runs it, one process: (wall s, CPU s, command)."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "certify", "sp800-22", str(data_file),
           "--sequences", str(sequences)]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, f"croupier certify sp800-22 FILE --sequences {sequences}"


def run_nistrng(
    seqs: list[np.ndarray], our_rows: list[list[tuple[str, str | None, float | None]]]
) -> tuple[dict[str, list[float]], dict[str, tuple[int, int, float, int]]]:
    """CPU seconds per test and (equal, compared, largest difference, croupier n/a) per test."""
    from nistrng import SP800_22R1A_BATTERY

    times: dict[str, list[float]] = {k: [] for k in SP800_22R1A_BATTERY}  # CPU seconds
    agree: dict[str, tuple[int, int, float, int]] = {}
    for s, mine in zip(seqs, our_rows, strict=False):
        bits = s.astype(np.int64)
        by_test: dict[str, list[float | None]] = {}
        for test, _variant, p in mine:
            by_test.setdefault(test, []).append(p)
        for key, test in SP800_22R1A_BATTERY.items():
            t = time.process_time()
            result = test.run(bits)[0] if test.is_eligible(bits) else None
            times[key].append(time.process_time() - t)
            name = NISTRNG_MAP[key][0]
            if result is None:
                continue
            theirs = [float(v) for v in np.atleast_1d(result._score_list)]
            mine_vals = by_test[name]
            same, total, worst, na = agree.get(key, (0, 0, 0.0, 0))
            for a, b in zip(theirs, mine_vals, strict=False):
                if b is None:  # not applicable by the tool's rule (J < 500): not compared
                    na += 1
                    continue
                total += 1
                same += f"{a:.6f}" == f"{b:.6f}"
                worst = max(worst, abs(a - b))
            agree[key] = (same, total, worst, na)
    return times, agree


def run_assess(
    assess: Path, data_file: Path, sequences: int,
    our_rows: list[list[tuple[str, str | None, float | None]]],
) -> tuple[float, float, int, int, float, str]:  # fmt: skip
    """Run NIST's assess; (wall s, CPU s, equal, compared, worst, cmd) for the whole run."""
    answers = f"0\n{data_file}\n1\n0\n{sequences}\n1\n"
    cmd = (
        f"cd {shlex.quote(str(assess.parent))} && printf {shlex.quote(answers)} "
        f"| ./{assess.name} {N_BITS}"
    )
    t = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [str(assess), str(N_BITS)], input=answers.encode(), cwd=assess.parent,
        capture_output=True, check=False, timeout=24 * 3600,
    )  # fmt: skip
    if b"Statistical Testing Complete" not in done.stdout:  # its main returns 1 on success
        raise SystemExit(f"assess failed ({done.returncode}): {done.stdout[-500:]!r}")
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    base = assess.parent / "experiments" / "AlgorithmTesting"
    equal = compared = 0
    worst = 0.0
    for test, width in ASSESS_DIRS.items():
        path = base / test / "results.txt"
        values = [float(v) for v in path.read_text().split()]
        for s in range(min(sequences, len(values) // width)):
            mine = [p for t_, _v, p in our_rows[s] if t_ == test]
            for k in range(width):
                theirs = values[s * width + k]
                p = mine[k]
                compared += 1
                text = "0.000000" if p is None else f"{p:.6f}"
                equal += text == f"{theirs:.6f}"
                if p is not None:
                    worst = max(worst, abs(p - theirs))
    return wall, cpu, equal, compared, worst, cmd


def nistrng_lines(
    n_times: dict[str, list[float]], n_agree: dict[str, tuple[int, int, float, int]]
) -> list[str]:
    """The per-test table of nistrng's times and its agreement with our p-values."""
    lines = [
        "nistrng per test (median CPU seconds per sequence) and agreement with croupier's "
        "p-values (rows equal to 6 decimals / rows compared, largest difference; rows "
        "croupier reports not applicable, as sts-2.1.2 does when J < 500, are not compared; "
        "a test nistrng judges ineligible has nothing to compare):",
        "",
        "| nistrng test | CPU seconds | equal / compared | largest difference | croupier n/a |",
        "|---|---|---|---|---|",
    ]
    for key, vals in n_times.items():
        same, total, worst, na = n_agree.get(key, (0, 0, 0.0, 0))
        lines.append(
            f"| {key} | {statistics.median(vals):.2f} | {same}/{total} | {worst:.2e} | {na} |"
        )
    lines.append("")
    lines.append(
        "nistrng differs where it uses other parameters (block frequency M, serial and "
        "approximate entropy m, its own template and excursion handling) or other "
        "formulas; croupier follows sts-2.1.2, whose Appendix B values the tests pin."
    )
    return lines


def profile_lines(seqs: list[np.ndarray]) -> list[str]:
    """Where croupier's time goes: the command's start-up, then CPU per test per sequence."""
    from certification.stats.sp800_22.battery import DEFAULTS, _runners
    from certification.stats.sp800_22.sequence import as_sequence

    with tempfile.TemporaryDirectory() as tmp:
        tiny = Path(tmp) / "tiny.bin"
        tiny.write_bytes(bytes(125))
        cmd = [sys.executable, "-m", "kiosk_ui.cli", "certify", "sp800-22", str(tiny),
               "--sequences", "1", "--length", "1000", "--tests", "Frequency"]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                       capture_output=True, check=True)  # fmt: skip
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    runners = _runners(DEFAULTS)
    per: dict[str, float] = dict.fromkeys(runners, 0.0)
    prep = 0.0
    for bits in seqs:
        c = time.process_time()
        seq = as_sequence(bits)
        seq.counts(DEFAULTS.serial)  # as run_battery does: one histogram for both entropy tests
        prep += time.process_time() - c
        for name, fn in runners.items():
            c = time.process_time()
            fn(seq)
            per[name] += time.process_time() - c
    k = max(len(seqs), 1)
    ranked = sorted(per.items(), key=lambda kv: -kv[1])
    return [
        "Profile of croupier's side (CPU, this run): the command's start-up alone (one "
        f"1,000-bit sequence, one test) {start:.2f} s; per 10^6-bit sequence, over "
        f"{len(seqs)} sequences: "
        + ", ".join(f"{name} {v / k * 1000:.1f} ms" for name, v in ranked)
        + f", preparation (the 16-bit window histogram) {prep / k * 1000:.1f} ms; in all "
        f"{(sum(per.values()) + prep) / k * 1000:.0f} ms.",
        "",
    ]


def verdict_lines() -> list[str]:
    """The targets' verdicts, with what the shortfall comes from when there is one."""
    lines: list[str] = []
    for sequences, target, ratio, a_wall, c_wall in VERDICTS:
        need = a_wall / target
        if ratio >= target:
            lines.append(
                f"{sequences} sequences: target {target}x met ({ratio:.1f}x: croupier "
                f"{c_wall:.2f} s, within the {need:.2f} s that {target}x of sts's "
                f"{a_wall:.2f} s allows)."
            )
        else:
            lines.append(
                f"{sequences} sequences: target {target}x NOT met ({ratio:.1f}x): {target}x "
                f"of sts's {a_wall:.2f} s leaves {need:.2f} s, croupier took {c_wall:.2f} s; "
                "its start-up and per-test CPU are in the profile above (on a shared "
                "machine the other sessions' load also takes the second core the "
                "threads use)."
            )
        lines.append("")
    return lines


def assess_binary() -> Path:
    """NIST_ASSESS when set, else the peer built by bench/peers.py."""
    env = os.environ.get("NIST_ASSESS")
    if env:
        return Path(env).resolve()
    from bench.peers import peer

    return peer("assess").resolve()


def side_by_side(sequences: int, seed: int, assess: Path) -> tuple[list[str], Rows, list[float]]:
    """One size: croupier's command, then assess, on one file; table rows and our rows."""
    data = make_data(sequences, seed)
    with tempfile.TemporaryDirectory() as tmp:
        data_file = Path(tmp) / "croupier.bin"
        data_file.write_bytes(data)
        c_wall, c_cpu, c_cmd = run_cli(data_file, sequences)
        print(f"{sequences} sequences: croupier {c_wall:.2f} s wall, {c_cpu:.2f} s CPU", flush=True)
        seqs = split(data, sequences)
        _wall, cpu, rows = ours(seqs)
        a_wall, a_cpu, equal, compared, worst, a_cmd = run_assess(
            assess, data_file, sequences, rows
        )
        print(f"{sequences} sequences: assess {a_wall:.2f} s wall, {a_cpu:.2f} s CPU", flush=True)
    target = 20 if sequences <= 10 else 30
    ratio = a_wall / c_wall
    verdict = "met" if ratio >= target else "NOT met"
    VERDICTS.append((sequences, target, ratio, a_wall, c_wall))
    lines = [
        f"| {sequences} | `{c_cmd}` | {c_wall:.2f} s | {c_cpu:.2f} s | 1 process |",
        f"| {sequences} | NIST sts-2.1.2 -O2 `assess` | {a_wall:.2f} s | {a_cpu:.2f} s "
        f"| **{ratio:.1f}x** wall, {a_cpu / c_cpu:.1f}x CPU (target {target}x: {verdict}); "
        f"p-values {equal}/{compared} equal to 6 decimals, largest difference {worst:.1e} |",
    ]
    _ = a_cmd
    return lines, rows, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,100", help="comma-separated numbers of sequences")
    ap.add_argument("--peer-sequences", type=int, default=0, help="sequences for nistrng")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-write", action="store_true", help="do not write the results file")
    args = ap.parse_args()
    command = "python bench/bench_sp800_22.py " + " ".join(sys.argv[1:])
    mach = machine(numpy=True, load=True)
    print(mach)
    keep_freed_memory()  # as the command does, for the in-process figures below
    assess = assess_binary()
    table: list[str] = []
    rows: Rows = []
    cpu: list[float] = []
    for size in (int(v) for v in args.sizes.split(",")):
        more, size_rows, size_cpu = side_by_side(size, args.seed, assess)
        table += more
        if len(size_rows) > len(rows):
            rows, cpu = size_rows, size_cpu
    med = statistics.median(cpu)
    profile = profile_lines(split(make_data(10, args.seed), 10))
    seqs = split(make_data(max(args.peer_sequences, 0), args.seed), args.peer_sequences)
    n_times, n_agree = run_nistrng(seqs, rows) if seqs else ({}, {})
    n_total = sum(statistics.median(v) for v in n_times.values() if v)
    lines = [
        "## SP 800-22 battery (certification.stats.sp800_22)",
        "",
        f"Command: `{command}`  ",
        f"Machine: {mach}.  ",
        "Data: N sequences of 10^6 bits from the rng package's seeded CTR_DRBG, one binary "
        "file per N; all 15 tests, 188 p-value rows per sequence, the tool's default "
        "parameters. Both tools run in this run on the same file, one after the other.",
        "",
        "| sequences | tool | wall | CPU (user + sys) | ratio (NIST / croupier) |",
        "|---|---|---|---|---|",
        *table,
        "",
        f"croupier's battery alone (in this process, one thread, no start-up): median "
        f"{med * 1000:.0f} ms CPU per 10^6-bit sequence. The command tests "
        f"{default_threads()} sequences at once on threads of its one process (NumPy "
        "releases the GIL inside the tests' large array calls); its start-up (Python, "
        "NumPy, argument parsing, the battery's modules) is the rest of its time.",
        "",
        *profile,
        *verdict_lines(),
        "Wall time is the figure the target names; on this shared machine other sessions' "
        "load stretches both tools' wall time (load average above), so the CPU ratio is "
        "given beside it.",
        "",
    ]
    if n_times:
        lines.insert(
            -1, f"nistrng ({args.peer_sequences} sequence(s)): {n_total * 1000:.0f} ms CPU per "
            f"sequence, {n_total / med:.0f}x croupier's battery."
        )  # fmt: skip
        lines += nistrng_lines(n_times, n_agree)
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        RESULTS.write_text(text)
    _ = TEST_ORDER
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
