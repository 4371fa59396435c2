"""The compiled predictor loops against plain step-by-step readings of SP 800-90B 6.3.

NIST's reference files (test_nist_reference.py) fix the estimates at the tool's caps
(100,000 MultiMMC entries, 65,536 LZ78Y entries), which small data never reaches. Here
each kernel runs with small caps on small inputs of several alphabets and is compared
with a direct transcription of the section's steps in Python (dicts, lists), so the
admission rules and the scoreboard are checked where they bind. The last tests check the
numba cache: where it is written (the software seal must not see it) and that a cold
cache compiles to the same estimates.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from certification.install.manifest import build_manifest
from certification.sp800_90b import context_tables, predictor_loops
from certification.sp800_90b.lag import lag_estimate
from certification.sp800_90b.mcw import mcw_estimate
from certification.sp800_90b.numerics import exact_sum
from certification.sp800_90b.suffixes import sorted_suffix_lcp
from certification.sp800_90b.tuples import _repeat_counts

from .resfile import DATA, parse, same_value

ROOT = Path(__file__).resolve().parents[3]


def _score(scores: list[int], winner: int, hits: list[bool]) -> int:
    """6.3.7-6.3.9 step d: a right sub-predictor scores; at least the winner's: wins."""
    for j, hit in enumerate(hits):
        if hit:
            scores[j] += 1
            if scores[j] >= scores[winner]:
                winner = j
    return winner


def _run(flags: list[bool]) -> tuple[int, int]:
    """Number of right predictions and the longest run of them."""
    longest = run = 0
    for ok in flags:
        run = run + 1 if ok else 0
        longest = max(longest, run)
    return sum(flags), longest


def _argmax(followers: dict[int, int]) -> tuple[int, int]:
    """(most frequent follower, its count), ties to the larger symbol."""
    y = max(followers, key=lambda v: (followers[v], v))
    return y, followers[y]


def ref_mcw(s: list[int], windows: tuple[int, ...]) -> tuple[int, int]:
    scores, winner, flags = [0] * len(windows), 0, []
    for i in range(windows[0], len(s)):
        freq: list[int | None] = []
        for w in windows:
            if i < w:
                freq.append(None)
                continue
            win = s[i - w : i]
            top = max(win.count(v) for v in set(win))
            # ties: the symbol seen most recently
            freq.append(next(v for v in reversed(win) if win.count(v) == top))
        flags.append(freq[winner] == s[i])
        winner = _score(scores, winner, [f == s[i] for f in freq])
    return _run(flags)


def ref_lag(s: list[int], lags: int) -> tuple[int, int]:
    scores, winner, flags = [0] * lags, 0, []
    for i in range(1, len(s)):
        pred = [s[i - d] if d <= i else None for d in range(1, lags + 1)]
        flags.append(pred[winner] == s[i])
        winner = _score(scores, winner, [p == s[i] for p in pred])
    return _run(flags)


def ref_mmc(s: list[int], depth: int, max_entries: int) -> tuple[int, int]:
    tables: list[dict[tuple[int, ...], dict[int, int]]] = [{} for _ in range(depth)]
    entries = [0] * depth
    scores, winner, flags = [0] * depth, 0, []
    for i in range(2, len(s)):
        for d in range(1, depth + 1):  # a. count the last follower
            if d < i:
                ctx, y = tuple(s[i - d - 1 : i - 1]), s[i - 1]
                followers = tables[d - 1].setdefault(ctx, {})
                if y in followers:
                    followers[y] += 1
                elif entries[d - 1] < max_entries:
                    followers[y] = 1
                    entries[d - 1] += 1
        pred: list[int | None] = []
        for d in range(1, depth + 1):  # b. predict from the last d symbols
            followers = tables[d - 1].get(tuple(s[i - d : i]), {}) if d <= i else {}
            pred.append(_argmax(followers)[0] if followers else None)
        flags.append(pred[winner] == s[i])
        winner = _score(scores, winner, [p == s[i] for p in pred])
    return _run(flags)


