"""Running "most frequent next symbol after this context" tables, vectorised.

MultiMMC and LZ78Y both keep, for each context length ``d``, counts of which symbol
followed each ``d``-symbol context so far, and predict the most frequent follower (ties to
the larger symbol). For a position ``t`` the context is ``s[t-d:t]`` and the follower is
``s[t]``. With positions grouped by context (stable sort keeps time order), a pair's count
after its ``m``-th occurrence is ``m``; the prediction before position ``t`` is the running
maximum of ``count * k + symbol`` over the earlier positions of the same context, because a
pair's latest occurrence always carries its largest key.

Dictionaries in the tool are capped: a pair never admitted (the table was full when it
first appeared) is never counted. ``first_seen`` lets the caller decide admission.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class ContextLevel:
    """Positions ``t >= start`` grouped by their length-``d`` context.

    ``order`` lists positions (offset by ``start``) grouped by context, in time order within
    a group; ``group_start[i]`` marks the first element of each group; ``pair_count`` is the
    1-based occurrence number of the (context, follower) pair at each sorted element, and
    ``pair_first`` the position at which that pair first appeared.
    """

    d: int
    start: int
    order: I64
    group_start: npt.NDArray[np.bool_]
    pair_count: I64
    pair_first: I64


def context_ids(s: npt.NDArray[np.uint8], k: int, max_d: int) -> list[I64]:
    """Dense context ids ``ids[d-1][t]`` of ``s[t-d:t]`` for ``t >= d`` (others -1)."""
    n = int(s.size)
    sym = s.astype(np.int64)
    out: list[I64] = []
    prev = np.full(n, -1, dtype=np.int64)
    prev[1:] = sym[:-1]
    out.append(prev.copy())
    bits = max(1, int(k - 1).bit_length())
    for d in range(2, max_d + 1):
        cur = np.full(n, -1, dtype=np.int64)
        if d * bits <= 62:
            # Direct packing: previous id already is the packed (d-1)-context.
            cur[d:] = (sym[: n - d] << ((d - 1) * bits)) | prev[d:]
        else:
            combined = prev[d:] * k + sym[: n - d]
            _, inv = np.unique(combined, return_inverse=True)
            cur[d:] = inv.astype(np.int64)
        out.append(cur)
        prev = cur
    return out


def build_level(
    ids: I64, s: npt.NDArray[np.uint8], k: int, d: int, start: int, stop: int
) -> ContextLevel:
    """Group positions ``start..stop-1`` (all with ``t >= d``) by their context id."""
    ctx = ids[start:stop]
    y = s[start:stop].astype(np.int64)
    if int(ctx.max()) < (1 << 16) and ctx.min() >= 0:
        order = np.argsort(ctx.astype(np.uint16), kind="stable").astype(np.int64)
    else:
        order = np.argsort(ctx, kind="stable").astype(np.int64)
    sc = ctx[order]
    sy = y[order]
    m = order.size
    gs = np.ones(m, dtype=bool)
    gs[1:] = sc[1:] != sc[:-1]
    # Occurrence number of each (context, follower) pair, in time order.
    if k == 2:
        group_idx = np.cumsum(gs) - 1
        gstart_pos = np.flatnonzero(gs)
        ones = np.cumsum(sy)
        ones_before_group = np.concatenate(([0], ones))[gstart_pos][group_idx]
        n_ones = ones - ones_before_group
        n_all = np.arange(1, m + 1) - gstart_pos[group_idx]
        pair_count = np.where(sy == 1, n_ones, n_all - n_ones)
    else:
        pair_key = sc * k + sy
        porder = np.argsort(pair_key, kind="stable")
        pk = pair_key[porder]
        ps = np.ones(m, dtype=bool)
        ps[1:] = pk[1:] != pk[:-1]
        pstart = np.maximum.accumulate(np.where(ps, np.arange(m), 0))
        cnt_sorted = np.arange(m) - pstart + 1
        pair_count = np.empty(m, dtype=np.int64)
        pair_count[porder] = cnt_sorted
    # Position where each pair first appeared (its count-1 occurrence).
    first_marker = np.where(pair_count == 1, order, -1)
    if k == 2:
        # Per group and follower, the first occurrence is the element with count 1.
        first = np.empty(m, dtype=np.int64)
        for val in (0, 1):
            sel = sy == val
            fm = np.where(sel & (pair_count == 1), np.arange(m), -1)
            # propagate within the same follower value: use forward fill over sel elements
            idx_sel = np.flatnonzero(sel)
            fm_sel = np.maximum.accumulate(fm[idx_sel]) if idx_sel.size else fm[idx_sel]
            first[idx_sel] = order[np.maximum(fm_sel, 0)]
    else:
        firsts_sorted = np.maximum.accumulate(np.where(ps, np.arange(m), 0))
        first_of_pair = np.empty(m, dtype=np.int64)
        first_of_pair[porder] = order[porder[firsts_sorted]]
        first = first_of_pair
    del first_marker
    return ContextLevel(
        d=d,
        start=start,
        order=order + start,
        group_start=gs,
        pair_count=pair_count,
        pair_first=first + start,
    )


def predictions(
    level: ContextLevel, s: npt.NDArray[np.uint8], k: int, admitted: npt.NDArray[np.bool_], n: int
) -> tuple[I64, I64]:
    """Per position: predicted symbol and its count (count 0: no prediction).

    ``admitted`` flags, per sorted element, whether its pair is in the dictionary.
    """
    sy = s[level.order].astype(np.int64)
    key = np.where(admitted, level.pair_count * k + sy + 1, 0)
    m = key.size
    gid = np.cumsum(level.group_start) - 1
    big = int(key.max()) + 1 if m else 1
    run = np.maximum.accumulate(key + gid * big) - gid * big
    excl = np.empty(m, dtype=np.int64)
    excl[0] = 0
    excl[1:] = run[:-1]
    excl[level.group_start] = 0
    pred = np.full(n, -1, dtype=np.int64)
    cnt = np.zeros(n, dtype=np.int64)
    has = excl > 0
    v = excl - 1
    pred[level.order[has]] = v[has] % k
    cnt[level.order[has]] = v[has] // k
    return pred, cnt
