"""The special functions SP 800-22 needs: Q(a, x) for a = k/2 in closed form, and erfc.

``igamc(a, x)`` is the regularised upper incomplete gamma function Q(a, x) =
Gamma(a, x) / Gamma(a). Every call the battery and its final analysis make has a a
positive multiple of 1/2 (N/2 blocks, K/2 classes, 2^(m-1), 2^(m-2)/2, 9/2 ...), where
Q has a finite closed form: from the recurrence Gamma(s + 1, x) = s Gamma(s, x) +
x^s e^(-x) (DLMF 8.8.2), with Q(1, x) = e^(-x) and Q(1/2, x) = erfc(sqrt x),

    Q(a, x) = Q(a0, x) + sum over s = a0, a0 + 1, ..., a - 1 of x^s e^(-x) / Gamma(s + 1)

with a0 = 0 (integer a; Q(0, x) taken as 0) or a0 = 1/2 (half-integer a). Every term is
positive, so the sum has no cancellation: it is summed from its largest term outwards
(the terms fall on both sides of s = x, by the ratio x / s), stopping when a term no
longer changes the sum, and the largest term is computed in logarithms with Stirling's
series in the form s (log1p(u) - u), u = (x - s) / s, so it stays exact at a = 2^15
(Serial's m = 16): within 1e-13 relative of SciPy's value wherever Q > 1e-10, and
1e-14 absolute everywhere, for every a below. This avoids ``scipy.special``, whose
import (0.2 s: its array-API machinery) was a third of ``croupier certify sp800-22``'s
start-up. tests/certification/test_special.py checks it against
``scipy.special.gammaincc`` over every (a, x) range the battery uses; any other a goes
to SciPy, imported then.

``erfc`` is the standard library's (``math.erfc``, within 1e-13 relative of cephes'),
``normal(x)`` the standard normal distribution function.
"""

from __future__ import annotations

import math

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
#: below this s, lgamma is exact enough (|s ln x| small); above it, Stirling's series
#: (whose first omitted term, 1/(1188 s^9), is below 1e-16 there)
_STIRLING_FROM = 30.0
#: a term below this fraction of the sum no longer changes it
_NEGLIGIBLE = 1e-17


def _log_term(s: float, x: float) -> float:
    """ln(x^s e^(-x) / Gamma(s + 1)), accurate where s and x are large and close."""
    if s < _STIRLING_FROM:
        return (s * math.log(x) if s else 0.0) - x - math.lgamma(s + 1.0)
    u = (x - s) / s
    s2 = s * s
    corr = (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - 1.0 / (1680.0 * s2)) / s2) / s2) / s
    return s * (math.log1p(u) - u) - _HALF_LOG_2PI - 0.5 * math.log(s) - corr


def _igamc_half(a: float, x: float) -> float:
    """Q(a, x) for a a positive multiple of 1/2 and x > 0, by the closed form above."""
    half = a != math.floor(a)
    first = 0.5 if half else 0.0
    last = a - 1.0
    base = math.erfc(math.sqrt(x)) if half else 0.0
    if last < first:  # a = 1/2
        return base
    # the largest term: the largest s of the grid not above x (the ratio x / s >= 1 up to it)
    peak = min(max(first + math.floor(x - first), first), last)
    top = math.exp(_log_term(peak, x))
    total = top
    t, s = top, peak
    while s < last:  # upwards: each term x / s times the one before
        s += 1.0
        t *= x / s
        total += t
        if t <= total * _NEGLIGIBLE:
            break
    t, s = top, peak
    while s > first:  # downwards
        t *= s / x
        s -= 1.0
        total += t
        if t <= total * _NEGLIGIBLE:
            break
    return min(1.0, base + total)


def igamc(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a); 1.0 for x <= 0 as cephes returns."""
    if x <= 0.0:
        return 1.0
    if a > 0.0 and (2.0 * a).is_integer() and math.isfinite(x):
        return _igamc_half(a, x)
    from scipy import special  # not on the battery's path: only other a reach here

    return float(special.gammaincc(a, x))


def erfc(x: float) -> float:
    """The complementary error function."""
    return math.erfc(x)


def normal(x: float) -> float:
    """Standard normal distribution function Phi(x) (cephes ``normal``)."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))