def ref_lz78y(s: list[int], depth: int, max_size: int, binary: bool) -> tuple[int, int]:
    """The dictionary as NIST's tool keeps it: (context, bit) entries added longest first
    for bits; contexts added shortest first, every follower counted, otherwise."""
    dic: dict[tuple[int, ...], dict[int, int]] = {}
    size, flags = 0, []
    for i in range(depth + 1, len(s)):
        y = s[i - 1]
        for j in range(depth, 0, -1) if binary else range(1, depth + 1):
            ctx = tuple(s[i - j - 1 : i - 1])
            followers = dic.get(ctx)
            if binary:
                followers = dic.setdefault(ctx, {})
                if y in followers:
                    followers[y] += 1
                elif size < max_size:
                    followers[y] = 1
                    size += 1
            elif followers is not None:
                followers[y] = followers.get(y, 0) + 1
            elif size < max_size:
                dic[ctx] = {y: 1}
                size += 1
        best, pred = 0, None
        for j in range(depth, 0, -1):
            followers = dic.get(tuple(s[i - j : i]))
            if followers:
                y_best, count = _argmax(followers)
                if count > best:
                    best, pred = count, y_best
        flags.append(pred == s[i])
    return _run(flags)


def _data(k: int, n: int, seed: int) -> np.ndarray:
    """Symbols with structure (biased, with repeats) so that predictors disagree."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(k, 0.6))
    base = rng.choice(k, size=n, p=p)
    period = rng.integers(2, 7)
    copy = rng.random(n) < 0.3
    base[period:][copy[period:]] = base[:-period][copy[period:]]
    return base.astype(np.uint8)


CASES = [(2, 1), (3, 2), (4, 3), (5, 4), (16, 5), (256, 6)]


@pytest.mark.parametrize(("k", "seed"), CASES)
def test_mmc_kernels_follow_the_steps_where_the_cap_binds(k: int, seed: int) -> None:
    s = _data(k, 700, seed)
    for cap in (1, 2, 3, 40, 10_000):
        expected = ref_mmc(s.tolist(), 16, cap)
        if k == 2:
            got = predictor_loops.mmc_binary_loop(s, 16, cap)
        else:
            bits = max(1, (k - 1).bit_length())
            got = context_tables.mmc_general_loop(s, k, bits, 16, cap)
        assert tuple(map(int, got)) == expected, (k, cap)


@pytest.mark.parametrize(("k", "seed"), CASES)
def test_lz78y_kernels_follow_the_steps_where_the_cap_binds(k: int, seed: int) -> None:
    s = _data(k, 700, seed + 10)
    for cap in (1, 2, 3, 5, 8, 13, 300, 100_000):
        expected = ref_lz78y(s.tolist(), 16, cap, binary=k == 2)
        if k == 2:
            got = predictor_loops.lz78y_binary_loop(s, 16, cap)
        else:
            bits = max(1, (k - 1).bit_length())
            got = context_tables.lz78y_general_loop(s, bits, 16, cap)
        assert tuple(map(int, got)) == expected, (k, cap)


def test_lz78y_pair_table_grows_without_losing_counts() -> None:
    # Many admitted contexts with many followers: the pair table doubles several times.
    s = _data(256, 6000, 99)
    assert context_tables.lz78y_general_loop(s, 8, 3, 10_000) == ref_lz78y(
        s.tolist(), 3, 10_000, binary=False
    )


@pytest.mark.parametrize(("k", "seed"), CASES)
def test_mcw_and_lag_kernels_follow_the_steps(k: int, seed: int) -> None:
    s = _data(k, 1500, seed + 20)
    windows = (7, 15, 31, 63)
    got = predictor_loops.mcw_loop(s, k, np.array(windows, dtype=np.int64))
    assert tuple(map(int, got)) == ref_mcw(s.tolist(), windows)
    if k == 2:
        got = predictor_loops.mcw_binary_loop(s, np.array(windows, dtype=np.int64))
        assert tuple(map(int, got)) == ref_mcw(s.tolist(), windows)
    got = predictor_loops.lag_loop(s)
    assert tuple(map(int, got)) == ref_lag(s.tolist(), predictor_loops.LAGS)


def test_estimates_from_the_kernels_name_their_counts() -> None:
    s = _data(4, 5000, 7)
    mcw = mcw_estimate(s, 4)
    lag = lag_estimate(s, 4)
    assert (mcw.n, lag.n) == (5000 - 63, 4999)
    assert 0 < mcw.c <= mcw.n and 0 < lag.c <= lag.n


@pytest.mark.parametrize(("k", "seed"), [*CASES, (1, 0)])
def test_tuple_counts_from_the_lcp_pass_are_the_tuples_counted(k: int, seed: int) -> None:
    # Q[t]: the most frequent t-tuple's count; S[t]: sum of C(count, 2) over t-tuples.
    s = _data(max(k, 2), 400, seed + 30) if k > 1 else np.zeros(120, dtype=np.uint8)
    _, lcp = sorted_suffix_lcp(s, max(k, 2))
    v = int(lcp.max())
    threshold = 4  # low, so that Q[t] falls below it within the data
    q, sums, u = _repeat_counts(lcp, v, threshold)
    seq = s.tolist()
    counts = {}
    for t in range(1, v + 1):
        tally: dict[tuple[int, ...], int] = {}
        for i in range(len(seq) - t + 1):
            key = tuple(seq[i : i + t])
            tally[key] = tally.get(key, 0) + 1
        counts[t] = tally
    expected_u = next((t for t in range(1, v + 1) if max(counts[t].values()) < threshold), v + 1)
    assert u == expected_u
    for t in range(1, u):
        assert q[t] == max(counts[t].values()), t
    for t in range(1, v + 1):
        assert sums[t] == sum(c * (c - 1) // 2 for c in counts[t].values()), t


def test_exact_sum_is_fsum() -> None:
    # Compression's sums must round as fsum does: the same correctly rounded value on
    # plain, wide-exponent and cancelling inputs (values and their negatives shuffled).
    rng = np.random.default_rng(5)
    for trial in range(3000):
        n = int(rng.integers(0, 50))
        v = rng.standard_normal(n) * 10.0 ** rng.integers(
            -40 * (trial % 3), 1 + 40 * (trial % 3), n
        )
        if trial % 2:
            v = np.concatenate([v, -v, [2.0**-1074, 1.0, 2.0**-53]])
            rng.shuffle(v)
        assert exact_sum(v) == math.fsum(v.tolist()), v


def test_kernel_cache_sits_in_pycache_which_the_seal_skips() -> None:
    # In a process of its own without NUMBA_CACHE_DIR (which would redirect the cache),
    # whatever the environment the tests run in: where an installed appliance caches.
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    code = (
        "import numpy as np\n"
        "from certification.sp800_90b import predictor_loops\n"
        "predictor_loops.lag_loop(np.zeros(10, dtype=np.uint8))\n"
    )
    env["PYTHONPATH"] = str(ROOT)
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    package = Path(predictor_loops.__file__).parent
    cached = list((package / "__pycache__").glob("predictor_loops.lag_loop-*.nbi"))
    assert cached, "numba wrote no cache beside the module"
    manifest = build_manifest({"certification": package.parent})
    assert not any(p.endswith((".nbi", ".nbc")) for p in manifest.files)
    assert "certification/sp800_90b/predictor_loops.py" in manifest.files


@pytest.mark.slow
def test_a_cold_cache_compiles_to_the_tools_estimates(tmp_path: Path) -> None:
    # Every kernel compiled afresh (an empty cache directory), on 8-bit data: both tracks.
    code = (
        "from certification.sp800_90b.non_iid import assess_non_iid\n"
        "from certification.sp800_90b.report import render_non_iid\n"
        "from certification.sp800_90b.samples import read_samples\n"
        f"r = assess_non_iid(read_samples({str(DATA / 'rand8_short.bin')!r}))\n"
        "print(render_non_iid(r, '../../bin/rand8_short.bin', verbose=2))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert list(tmp_path.rglob("*.nbc")), "nothing was compiled into the empty cache"
    expected = parse((DATA / "rand8_short.res").read_text())
    actual = parse(out)
    assert set(actual) == set(expected)
    assert all(same_value(expected[key], actual[key]) for key in expected)
