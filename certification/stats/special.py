"""The special functions the NIST tool takes from cephes, here from scipy.special.

``igamc(a, x)`` is the regularised upper incomplete gamma function Q(a, x) (scipy's
``gammaincc``, itself from cephes), ``erfc`` the complementary error function and
``normal(x)`` the standard normal distribution function; all agree with the tool's
cephes routines well beyond the six decimals it prints.
"""

from __future__ import annotations

import math

from scipy import special


def igamc(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a); 1.0 for x <= 0 as cephes returns."""
    if x <= 0.0:
        return 1.0
    return float(special.gammaincc(a, x))


def erfc(x: float) -> float:
    """The complementary error function."""
    return float(special.erfc(x))


def normal(x: float) -> float:
    """Standard normal distribution function Phi(x) (cephes ``normal``)."""
    return 0.5 * float(special.erfc(-x / math.sqrt(2.0)))
