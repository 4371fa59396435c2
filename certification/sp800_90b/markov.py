"""Markov estimate (SP 800-90B 6.3.3), bit strings only.

First-order transition probabilities bound the probability of the most likely 128-bit
sequence; six candidate sequences are enough for a binary chain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class MarkovResult:
    """Initial and transition probabilities and the resulting per-bit min-entropy."""

    p0: float
    p1: float
    p00: float
    p01: float
    p10: float
    p11: float
    p_max: float
    min_entropy: float


def markov_estimate(bits: npt.NDArray[np.uint8]) -> MarkovResult:
    """The Markov estimate over a bit string of length at least 2."""
    n = int(bits.size)
    head = bits[:-1]
    tail = bits[1:]
    c0 = int(np.count_nonzero(head == 0))
    c00 = int(np.count_nonzero((head == 0) & (tail == 0)))
    c10 = int(np.count_nonzero((head == 1) & (tail == 0)))
    c1 = n - 1 - c0
    if c0 > 0:
        p00 = c00 / c0
        p01 = 1.0 - p00
    else:
        p00 = p01 = 0.0
    if c1 > 0:
        p10 = c10 / c1
        p11 = 1.0 - p10
    else:
        p10 = p11 = 0.0
    if bits[-1] == 0:
        c0 += 1
    p0 = c0 / n
    p1 = 1.0 - p0
    h = 128.0
    cands: list[float] = []
    if p00 > 0.0:
        cands.append(-math.log2(p0) - 127.0 * math.log2(p00))
    if p01 > 0.0 and p10 > 0.0:
        cands.append(-math.log2(p0) - 64.0 * math.log2(p01) - 63.0 * math.log2(p10))
    if p01 > 0.0 and p11 > 0.0:
        cands.append(-math.log2(p0) - math.log2(p01) - 126.0 * math.log2(p11))
    if p10 > 0.0 and p00 > 0.0:
        cands.append(-math.log2(p1) - math.log2(p10) - 126.0 * math.log2(p00))
    if p10 > 0.0 and p01 > 0.0:
        cands.append(-math.log2(p1) - 64.0 * math.log2(p10) - 63.0 * math.log2(p01))
    if p11 > 0.0:
        cands.append(-math.log2(p1) - 127.0 * math.log2(p11))
    for c in cands:
        if c < h:
            h = c
    return MarkovResult(
        p0=p0,
        p1=p1,
        p00=p00,
        p01=p01,
        p10=p10,
        p11=p11,
        p_max=2.0 ** (-h),
        min_entropy=min(h / 128.0, 1.0),
    )
