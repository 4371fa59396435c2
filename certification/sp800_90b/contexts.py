"""Running "most frequent next symbol after this context" tables, vectorised.

MultiMMC and LZ78Y both keep, for each context length ``d``, counts of which symbol
followed each ``d``-symbol context so far, and predict the most frequent follower (ties to
the larger symbol). For a position ``t`` the context is ``s[t-d:t]`` and the follower is
``s[t]``. With positions grouped by context (a stable sort keeps time order), a pair's count
after its ``m``-th occurrence is ``m``; the prediction before position ``t`` is the running
maximum of ``count * k + symbol`` over the earlier positions of the same context, because a
pair's latest occurrence always carries its largest key. The follower at ``t`` is ``s[t]``
itself, so a prediction is checked in sorted order and only the outcome is scattered back.

Dictionaries in the tool are capped; a pair (or context) not admitted when it first
appeared is never counted. Callers decide admission from first positions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]


def sorted_by_key(keys: I64) -> tuple[I64, I64]:
    """Stable sort of non-negative keys: ``(order, sorted keys)``.

    Keys and positions are packed into one 64-bit word when they fit, so a plain value
    sort (much faster than a stable argsort) does the work.
    """
    m = int(keys.size)
    if m == 0:
        return np.zeros(0, dtype=np.int64), keys
    pos_bits = max(1, int(m - 1).bit_length())
    top = int(keys.max())
    if top.bit_length() + pos_bits <= 63:
        packed = (keys << pos_bits) | np.arange(m, dtype=np.int64)
        packed.sort()
        return packed & ((1 << pos_bits) - 1), packed >> pos_bits
    order = np.argsort(keys, kind="stable").astype(np.int64)
    return order, keys[order]


def _dense(keys: I64) -> tuple[I64, bool]:
    """Dense ids (0..distinct-1) preserving equality, and whether all keys are distinct."""
    order, sk = sorted_by_key(keys)
    change = np.ones(sk.size, dtype=bool)
    np.not_equal(sk[1:], sk[:-1], out=change[1:])
    ranks = np.cumsum(change, dtype=np.int64) - 1
    out = np.empty(sk.size, dtype=np.int64)
    out[order] = ranks
    return out, bool(change.all())


def context_ids(s: U8, k: int, max_d: int) -> tuple[list[I64], int]:
    """Context ids ``ids[d-1][t]`` of ``s[t-d:t]`` (equal ids for equal contexts; ``t >= d``).

    Bits are packed directly; larger alphabets are packed while they fit in 31 bits and
    renumbered densely after that. Returns the ids and ``unique_from``: the first length
    at which every context in the data is distinct (so no longer context ever repeats and
    no prediction can be made from it); ids are not computed beyond it.
    """
    n = int(s.size)
    sym = s.astype(np.int64)
    out: list[I64] = []
    prev = np.zeros(n, dtype=np.int64)
    prev[1:] = sym[:-1]
    out.append(prev)
    bits = max(1, int(k - 1).bit_length())
    packed = True
    for d in range(2, max_d + 1):
        cur = np.zeros(n, dtype=np.int64)
        if packed and d * bits <= 31:
            cur[d:] = (sym[: n - d] << ((d - 1) * bits)) | prev[d:]
        else:
            packed = False
            dense, distinct = _dense(prev[d:] * k + sym[: n - d])
            cur[d:] = dense
            if distinct:
                out.append(cur)
                return out, d
        out.append(cur)
        prev = cur
    return out, max_d + 1


@dataclass(frozen=True, slots=True)
class ContextLevel:
    """Positions ``start..stop-1`` grouped by their length-``d`` context, time order within.

    ``order``: positions in grouped order; ``ctx``/``y``: context id and follower of each
    element; ``gstart``: index of the first element of its group; ``pair_count``: 1-based
    occurrence number of its (context, follower) pair.
    """

    d: int
    order: I64
    ctx: I64
    y: I64
    gstart: I64
    pair_count: I64


def build_level(ids: I64, s: U8, k: int, d: int, start: int, stop: int) -> ContextLevel:
    """Group positions ``start..stop-1`` (all ``>= d``) by their context id."""
    ctx = ids[start:stop]
    if k == 2 and d <= 16:
        order = np.argsort(ctx.astype(np.uint16), kind="stable").astype(np.int64)
        sc = ctx[order]
    else:
        order, sc = sorted_by_key(ctx)
    sy = s[start:stop][order].astype(np.int64)
    m = order.size
    idx = np.arange(m, dtype=np.int64)
    gs = np.ones(m, dtype=bool)
    np.not_equal(sc[1:], sc[:-1], out=gs[1:])
    gstart = np.where(gs, idx, 0)
    np.maximum.accumulate(gstart, out=gstart)
    if k == 2:
        ones = np.cumsum(sy)
        ones_before = ones[gstart] - sy[gstart]
        n1 = ones - ones_before
        pair_count = np.where(sy == 1, n1, idx - gstart + 1 - n1)
    else:
        pair_key = sc * k + sy
        porder, pk = sorted_by_key(pair_key)
        ps = np.ones(m, dtype=bool)
        np.not_equal(pk[1:], pk[:-1], out=ps[1:])
        pstart = np.where(ps, idx, 0)
        np.maximum.accumulate(pstart, out=pstart)
        pair_count = np.empty(m, dtype=np.int64)
        pair_count[porder] = idx - pstart + 1
    return ContextLevel(
        d=d,
        order=order.astype(np.int64) + start,
        ctx=sc,
        y=sy,
        gstart=gstart,
        pair_count=pair_count,
    )


def pair_first_positions(level: ContextLevel, k: int) -> I64:
    """Per element, the position where its (context, follower) pair first appeared."""
    key = level.ctx * k + level.y
    firsts = level.pair_count == 1
    if k == 2 and int(level.ctx.max(initial=0)) < (1 << 16):
        small = np.empty(1 << 17, dtype=np.int64)
        small[key[firsts]] = level.order[firsts]
        out: I64 = small[key]
        return out
    inv, _ = _dense(key)
    table = np.empty(int(inv.max()) + 1, dtype=np.int64)
    table[inv[firsts]] = level.order[firsts]
    return table[inv]


def context_first_positions(level: ContextLevel) -> I64:
    """Per element, the position where its context first appeared (group's first element)."""
    return level.order[level.gstart]


def running_prediction(
    level: ContextLevel, k: int, admitted: npt.NDArray[np.bool_] | None
) -> tuple[I64, I64]:
    """Per element (sorted order): predicted follower and its count (0: no prediction)."""
    key = level.pair_count * k + level.y + 1
    if admitted is not None:
        key = np.where(admitted, key, 0)
    big = int(key.max()) + 1 if key.size else 1
    offset = level.gstart * big
    run = np.maximum.accumulate(key + offset) - offset
    excl = np.empty_like(run)
    excl[0] = 0
    excl[1:] = run[:-1]
    excl[level.gstart == np.arange(excl.size)] = 0
    has = excl > 0
    v = excl - 1
    pred = np.where(has, v % k, -1)
    cnt = np.where(has, v // k, 0)
    return pred, cnt


def binary_context_ids(s: U8, max_d: int) -> npt.NDArray[np.uint16]:
    """Packed bit contexts: bit ``i-1`` of ``ids[t]`` is ``s[t-i]`` (``i = 1..max_d``).

    The ``d``-bit context of position ``t`` is ``ids[t] & (2^d - 1)`` (valid for ``t >= d``).
    """
    n = int(s.size)
    ids = np.zeros(n, dtype=np.uint16)
    for i in range(1, max_d + 1):
        ids[i:] |= s[: n - i].astype(np.uint16) << np.uint16(i - 1)
    return ids


@dataclass(frozen=True, slots=True)
class BinaryLevel:
    """Bit-string special case of :class:`ContextLevel` (contexts of at most 16 bits).

    Per element in grouped order: ``order`` (position), ``ctx``, follower ``y``, and the
    numbers of earlier occurrences of the context (``before``) and of (context, 1)
    (``ones``), both exclusive of the element itself.
    """

    d: int
    order: npt.NDArray[np.intp]
    ctx: npt.NDArray[np.uint16]
    y: U8
    before: npt.NDArray[np.int32]
    ones: npt.NDArray[np.int32]


def build_binary_level(
    ids16: npt.NDArray[np.uint16], s: U8, d: int, start: int, stop: int
) -> BinaryLevel:
    """Group bit positions ``start..stop-1`` by their ``d``-bit context (``d <= 16``)."""
    ctx = ids16[start:stop] & np.uint16((1 << d) - 1)
    order = np.argsort(ctx, kind="stable")
    sc = ctx[order]
    sy = s[start:stop][order]
    m = order.size
    idx = np.arange(m, dtype=np.int32)
    gstart = np.zeros(m, dtype=np.int32)
    np.copyto(gstart[1:], idx[1:], where=sc[1:] != sc[:-1])
    np.maximum.accumulate(gstart, out=gstart)
    ones_excl = np.empty(m, dtype=np.int32)
    ones_excl[0] = 0
    np.cumsum(sy[:-1], out=ones_excl[1:], dtype=np.int32)
    ones = ones_excl - ones_excl[gstart]
    order += start
    return BinaryLevel(d=d, order=order, ctx=sc, y=sy, before=idx - gstart, ones=ones)


def binary_prediction(
    level: BinaryLevel,
    admit0: npt.NDArray[np.bool_] | None = None,
    admit1: npt.NDArray[np.bool_] | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Per element: predicted bit (ties to 1) and its count (0: no prediction).

    ``admit0``/``admit1`` (indexed by context) say whether (context, 0)/(context, 1) is
    in the capped dictionary; pairs left out are never counted.
    """
    n1 = level.ones
    n0 = level.before - level.ones
    if admit1 is not None and admit0 is not None:
        n1 = np.where(admit1[level.ctx], n1, 0)
        n0 = np.where(admit0[level.ctx], n0, 0)
    pred = (n1 >= n0).astype(np.int32)
    cnt = np.maximum(n1, n0)
    return pred, cnt
