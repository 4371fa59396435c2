"""Compression estimate (SP 800-90B 6.3.4), bit strings only.

The bits are cut into 6-bit blocks; the first 1000 fill a dictionary and every later block
scores ``log2`` of the distance back to its previous occurrence (a Maurer-style universal
statistic). ``p`` solves ``E[X](p) = X-bar'`` where ``E`` is the tool's ``G``-function sum,
computed here in extended precision with the same term order and underflow cut-off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.jit import kernel
from certification.sp800_90b.numerics import ZALPHA, bisect_decreasing, exact_sum

_B = 6
_D = 1000
_ALPH = 1 << _B
_LD = np.longdouble


@dataclass(frozen=True, slots=True)
class CompressionResult:
    """Statistic, its bound, and the ``p`` found (``found`` False: ``p = 1/64``)."""

    x_bar: float
    sigma_hat: float
    x_bar_prime: float
    found: bool
    p: float
    min_entropy: float


class _GFunction:
    """``G(z)`` of the tool, for fixed ``d`` and number of blocks."""

    def __init__(self, num_blocks: int) -> None:
        self.nb = num_blocks
        self.v = num_blocks - _D
        idx = np.arange(2, num_blocks + 1, dtype=np.float64)
        self.log2i = np.log2(idx.astype(_LD))  # log2(i), i = 2..nb

    def __call__(self, z: float) -> float:
        nb = self.nb
        bterm = _LD(1.0) - _LD(z)
        # B_i = bterm^(i-1) for i = 2..nb, by repeated multiplication as the tool does.
        if bterm > 0:
            cut = int(800.0 / -math.log(float(bterm))) + _D + 16 if bterm < 1 else nb
        else:
            cut = _D + 2
        m = min(nb, max(cut, _D + 2)) - 1  # number of i values 2..m+1
        b = np.cumprod(np.full(m, bterm, dtype=_LD))
        a = self.log2i[:m] * b  # a_i for i = 2..m+1 (long double)
        head = a[: _D - 1].astype(np.float64)  # i = 2..d
        ad1 = exact_sum(head)
        tail = a[_D - 1 :]  # i = d+1 .. m+1
        i_vals = np.arange(_D + 1, _D + 1 + tail.size, dtype=np.int64)
        keep = i_vals <= nb - 1
        tail_i = i_vals[keep]
        tail_a = tail[keep]
        scaled = ((nb - tail_i).astype(_LD) * tail_a).astype(np.float64)
        zero = np.flatnonzero(~(scaled > 0.0))
        truncated = zero.size > 0 or (tail_i.size > 0 and tail_i[-1] < nb - 1)
        stop = int(zero[0]) if zero.size else tail_i.size
        ai_terms = tail_a[:stop].astype(np.float64)
        a_sum = exact_sum(np.concatenate(([ad1], ai_terms)))
        first = exact_sum(np.concatenate((scaled[:stop], [float(nb - _D) * ad1])))
        if not truncated:
            a_sum = math.fsum([a_sum, float(self.log2i[nb - 2] * b[nb - 2])])
        return 1.0 / self.v * z * (z * first + (a_sum - ad1))


@kernel
def _distances(bits: npt.NDArray[np.uint8], num_blocks: int) -> npt.NDArray[np.int64]:
    """For each block after the first ``_D``: how far back its value last occurred.

    Blocks are ``_B`` bits, most significant first; a value not seen before counts from
    before the first block (distance = its 1-based index), as the dictionary starts empty.
    """
    last = np.zeros(_ALPH, dtype=np.int64)  # 1-based index of the last occurrence
    dist = np.empty(num_blocks - _D, dtype=np.int64)
    for i in range(num_blocks):
        v = 0
        for j in range(_B):
            v = (v << 1) | bits[i * _B + j]
        if i >= _D:
            dist[i - _D] = i + 1 - last[v]
        last[v] = i + 1
    return dist


def compression_estimate(bits: npt.NDArray[np.uint8]) -> CompressionResult:
    """The compression estimate over a bit string."""
    n = int(bits.size)
    num_blocks = n // _B
    if num_blocks <= _D:
        raise SampleDataError(
            f"not enough samples to run the compression estimate (need more than {_D} blocks)"
        )
    dist = _distances(np.ascontiguousarray(bits), num_blocks)
    logs = np.log2(dist.astype(np.float64))
    v = num_blocks - _D
    x = exact_sum(logs) / v
    sq = exact_sum(logs * logs)
    sigma = 0.5907 * math.sqrt(sq / (v - 1.0) - x * x)
    x_prime = x - ZALPHA * sigma / math.sqrt(v)
    g = _GFunction(num_blocks)

    def expected(p: float) -> float:
        q = (1.0 - p) / (_ALPH - 1.0)
        return g(p) + (_ALPH - 1.0) * g(q)

    lo = 1.0 / _ALPH
    p = (
        bisect_decreasing(expected, x_prime, lo, 1.0, fail_value=lo)
        if expected(lo) > x_prime
        else -1.0
    )
    if p > lo:
        return CompressionResult(x, sigma, x_prime, True, p, -math.log2(p) / _B)
    return CompressionResult(x, sigma, x_prime, False, lo, 1.0)
