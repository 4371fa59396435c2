"""MultiMMC and LZ78Y over alphabets larger than bits (SP 800-90B 6.3.9, 6.3.10), compiled.

The same steps as the bit kernels of :mod:`predictor_loops`, but contexts of up to 16
symbols of up to 8 bits no longer index a table directly. Each is packed into two words
(``lo``: the most recent ``64 // b`` symbols, ``hi``: the older ones) and kept in an
open-addressed table with exact keys; a context's entry holds its most frequent follower
so far (ties to the larger symbol) and that follower's count, and the (context,
follower) counts sit in a second table keyed by the context's slot. Most contexts of
random data are new, so two cheap checks come before a table probe: a one-bit-per-slot
filter of the contexts added, and (MultiMMC) the set of short contexts ever seen, since a
context never seen has no longer context in the tables either.

Self-contained on purpose: numba's disk cache is keyed by the calling function's source
file, so a helper changed in another module would not invalidate these kernels' cache.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.jit import kernel

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xC2B2AE3D27D4EB4F)


@kernel
def _context_hash(lo: np.uint64, hi: np.uint64, d: int) -> np.uint64:
    """A well-mixed 64-bit hash of context ``(lo, hi)`` of length ``d``."""
    x = (lo * _MIX1) ^ ((hi + np.uint64(d)) * _MIX2)
    return x ^ (x >> np.uint64(29))


@kernel
def _maybe_in(filt: npt.NDArray[np.uint64], x: np.uint64) -> bool:
    """False when the context of hash ``x`` was never added (a one-bit filter in cache)."""
    f = (x >> np.uint64(32)) & np.uint64(filt.size * 64 - 1)
    return bool((filt[f >> np.uint64(6)] >> (f & np.uint64(63))) & np.uint64(1))


@kernel
def _mark_in(filt: npt.NDArray[np.uint64], x: np.uint64) -> None:
    """Record in the filter that the context of hash ``x`` is in the table."""
    f = (x >> np.uint64(32)) & np.uint64(filt.size * 64 - 1)
    filt[f >> np.uint64(6)] |= np.uint64(1) << (f & np.uint64(63))


@kernel
def _bit(bits: npt.NDArray[np.uint64], i: np.uint64) -> bool:
    """Bit ``i`` of a bit set."""
    return bool((bits[i >> np.uint64(6)] >> (i & np.uint64(63))) & np.uint64(1))


@kernel
def _set_bit(bits: npt.NDArray[np.uint64], i: np.uint64) -> None:
    """Set bit ``i`` of a bit set."""
    bits[i >> np.uint64(6)] |= np.uint64(1) << (i & np.uint64(63))


#: The context table's keys and filter: context words ``lo`` and ``hi``, its length, and
#: the one-bit-per-slot filter of the contexts added.
Keys = tuple[U64, U64, npt.NDArray[np.uint8], U64]


@kernel
def _find_context(
    keys: Keys, cnt: npt.NDArray[np.int32], lo: np.uint64, hi: np.uint64, d: int, x: np.uint64,
    base: int, mask: int,
) -> int:  # fmt: skip
    """Slot of context ``(lo, hi)`` of length ``d`` (hash ``x``) in the region of
    ``mask + 1`` slots at ``base``, or the free slot where it would go (``cnt`` is 0 at
    free slots)."""
    klo, khi, kd, _ = keys
    i = np.int64(x & np.uint64(mask))
    while cnt[base + i] > 0 and (klo[base + i] != lo or khi[base + i] != hi or kd[base + i] != d):
        i = (i + 1) & mask
    return int(base + i)


@kernel
def _find_pair(pkey: I64, key: int, base: int, mask: int) -> int:
    """Slot of pair ``key`` (> 0) in the region of ``mask + 1`` slots at ``base``, or the
    free slot where it would go."""
    x = np.uint64(key) * _MIX1
    i = np.int64((x ^ (x >> np.uint64(31))) & np.uint64(mask))
    while pkey[base + i] != 0 and pkey[base + i] != key:
        i = (i + 1) & mask
    return int(base + i)


@kernel
def _grown(pkey: I64, pcount: npt.NDArray[np.int32]) -> tuple[I64, npt.NDArray[np.int32]]:
    """The pair table rehashed at twice its size."""
    nkey = np.zeros(pkey.size * 2, dtype=np.int64)
    ncount = np.zeros(pkey.size * 2, dtype=np.int32)
    for i in range(pkey.size):
        if pkey[i] != 0:
            j = _find_pair(nkey, pkey[i], 0, nkey.size - 1)
            nkey[j] = pkey[i]
            ncount[j] = pcount[i]
    return nkey, ncount


@kernel
def _bit_length(x: int) -> int:
    """Bits needed to write ``x >= 0``."""
    bits = 0
    while x > 0:
        x >>= 1
        bits += 1
    return bits


@kernel
def _pow2_at_least(x: int) -> int:
    """The least power of two at or above ``x``."""
    p = 1
    while p < x:
        p <<= 1
    return p


@kernel
def _pack_contexts(
    s: U8,
    t: int,
    depth: int,
    b: int,
    lo: npt.NDArray[np.uint64],
    hi: npt.NDArray[np.uint64],
    row: int,
) -> int:
    """``lo[row, d], hi[row, d]``: the context ``s[t-d .. t-1]``, ``d = 1..min(depth, t)``."""
    per_word = 64 // b
    top = min(depth, t)
    a = np.uint64(0)
    c = np.uint64(0)
    for d in range(1, top + 1):
        v = np.uint64(s[t - d])
        if d <= per_word:
            a |= v << np.uint64(b * (d - 1))
        else:
            c |= v << np.uint64(b * (d - 1 - per_word))
        lo[row, d] = a
        hi[row, d] = c
    return top


@kernel
def _count_pair(
    pkey: I64,
    pcount: npt.NDArray[np.int32],
    slot: int,
    y: int,
    admit: bool,
    base: int,
    mask: int,
) -> tuple[int, bool]:
    """Count follower ``y`` after the context in ``slot``: ``(new count, pair was new)``.

    A new pair is only added when ``admit``; otherwise its count stays 0.
    """
    key = slot * 256 + y + 1
    j = _find_pair(pkey, key, base, mask)
    if pkey[j] != 0:
        pcount[j] += 1
        return pcount[j], False
    if not admit:
        return 0, False
    pkey[j] = key
    pcount[j] = 1
    return 1, True


@kernel
def _lookup(
    keys: Keys, cnt: npt.NDArray[np.int32], lo: np.uint64, hi: np.uint64, d: int, x: np.uint64,
    base: int, mask: int,
) -> int:  # fmt: skip
    """Slot of a context in the table, -1 when it is not there."""
    if not _maybe_in(keys[3], x):
        return -1
    i = _find_context(keys, cnt, lo, hi, d, x, base, mask)
    return i if cnt[i] > 0 else -1


@kernel
def _regions(k: int, depth: int, limit: int, extra: int) -> I64:
    """Start of each length's region (length ``d``: ``base[d]`` up to ``base[d+1]``).

    A region holds twice the most entries the length can have (``min(limit, k^(d+extra))``),
    rounded up to a power of two, so that short contexts sit close together in cache.
    """
    base = np.zeros(depth + 2, dtype=np.int64)
    ways = 1
    for _ in range(extra):
        ways = min(limit, ways * k)
    for d in range(1, depth + 1):
        ways = min(limit, ways * k)
        base[d + 1] = base[d] + _pow2_at_least(2 * ways + 2)
    return base


@kernel
def _region(base: I64, d: int) -> tuple[int, int]:
    """``(start, mask)`` of length ``d``'s region."""
    return base[d], base[d + 1] - base[d] - 1


