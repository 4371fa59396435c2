"""Non-overlapping and overlapping template matching (SP 800-22 2.7, 2.8).

Non-overlapping: the 148 aperiodic 9-bit templates, in NIST's ``template9`` order,
counted in N = 8 blocks. An aperiodic template cannot overlap itself, so counting every
occurrence (as sts-2.1.2's loop does) equals the greedy non-overlapping count; one
histogram of the 9-bit window values per block therefore counts all 148 templates at
once. Overlapping: the all-ones template of length 9 in blocks of M = 1032, with the
class probabilities computed by the tool's own ``Pr`` formula (which gives the values
Appendix B and the tool's output rest on).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from certification.errors import ParameterError
from certification.stats.sp800_22.result import PValue, TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import igamc

#: sts-2.1.2 keeps at most this many templates per length
MAX_TEMPLATES = 148


def is_aperiodic(value: int, m: int) -> bool:
    """True if the m-bit pattern has no proper self-overlap (no period shorter than m)."""
    text = format(value, f"0{m}b")
    return all(text[: m - k] != text[k:] for k in range(1, m))


@cache
def aperiodic_templates(m: int) -> tuple[int, ...]:
    """All aperiodic m-bit templates in ascending order: NIST's ``template<m>`` file order.

    sts-2.1.2 uses at most 148 of them, spread evenly (its SKIP) for m > 9.
    """
    if not 2 <= m <= 21:
        raise ParameterError(f"template length must be 2..21, got {m}")
    every = tuple(v for v in range(1 << m) if is_aperiodic(v, m))
    if len(every) < MAX_TEMPLATES:
        return every
    skip = len(every) // MAX_TEMPLATES
    return every[::skip][:MAX_TEMPLATES]


def template_name(value: int, m: int) -> str:
    return format(value, f"0{m}b")


def non_overlapping_template(
    bits: Bits | Sequence, m: int = 9, templates: tuple[int, ...] | None = None
) -> TestOutcome:
    seq = as_sequence(bits)
    n_blocks = 8
    block = seq.n // n_blocks
    chosen = templates if templates is not None else aperiodic_templates(m)
    lam = (block - m + 1) / 2.0**m
    var = block * (1.0 / 2.0**m - (2.0 * m - 1.0) / 2.0 ** (2.0 * m))
    names = [template_name(t, m) for t in chosen]
    if lam <= 0 or var <= 0:
        rows = tuple(PValue("NonOverlappingTemplate", v, None) for v in names)
        return TestOutcome("NonOverlappingTemplate", rows, {}, "sequence too short")
    windows = seq.windows(m)
    counts = np.empty((n_blocks, 1 << m), dtype=np.int64)
    for i in range(n_blocks):
        part = windows[i * block : i * block + block - m + 1].astype(np.intp)
        counts[i] = np.bincount(part, minlength=1 << m)
    idx = np.asarray(chosen, dtype=np.intp)
    w = counts[:, idx].astype(np.float64)  # every occurrence, as the tool's loop counts
    chi2 = (((w - lam) / math.sqrt(var)) ** 2).sum(axis=0)
    rows = tuple(
        PValue("NonOverlappingTemplate", name, igamc(n_blocks / 2.0, float(c) / 2.0))
        for name, c in zip(names, chi2, strict=True)
    )
    return TestOutcome(
        "NonOverlappingTemplate",
        rows,
        {"lambda": lam, "M": block, "W": w.astype(np.int64).T.tolist(), "chi2": chi2.tolist()},
    )


def _pr(u: int, eta: float) -> float:
    if u == 0:
        return math.exp(-eta)
    return sum(
        math.exp(
            -eta
            - u * math.log(2)
            + ell * math.log(eta)
            - math.lgamma(ell + 1)
            + math.lgamma(u)
            - math.lgamma(ell)
            - math.lgamma(u - ell + 1)
        )
        for ell in range(1, u + 1)
    )


def overlapping_probabilities(m: int, block: int = 1032, k: int = 5) -> tuple[float, ...]:
    eta = (block - m + 1) / 2.0**m / 2.0
    pi = [_pr(i, eta) for i in range(k)]
    return (*pi, 1.0 - sum(pi))


def overlapping_template(bits: Bits | Sequence, m: int = 9) -> TestOutcome:
    seq = as_sequence(bits)
    block, k = 1032, 5
    n_blocks = seq.n // block
    if n_blocks == 0:
        return single("OverlappingTemplate", None, note=f"n = {seq.n} is shorter than M = 1032")
    ones = np.uint64((1 << m) - 1)
    hits = seq.windows(m)[: n_blocks * block].reshape(n_blocks, block)[:, : block - m + 1] == ones
    w = np.minimum(hits.sum(axis=1), k)
    nu = np.bincount(w, minlength=k + 1)
    pi = np.asarray(overlapping_probabilities(m, block, k))
    expected = n_blocks * pi
    chi2 = float((((nu - expected) ** 2) / expected).sum())
    return single(
        "OverlappingTemplate", igamc(k / 2.0, chi2 / 2.0), chi2=chi2, nu=nu.tolist(), N=n_blocks
    )
