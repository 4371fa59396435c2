"""t-Tuple and longest repeated substring (LRS) estimates (SP 800-90B 6.3.5, 6.3.6).

Both come from one sorted-suffix/LCP computation, as in NIST's tool: ``Q[t]`` (most
frequent ``t``-tuple count) is the largest group of adjacent suffixes whose LCP is at least
``t``; the LRS collision sums are sums of ``C(size, 2)`` over the same groups.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.numerics import ZALPHA
from certification.sp800_90b.suffixes import sorted_suffix_lcp


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


def _groups(idx: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Sizes (pairs + 1) of runs of consecutive indices."""
    if idx.size == 0:
        return np.zeros(0, dtype=np.int64)
    breaks = np.flatnonzero(np.diff(idx) != 1)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks + 1, [idx.size]))
    return (ends - starts + 1).astype(np.int64)


def _pu(p: float, n: int) -> float:
    return min(1.0, p + ZALPHA * math.sqrt(p * (1.0 - p) / float(n - 1)))


def tuple_estimates(
    x: npt.NDArray[np.uint8], alph_size: int
) -> tuple[TupleResult | None, LrsResult | None]:
    """Both estimates; ``None`` where the tool reports that the estimate cannot run."""
    n = int(x.size)
    _, lcp = sorted_suffix_lcp(x, alph_size)
    v = int(lcp.max()) if lcp.size else 0
    q: dict[int, int] = {}
    sums: dict[int, int] = {}
    u = v + 1
    m = lcp.size
    # Q[t]: largest group of adjacent suffixes with LCP >= t. While few LCPs are below t,
    # work from the break positions; otherwise from the (few) positions at or above t.
    t = 1
    while t <= v:
        brk = np.flatnonzero(lcp < t)
        if brk.size * 2 > m:
            break
        edges = np.concatenate(([-1], brk, [m]))
        qt = int(np.diff(edges).max())
        q[t] = qt
        if qt < 35:
            u = t
            break
        t += 1
    idx = np.flatnonzero(lcp >= t)
    while t <= v:
        idx = idx[lcp[idx] >= t]
        sizes = _groups(idx)
        if u == v + 1:
            qt = int(sizes.max()) if sizes.size else 1
            q[t] = qt
            if qt < 35:
                u = t
        if u <= t:
            sums[t] = int((sizes * (sizes - 1) // 2).sum())
        t += 1
    tuple_res: TupleResult | None = None
    p_max = -1.0
    for i in range(1, u):
        cur = q[i] / float(n - i + 1)
        p_max = max(p_max, cur ** (1.0 / i))
    if p_max > 0.0:
        pu = _pu(p_max, n)
        tuple_res = TupleResult(t=u - 1, p_hat_max=p_max, p_u=pu, min_entropy=-math.log2(pu))
    lrs_res: LrsResult | None = None
    if v >= u:
        p_max = 0.0
        for i in range(u, v + 1):
            cur = sums[i] / float(((n - i) * (n - i + 1)) >> 1)
            cp = cur ** (1.0 / i)
            if p_max < cp:
                p_max = cp
        pu = _pu(p_max, n)
        lrs_res = LrsResult(u=u, v=v, p_hat=p_max, p_u=pu, min_entropy=-math.log2(pu))
    return tuple_res, lrs_res
