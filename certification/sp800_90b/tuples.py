"""t-Tuple and longest repeated substring (LRS) estimates (SP 800-90B 6.3.5, 6.3.6).

Both come from one sorted-suffix/LCP computation, as in NIST's tool: ``Q[t]`` (most
frequent ``t``-tuple count) is the largest group of adjacent suffixes whose LCP is at least
``t``; the LRS collision sums are sums of ``C(size, 2)`` over the same groups. All the
groups, for every ``t`` at once, come from one compiled pass over the LCPs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.jit import kernel
from certification.sp800_90b.numerics import ZALPHA
from certification.sp800_90b.suffixes import sorted_suffix_lcp

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class TupleResult:
    """t-Tuple estimate (``t`` is the largest tuple length seen at least 35 times)."""

    t: int
    p_hat_max: float
    p_u: float
    min_entropy: float


@dataclass(frozen=True, slots=True)
class LrsResult:
    """LRS estimate over tuple lengths ``u..v`` (``v`` is the longest repeat)."""

    u: int
    v: int
    p_hat: float
    p_u: float
    min_entropy: float


@kernel
def _repeat_counts(lcp: I64, v: int, threshold: int) -> tuple[I64, I64, int]:
    """``Q[t]`` for ``t < u``, ``u`` and the collision sums ``S[t]`` for every ``t <= v``.

    A run of adjacent sorted suffixes whose LCPs are all at least ``t`` is a group of
    suffixes sharing a ``t``-tuple. One pass with a stack finds each maximal run (an LCP
    interval) with the range of ``t`` it is maximal for, ``(parent's LCP, its LCP]``:
    ``S[t]`` adds ``C(size, 2)`` over that range (a difference array), ``Q[t]`` is the
    largest size covering ``t``. Only runs of ``threshold`` (35) suffixes or more can
    hold ``Q[t]`` up at the threshold, so only they are spread over their range, and ``u``,
    the first ``t`` with ``Q[t] < threshold``, is one past the deepest of them.
    """
    m = lcp.size
    q = np.ones(v + 2, dtype=np.int64)
    diff = np.zeros(v + 3, dtype=np.int64)
    depth = np.zeros(m + 2, dtype=np.int64)
    left = np.zeros(m + 2, dtype=np.int64)
    top = 0  # the stack's bottom entry: LCP 0 from index 0
    deepest = 0
    for j in range(m + 1):
        cur = lcp[j] if j < m else 0
        lb = j
        while depth[top] > cur:
            h, lo = depth[top], left[top]
            top -= 1
            parent = max(cur, depth[top])
            size = j - lo + 1  # LCP entries lo..j-1 join suffixes lo..j
            pairs = size * (size - 1) // 2
            diff[parent + 1] += pairs
            diff[h + 1] -= pairs
            if size >= threshold:
                deepest = max(deepest, h)
                for t in range(parent + 1, h + 1):
                    q[t] = max(q[t], size)
            lb = lo
        if depth[top] < cur:
            top += 1
            depth[top] = cur
            left[top] = lb
    sums = np.cumsum(diff)[: v + 1]
    return q, sums, deepest + 1


def _pu(p: float, n: int) -> float:
    return min(1.0, p + ZALPHA * math.sqrt(p * (1.0 - p) / float(n - 1)))


def tuple_estimates(
    x: npt.NDArray[np.uint8], alph_size: int
) -> tuple[TupleResult | None, LrsResult | None]:
    """Both estimates; ``None`` where the tool reports that the estimate cannot run."""
    n = int(x.size)
    _, lcp = sorted_suffix_lcp(x, alph_size)
    v = int(lcp.max()) if lcp.size else 0
    q, sums, u = _repeat_counts(lcp, v, 35)
    tuple_res: TupleResult | None = None
    p_max = -1.0
    for i in range(1, u):
        cur = int(q[i]) / float(n - i + 1)
        p_max = max(p_max, cur ** (1.0 / i))
    if p_max > 0.0:
        pu = _pu(p_max, n)
        tuple_res = TupleResult(t=u - 1, p_hat_max=p_max, p_u=pu, min_entropy=-math.log2(pu))
    lrs_res: LrsResult | None = None
    if v >= u:
        p_max = 0.0
        for i in range(u, v + 1):
            cur = int(sums[i]) / float(((n - i) * (n - i + 1)) >> 1)
            cp = cur ** (1.0 / i)
            if p_max < cp:
                p_max = cp
        pu = _pu(p_max, n)
        lrs_res = LrsResult(u=u, v=v, p_hat=p_max, p_u=pu, min_entropy=-math.log2(pu))
    return tuple_res, lrs_res
