"""The special functions the NIST tool uses, computed as sts-2.1.2 computes them.

``igamc(a, x)`` is the regularised upper incomplete gamma function Q(a, x), ported line
for line from the tool's ``cephes_igamc``/``cephes_igam`` (src/cephes.c: the continued
fraction for x >= max(a, 1), the power series below), with the C library's ``lgamma``
for the tool's ``cephes_lgam``; ``erfc`` is the C library's, which is what the tool's
tests call, and ``normal(x)`` is Phi(x) as ``cephes_normal`` (0.5 * erfc(-x / sqrt 2)).

Pure Python on purpose: every caller passes scalars, a p-value costs microseconds (at most
some thousand series terms, for the serial test's a = 2^14), and importing
``scipy.special`` for them cost 0.15-0.2 s of CPU at every ``croupier certify sp800-22``
start (it pulls SciPy's array-API layer), a tenth of a 10-sequence run.
"""

from __future__ import annotations

import math

#: the tool's constants (src/cephes.c)
MACHEP = 1.11022302462515654042e-16
MAXLOG = 7.09782712893383996732224e2
_BIG = 4.503599627370496e15
_BIGINV = 2.22044604925031308085e-16


def igamc(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a); 1.0 for x <= 0 or a <= 0 as cephes returns."""
    if x <= 0.0 or a <= 0.0:
        return 1.0
    if x < 1.0 or x < a:
        return 1.0 - _igam(a, x)
    ax = a * math.log(x) - x - math.lgamma(a)
    if ax < -MAXLOG:
        return 0.0
    ax = math.exp(ax)
    y = 1.0 - a
    z = x + y + 1.0
    c = 0.0
    pkm2, qkm2 = 1.0, x
    pkm1, qkm1 = x + 1.0, z * x
    ans = pkm1 / qkm1
    while True:
        c += 1.0
        y += 1.0
        z += 2.0
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        if qk != 0.0:
            r = pk / qk
            t = abs((ans - r) / r)
            ans = r
        else:
            t = 1.0
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        if abs(pk) > _BIG:
            pkm2 *= _BIGINV
            pkm1 *= _BIGINV
            qkm2 *= _BIGINV
            qkm1 *= _BIGINV
        if t <= MACHEP:
            return ans * ax


def _igam(a: float, x: float) -> float:
    """P(a, x) = 1 - Q(a, x) by the power series (cephes ``igam``)."""
    if x <= 0.0 or a <= 0.0:
        return 0.0
    if x > 1.0 and x > a:
        return 1.0 - igamc(a, x)
    ax = a * math.log(x) - x - math.lgamma(a)
    if ax < -MAXLOG:
        return 0.0
    ax = math.exp(ax)
    r, c, ans = a, 1.0, 1.0
    while True:
        r += 1.0
        c *= x / r
        ans += c
        if c / ans <= MACHEP:
            return ans * ax / a


def erfc(x: float) -> float:
    """The complementary error function (the C library's, as the tool's tests use)."""
    return math.erfc(x)


def normal(x: float) -> float:
    """Standard normal distribution function Phi(x) (cephes ``normal``)."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))
