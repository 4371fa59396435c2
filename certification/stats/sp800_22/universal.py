"""Maurer's universal statistical test (SP 800-22 2.9), with sts-2.1.2's tables.

L is chosen from n by the tool's thresholds (L = 7, Q = 1280 at n = 10^6); the expected
values and variances are the tool's table, and sigma uses its formula 16 from
Marsaglia's paper. The distance to the previous occurrence of each L-bit block is found
for all blocks at once with a stable sort by block value.
"""

from __future__ import annotations

import math

import numpy as np

from certification.stats.sp800_22.result import TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import erfc

EXPECTED = (0, 0, 0, 0, 0, 0, 5.2177052, 6.1962507, 7.1836656, 8.1764248, 9.1723243,
            10.170032, 11.168765, 12.168070, 13.167693, 14.167488, 15.167379)  # fmt: skip
VARIANCE = (0, 0, 0, 0, 0, 0, 2.954, 3.125, 3.238, 3.311, 3.356, 3.384, 3.401, 3.410,
            3.416, 3.419, 3.421)  # fmt: skip
#: n at or above which L takes the value (sts-2.1.2)
THRESHOLDS = ((387840, 6), (904960, 7), (2068480, 8), (4654080, 9), (10342400, 10),
              (22753280, 11), (49643520, 12), (107560960, 13), (231669760, 14),
              (496435200, 15), (1059061760, 16))  # fmt: skip


def block_length(n: int) -> int:
    length = 5
    for threshold, value in THRESHOLDS:
        if n >= threshold:
            length = value
    return length


def universal(bits: Bits | Sequence) -> TestOutcome:
    seq = as_sequence(bits)
    n = seq.n
    ell = block_length(n)
    if ell < 6:
        return single("Universal", None, note=f"n = {n} is too short (needs 387,840)")
    q = 10 * (1 << ell)
    k = int(math.floor(n / ell) - q)
    total = q + k
    values = seq.windows(ell)[: total * ell : ell]  # the non-overlapping L-bit blocks
    order = np.argsort(values.astype(np.uint16), kind="stable")  # radix sort, by value
    sorted_vals = values[order]
    prev = np.zeros(total, dtype=np.int64)  # 1-based index of the previous same block, or 0
    same = sorted_vals[1:] == sorted_vals[:-1]
    prev[order[1:][same]] = order[:-1][same] + 1
    i = np.arange(q + 1, total + 1, dtype=np.int64)
    dist = i - prev[q:]
    phi = float(np.log2(dist.astype(np.float64)).sum()) / k
    c = 0.7 - 0.8 / ell + (4 + 32 / ell) * math.pow(k, -3 / ell) / 15
    sigma = c * math.sqrt(VARIANCE[ell] / k)
    arg = abs(phi - EXPECTED[ell]) / (math.sqrt(2) * sigma)
    return single("Universal", erfc(arg), L=ell, Q=q, K=k, phi=phi, sigma=sigma)
