"""Turning a predictor's score into min-entropy (SP 800-90B 6.3.7-6.3.10, final steps).

A predictor that made ``C`` correct predictions out of ``N``, with a longest run of ``r-1``
correct ones, has global bound ``P_global'`` (99% upper bound on ``C/N``) and local bound
``P_local`` (the ``p`` for which a longest run shorter than ``r`` has probability 0.99).
NIST's tool evaluates the run-length probability in extended precision and only searches
for ``P_local`` when it could raise the estimate; both habits are kept here.

:func:`loop_input` is what the compiled predictors (MultiMMC, LZ78Y) ask of their samples
before their one pass: no more than their 32-bit tables count, laid out as numba takes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.numerics import ZALPHA, bisect_decreasing

_LD = np.longdouble
_LDBL_EPSILON = float(np.finfo(np.longdouble).eps)
_LOG_099 = math.log(0.99)
#: The compiled predictors' tables (predictor_loops, context_tables) count in 32 bits.
MAX_LOOP_SAMPLES = 2**31


def _run_log_probability(p: float, r: int, n: int) -> float:
    """log P(longest run of successes < r in n trials with success probability p)."""
    pl = _LD(p)
    q = _LD(1.0) - pl
    x = _LD(1.0)
    xlast = _LD(0.0)
    pr = pl ** _LD(r)
    rr = _LD(r)
    i = 0
    while i <= 65 and (x - xlast) > _LD(_LDBL_EPSILON) * x:
        xlast = x
        x = _LD(1.0) + q * pr * x ** (rr + _LD(1.0))
        i += 1
    val = (
        np.log(_LD(1.0) - pl * x)
        - np.log((rr + _LD(1.0) - rr * x) * q)
        - (_LD(n) + _LD(1.0)) * np.log(x)
    )
    return float(val)


def loop_input(name: str, s: npt.NDArray[np.uint8], k: int) -> tuple[npt.NDArray[np.uint8], int]:
    """Symbols ``s`` (alphabet size ``k``) as the compiled loops of estimate ``name`` take
    them: C-contiguous, and the bits a symbol needs (a context's key packs them); a
    :class:`SampleDataError` if ``s`` is longer than their 32-bit counts hold."""
    if s.size >= MAX_LOOP_SAMPLES:
        raise SampleDataError(
            f"too many samples for the {name} estimate (at most {MAX_LOOP_SAMPLES - 1})"
        )
    return np.ascontiguousarray(s), max(1, (k - 1).bit_length())


@dataclass(frozen=True, slots=True)
class PredictionResult:
    """Outcome of one predictor estimate, in the tool's terms."""

    name: str
    c: int
    n: int
    r: int
    p_global: float
    p_global_prime: float
    p_local: float | None
    min_entropy: float


def prediction_estimate(name: str, c: int, n: int, max_run: int, k: int) -> PredictionResult:
    """Min-entropy of a predictor with ``c`` correct out of ``n``, longest run ``max_run``."""
    r = max_run + 1
    p_global = c / n
    if p_global > 0:
        p_global_prime = min(
            1.0, p_global + ZALPHA * math.sqrt(p_global * (1.0 - p_global) / (n - 1.0))
        )
    else:
        p_global_prime = 1.0 - 0.01 ** (1.0 / n)
    cur_max = max(1.0 / k, p_global_prime)
    p_local: float | None = None
    if cur_max < 1.0 and _run_log_probability(cur_max, r, n) > _LOG_099:
        p_local = bisect_decreasing(
            lambda p: _run_log_probability(p, r, n), _LOG_099, cur_max, 1.0, fail_value=1.0
        )
        cur_max = max(cur_max, p_local)
    return PredictionResult(
        name=name,
        c=c,
        n=n,
        r=r,
        p_global=p_global,
        p_global_prime=p_global_prime,
        p_local=p_local,
        min_entropy=-math.log2(cur_max),
    )
