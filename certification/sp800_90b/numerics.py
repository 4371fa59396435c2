"""Numerical helpers shared by the estimators, following NIST's tool.

The tool solves the collision, compression and local-prediction equations with one
guarded bisection (stop when two values are within 4 ULPs or a relative ``DBL_EPSILON``;
give up to the domain edge when the function is not monotone on the bracket). Reproducing
that search, rather than a library root finder, is what makes the printed ``p`` agree.
"""

from __future__ import annotations

import math
import struct
import sys
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.jit import kernel

#: Upper 99.5% point of the standard normal distribution, as the tool writes it.
ZALPHA = 2.5758293035489008
_DBL_EPSILON = sys.float_info.epsilon
_DBL_MIN = sys.float_info.min
_ITERMAX = 1076


def _bits(x: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", x))[0])


def rel_epsilon_equal(a: float, b: float, max_ulp: int = 4) -> bool:
    """Closeness test used by the tool's bisections (relative, absolute or ULP-based)."""
    if math.isnan(a) or math.isnan(b):
        return False
    if a == b:
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    abs_a, abs_b = abs(a), abs(b)
    if abs_a > abs_b:
        a, b = b, a
        abs_a, abs_b = abs_b, abs_a
    diff = abs(b - a)
    if abs_a < _DBL_MIN or diff < _DBL_MIN or math.isinf(diff) or abs_b * _DBL_EPSILON < _DBL_MIN:
        return diff <= _DBL_MIN
    if diff <= abs_b * _DBL_EPSILON:
        return True
    if math.copysign(1.0, a) != math.copysign(1.0, b):
        return False
    return _bits(abs_b) - _bits(abs_a) <= max_ulp


def _in_closed(x: float, a: float, b: float) -> bool:
    return (b <= x <= a) if a > b else (a <= x <= b)


def _in_open(x: float, a: float, b: float) -> bool:
    return (b < x < a) if a > b else (a < x < b)


def bisect_decreasing(
    func: Callable[[float], float],
    target: float,
    ldomain: float,
    hdomain: float,
    *,
    fail_value: float,
) -> float:
    """Find ``p`` in ``[ldomain, hdomain]`` with ``func(p) == target`` for decreasing ``func``.

    ``fail_value`` is returned when the bracket invariants break (the tool's "search
    failure"); when the search stalls the upper bracket is returned, as the tool does.
    """
    lbound, hbound = ldomain, hdomain
    lvalue, hvalue = math.inf, -math.inf
    p = (lbound + hbound) / 2.0
    p_val = func(p)
    for _ in range(_ITERMAX):
        if rel_epsilon_equal(p_val, target):
            break
        if target < p_val:
            lbound, lvalue = p, p_val
        else:
            hbound, hvalue = p, p_val
        if lbound >= hbound:
            return min(max(lbound, hbound), hdomain)
        if not (_in_closed(lbound, ldomain, hdomain) and _in_closed(hbound, ldomain, hdomain)):
            return fail_value
        if not _in_closed(target, lvalue, hvalue):
            return fail_value
        last_p = p
        p = (lbound + hbound) / 2.0
        if not _in_open(p, lbound, hbound):
            return hbound
        if last_p == p:
            return hbound
        p_val = func(p)
        if not _in_closed(p_val, lvalue, hvalue):
            return hbound
    return p


def upper_bound(p_hat: float, n: int) -> float:
    """``min(1, p + Z*sqrt(p(1-p)/(n-1)))``: the 99% upper confidence bound on ``p``."""
    return min(1.0, p_hat + ZALPHA * math.sqrt(p_hat * (1.0 - p_hat) / (n - 1.0)))


def longest_run(flags: np.ndarray) -> int:
    """Length of the longest run of True values."""
    f = np.asarray(flags, dtype=bool)
    if f.size == 0 or not f.any():
        return 0
    padded = np.concatenate(([False], f, [False])).astype(np.int8)
    d = np.diff(padded)
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return int((ends - starts).max())


@kernel
def exact_sum(values: npt.NDArray[np.float64]) -> float:
    """The sum of finite ``values`` correctly rounded, as :func:`math.fsum` gives it.

    Shewchuk's exact summation: the running sum is kept as non-overlapping partials
    (each addition split into its rounded sum and its exact error), and the partials are
    added from the largest with a final half-even correction. The correctly rounded sum
    is unique, so the result is fsum's, without making a Python list of the values and
    without the GIL.
    """
    partials = np.zeros(128, dtype=np.float64)  # finite doubles need about 40
    count = 0
    for k in range(values.size):
        x = values[k]
        i = 0
        for j in range(count):
            y = partials[j]
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        partials[i] = x
        count = i + 1
    if count == 0:
        return 0.0
    n = count - 1
    hi = partials[n]
    lo = 0.0
    while n > 0:
        x = hi
        n -= 1
        y = partials[n]
        hi = x + y
        lo = y - (hi - x)
        if lo != 0.0:
            break
    if n > 0 and ((lo < 0.0 and partials[n - 1] < 0.0) or (lo > 0.0 and partials[n - 1] > 0.0)):
        y = lo * 2.0
        x = hi + y
        if y == x - hi:
            hi = x
    return float(hi)
