"""Serial and approximate entropy tests (SP 800-22 2.11, 2.12), from circular window counts.

Both count every m-bit pattern over the n overlapping windows with wrap-around, as
sts-2.1.2 does; the counts for m-1, m-2 (serial) and m, m+1 (approximate entropy) are
sums over the counts of the longest window, so one histogram serves all.
"""

from __future__ import annotations

import math

import numpy as np

from certification.errors import ParameterError
from certification.stats.sp800_22.result import PValue, TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import igamc


def psi2(seq: Sequence, m: int) -> float:
    """psi^2_m = 2^m / n * sum(count^2) - n; 0 for m <= 0."""
    if m <= 0:
        return 0.0
    c = seq.counts(m)
    return float(int((c * c).sum())) * (2.0**m) / seq.n - seq.n  # exact integer sum


def serial(bits: Bits | Sequence, m: int = 16) -> TestOutcome:
    seq = as_sequence(bits)
    if not 1 <= m <= 25:
        raise ParameterError(f"serial block length must be 1..25, got {m}")
    seq.counts(m)  # the widest first, so the shorter counts are sums of it
    p0, p1, p2 = psi2(seq, m), psi2(seq, m - 1), psi2(seq, m - 2)
    del1 = p0 - p1
    del2 = p0 - 2.0 * p1 + p2
    rows = (
        PValue("Serial", "P1", igamc(2.0 ** (m - 1) / 2, del1 / 2.0)),
        PValue("Serial", "P2", igamc(2.0 ** (m - 2) / 2, del2 / 2.0)),
    )
    stats = {"psi2_m": p0, "psi2_m1": p1, "psi2_m2": p2, "del1": del1, "del2": del2}
    return TestOutcome("Serial", rows, stats)


def _phi(seq: Sequence, m: int) -> float:
    if m == 0:
        return 0.0
    c = seq.counts(m)
    c = c[c > 0].astype(np.float64)
    n = float(seq.n)
    return float((c * np.log(c / n)).sum()) / n  # no BLAS: slow on a busy machine


def approximate_entropy(bits: Bits | Sequence, m: int = 10) -> TestOutcome:
    seq = as_sequence(bits)
    if not 1 <= m <= 24:
        raise ParameterError(f"approximate entropy block length must be 1..24, got {m}")
    seq.counts(m + 1)
    apen = _phi(seq, m) - _phi(seq, m + 1)
    chi2 = 2.0 * seq.n * (math.log(2) - apen)
    return single("ApproximateEntropy", igamc(2.0 ** (m - 1), chi2 / 2.0), ApEn=apen, chi2=chi2)
