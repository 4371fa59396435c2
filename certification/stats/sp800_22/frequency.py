"""Frequency (monobit), block frequency, runs and cumulative sums (SP 800-22 2.1-2.3, 2.13).

Each follows the sts-2.1.2 computation, including its integer divisions (the cusum
summation bounds) and the runs test's frequency pre-test (p = 0 when it fails).
"""

from __future__ import annotations

import math

import numpy as np

from certification.errors import ParameterError
from certification.stats.sp800_22.result import PValue, TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import erfc, igamc


def frequency(bits: Bits | Sequence) -> TestOutcome:
    """Monobit test: is the number of ones about half?"""
    seq = as_sequence(bits)
    s = 2 * seq.ones - seq.n
    s_obs = abs(s) / math.sqrt(seq.n)
    return single("Frequency", erfc(s_obs / math.sqrt(2.0)), sum=s, s_obs=s_obs)


def block_frequency(bits: Bits | Sequence, block_length: int = 128) -> TestOutcome:
    """Frequency within N = n // M blocks of M bits (chi-square on the block proportions)."""
    seq = as_sequence(bits)
    m = block_length
    if m < 1:
        raise ParameterError(f"block frequency block length must be positive, got {m}")
    n_blocks = seq.n // m
    if n_blocks == 0:
        return single("BlockFrequency", None, note=f"n = {seq.n} is shorter than M = {m}")
    sums = seq.bits[: n_blocks * m].reshape(n_blocks, m).sum(axis=1, dtype=np.int64)
    v = sums / m - 0.5
    chi2 = 4.0 * m * float((v * v).sum())
    return single("BlockFrequency", igamc(n_blocks / 2.0, chi2 / 2.0), chi2=chi2, N=n_blocks)


def runs(bits: Bits | Sequence) -> TestOutcome:
    """Runs test: the number of runs of identical bits, given the proportion of ones."""
    seq = as_sequence(bits)
    n = seq.n
    pi = seq.ones / n
    if abs(pi - 0.5) > 2.0 / math.sqrt(n):
        return single("Runs", 0.0, pi=pi, note="frequency pre-test failed (PI ESTIMATOR)")
    v_obs = 1 + int(np.count_nonzero(seq.bits[1:] != seq.bits[:-1]))
    arg = abs(v_obs - 2.0 * n * pi * (1 - pi)) / (2.0 * pi * (1 - pi) * math.sqrt(2 * n))
    return single("Runs", erfc(arg), pi=pi, V=v_obs)


def _cusum_p(n: int, z: int) -> float:
    if z == 0:
        return 1.0  # not reachable for n >= 1 (|S_1| = 1), kept for safety
    sq = math.sqrt(n)

    def cdiv(a: int, b: int) -> int:  # C integer division truncates toward zero
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q

    # normal(x) = 0.5 * erfc(-x / sqrt 2) inlined (same arithmetic, bit for bit): some
    # 4,000 terms per sequence, where the call overhead was most of the test's time
    erfc_, r2 = math.erfc, math.sqrt(2.0)
    lo1, lo2, hi = cdiv(cdiv(-n, z) + 1, 4), cdiv(cdiv(-n, z) - 3, 4), cdiv(cdiv(n, z) - 1, 4)
    sum1 = 0.0
    for k in range(lo1, hi + 1):
        sum1 += 0.5 * erfc_(-(((4 * k + 1) * z) / sq) / r2)
        sum1 -= 0.5 * erfc_(-(((4 * k - 1) * z) / sq) / r2)
    sum2 = 0.0
    for k in range(lo2, hi + 1):
        sum2 += 0.5 * erfc_(-(((4 * k + 3) * z) / sq) / r2)
        sum2 -= 0.5 * erfc_(-(((4 * k + 1) * z) / sq) / r2)
    return 1.0 - sum1 + sum2


def cumulative_sums(bits: Bits | Sequence) -> TestOutcome:
    """Cumulative sums, forward (maximum |S_k|) and reverse (the walk read backwards)."""
    seq = as_sequence(bits)
    walk = seq.walk
    s_n = int(walk[-1])
    sup = max(0, int(walk.max()))
    inf = min(0, int(walk.min()))
    z = max(sup, -inf)
    zrev = max(sup - s_n, s_n - inf)
    rows = (
        PValue("CumulativeSums", "forward", _cusum_p(seq.n, z)),
        PValue("CumulativeSums", "reverse", _cusum_p(seq.n, zrev)),
    )
    return TestOutcome("CumulativeSums", rows, {"z_forward": z, "z_reverse": zrev})
