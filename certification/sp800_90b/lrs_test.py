"""The IID track's longest repeated substring test (SP 800-90B 5.2.5, as NIST's tool).

With ``p_col`` the collision probability of one symbol (sum of squared proportions) and
``W`` the length of the longest repeated substring, the data pass when at least one
``W``-long collision is not too improbable: ``log(0.999) >= N * log1p(-p_col^W)`` with
``N = C(L - W + 1, 2)`` pairs of ``W``-substrings (evaluated in extended precision).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.suffixes import sorted_suffix_lcp

_LD = np.longdouble


@dataclass(frozen=True, slots=True)
class LrsTestResult:
    """Collision probability, LRS length, probability of a W-collision, verdict."""

    p_col: float
    w: int
    pr_x_ge_1: float
    passed: bool


def lrs_test(x: npt.NDArray[np.uint8], k: int) -> LrsTestResult:
    """Run the LRS test on symbols ``x`` from an alphabet of size ``k``."""
    n = int(x.size)
    p = np.bincount(x, minlength=k).astype(np.float64) / n
    p_col = _LD(0.0)
    for v in p.tolist():
        p_col += _LD(v) * _LD(v)
    if p_col > _LD(1.0) - _LD(np.finfo(np.longdouble).eps):
        return LrsTestResult(float(p_col), n - 1, 1.0, True)
    _, lcp = sorted_suffix_lcp(x, k)
    w = int(lcp.max()) if lcp.size else 0
    p_pow = p_col ** _LD(w)
    log_no = np.log1p(-p_pow)
    pairs = (n - w + 1) * (n - w) // 2
    prob_no = np.exp(_LD(pairs) * log_no)
    passed = bool(np.log(_LD(0.999)) >= _LD(pairs) * log_no)
    return LrsTestResult(float(p_col), w, float(_LD(1.0) - prob_no), passed)