@kernel
def mmc_general_loop(s: U8, k: int, b: int, depth: int, max_entries: int) -> tuple[int, int]:
    """MultiMMC (6.3.9) over symbols of ``b`` bits: contexts of 1..depth symbols.

    Each length admits at most ``max_entries`` (context, follower) pairs, in order of
    first appearance; a context is in the table once one of its pairs is. Step b's lookups
    are kept for the next step's step a, which counts the same contexts' follower. Each
    length has its own regions of the context and pair tables.
    """
    n = s.size
    cb = _regions(k, depth, min(n, max_entries), 0)
    pb = _regions(k, depth, min(n, max_entries), 1)
    cap = cb[depth + 1]
    klo = np.zeros(cap, dtype=np.uint64)
    khi = np.zeros(cap, dtype=np.uint64)
    kd = np.zeros(cap, dtype=np.uint8)
    cnt = np.zeros(cap, dtype=np.int32)  # the best follower's count; 0: free slot
    best_y = np.zeros(cap, dtype=np.int64)
    filt = np.zeros(max(1, _pow2_at_least(cap) // 8), dtype=np.uint64)  # 8 bits a slot, 2^m bits
    keys = (klo, khi, kd, filt)
    # Every context of d0 symbols seen so far, one bit each (2 MB at most, about 2n bytes).
    d0 = max(1, min(depth, min(24, _bit_length(n) + 4) // b))
    seen = np.zeros(((1 << (b * d0)) >> 6) + 1, dtype=np.uint64)
    pkey = np.zeros(pb[depth + 1], dtype=np.int64)  # at most max_entries pairs per length
    pcount = np.zeros(pb[depth + 1], dtype=np.int32)
    entries = np.zeros(depth + 1, dtype=np.int64)
    lo = np.zeros((2, depth + 1), dtype=np.uint64)
    hi = np.zeros((2, depth + 1), dtype=np.uint64)
    xs = np.zeros((2, depth + 1), dtype=np.uint64)
    slot = np.full((2, depth + 1), -1, dtype=np.int64)
    preds = np.full(depth + 1, -1, dtype=np.int64)
    scores = np.zeros(depth + 1, dtype=np.int64)
    winner = 1
    correct = 0
    run = 0
    longest = 0
    for t in range(n):
        now, was = t & 1, (t + 1) & 1  # this step's row, the last step's
        if t >= 2:
            y = int(s[t - 1])
            if t - 1 >= d0:
                _set_bit(seen, lo[was, d0])
            for d in range(1, min(depth, t - 1) + 1):
                i = slot[was, d]
                room = entries[d] < max_entries
                if i < 0:
                    if not room:
                        continue
                    i = _find_context(
                        keys, cnt, lo[was, d], hi[was, d], d, xs[was, d], *_region(cb, d)
                    )
                    klo[i] = lo[was, d]
                    khi[i] = hi[was, d]
                    kd[i] = d
                    _mark_in(filt, xs[was, d])
                c, new = _count_pair(pkey, pcount, i, y, room, *_region(pb, d))
                if new:
                    entries[d] += 1
                if c > cnt[i] or (c == cnt[i] and y > best_y[i]):
                    cnt[i] = c
                    best_y[i] = y
        top = _pack_contexts(s, t, depth, b, lo, hi, now)
        # A context of d0 symbols never seen has no longer context in the tables.
        known = top if top < d0 or _bit(seen, lo[now, d0]) else d0 - 1
        for d in range(1, depth + 1):
            slot[now, d] = -1
            preds[d] = -1
            if d <= top:
                xs[now, d] = _context_hash(lo[now, d], hi[now, d], d)
            if d <= known:
                i = _lookup(keys, cnt, lo[now, d], hi[now, d], d, xs[now, d], *_region(cb, d))
                slot[now, d] = i
                if i >= 0:
                    preds[d] = best_y[i]
        if t >= 2:
            x = int(s[t])
            if preds[winner] == x:
                correct += 1
                run += 1
                longest = max(longest, run)
            else:
                run = 0
            for d in range(1, depth + 1):  # step d, with no branch on the hit
                hit = preds[d] == x
                sc = scores[d] + np.int64(hit)
                scores[d] = sc
                take = hit & (sc >= scores[winner])
                winner = d if take else winner
    return correct, longest


@kernel
def _lz78y_steps(
    s: U8,
    b: int,
    depth: int,
    max_size: int,
    t0: int,
    keys: Keys,
    cnt: npt.NDArray[np.int32],
    best_y: I64,
    pkey: I64,
    pcount: npt.NDArray[np.int32],
    ctx: tuple[U64, U64, U64, I64],
    st: I64,
) -> int:
    """LZ78Y's steps from ``t0`` until the end or until the pair table needs to grow.

    Returns the next step. ``keys``: the context table's keys and filter; ``ctx``: the
    last two steps' contexts, hashes and slots; ``st``: dictionary size, pairs, correct,
    current and longest run (kept between calls).
    """
    klo, khi, kd, filt = keys
    lo, hi, xs, slot = ctx
    cmask = cnt.size - 1
    n = s.size
    size, pairs, correct, run, longest = st[0], st[1], st[2], st[3], st[4]
    t = t0
    while t < n and 2 * pairs <= pkey.size:
        now, was = t & 1, (t + 1) & 1  # this step's row, the last step's
        if t > depth:
            y = int(s[t - 1])
            for j in range(1, depth + 1):
                i = slot[was, j]
                if i < 0:
                    if size >= max_size:
                        continue
                    i = _find_context(keys, cnt, lo[was, j], hi[was, j], j, xs[was, j], 0, cmask)
                    klo[i] = lo[was, j]
                    khi[i] = hi[was, j]
                    kd[i] = j
                    _mark_in(filt, xs[was, j])
                    size += 1
                c, new = _count_pair(pkey, pcount, i, y, True, 0, pkey.size - 1)
                pairs += new
                if c > cnt[i] or (c == cnt[i] and y > best_y[i]):
                    cnt[i] = c
                    best_y[i] = y
        _pack_contexts(s, t, depth, b, lo, hi, now)
        best = 0
        pred = -1
        for j in range(depth, 0, -1):
            xs[now, j] = _context_hash(lo[now, j], hi[now, j], j)
            i = _lookup(keys, cnt, lo[now, j], hi[now, j], j, xs[now, j], 0, cmask)
            slot[now, j] = i
            if i >= 0 and cnt[i] > best:
                best = cnt[i]
                pred = best_y[i]
        if t > depth:
            if pred == int(s[t]):
                correct += 1
                run += 1
                longest = max(longest, run)
            else:
                run = 0
        t += 1
    st[0], st[1], st[2], st[3], st[4] = size, pairs, correct, run, longest
    return t


@kernel
def lz78y_general_loop(s: U8, b: int, depth: int, max_size: int) -> tuple[int, int]:
    """LZ78Y (6.3.10) over symbols of ``b`` bits: one dictionary of contexts of 1..depth.

    As NIST's tool does for larger alphabets, the cap counts contexts, added shortest
    first within a step, and every follower of an admitted context is counted. The
    prediction is the most frequent follower (ties to the larger symbol) of the context
    with the highest count, the longest context winning ties. The (context, follower)
    table has no bound but the data, so it starts small and doubles as it fills, between
    runs of :func:`_lz78y_steps` (arrays replaced inside the step loop would cost
    reference counting at every step).
    """
    n = s.size
    cap = _pow2_at_least(2 * min(max_size, n * depth) + 2)
    keys = (
        np.zeros(cap, dtype=np.uint64),
        np.zeros(cap, dtype=np.uint64),
        np.zeros(cap, dtype=np.uint8),
        np.zeros(max(1, cap // 8), dtype=np.uint64),
    )
    cnt = np.zeros(cap, dtype=np.int32)
    best_y = np.zeros(cap, dtype=np.int64)
    pkey = np.zeros(1 << 12, dtype=np.int64)
    pcount = np.zeros(1 << 12, dtype=np.int32)
    ctx = (
        np.zeros((2, depth + 1), dtype=np.uint64),
        np.zeros((2, depth + 1), dtype=np.uint64),
        np.zeros((2, depth + 1), dtype=np.uint64),
        np.full((2, depth + 1), -1, dtype=np.int64),
    )
    st = np.zeros(5, dtype=np.int64)
    t = depth
    while t < n:
        t = _lz78y_steps(s, b, depth, max_size, t, keys, cnt, best_y, pkey, pcount, ctx, st)
        if 2 * st[1] > pkey.size:
            pkey, pcount = _grown(pkey, pcount)
    return st[2], st[4]
