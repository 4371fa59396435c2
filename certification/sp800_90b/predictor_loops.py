"""The predictors' sample-by-sample loops (SP 800-90B 6.3.7-6.3.10), compiled by numba.

Each kernel walks the samples once, as the section's steps read, and returns
``(correct, longest_run)``: how many predictions of the chosen (sub-)predictor were right
and the longest run of right ones; :mod:`prediction` turns the pair into min-entropy.

The scoreboard (6.3.7-6.3.9 step d): sub-predictors are visited in order; one that
predicted the sample scores a point and becomes the winner when its score is at least the
winner's. The winner therefore always holds the top score, and after a step it is the
highest-numbered sub-predictor that scored and holds the new top score (unchanged when
none does); :func:`_best_scorer` uses that form, which vectorises.

All kernels live in this one module on purpose: numba's disk cache is keyed by the
calling function's source file, so a helper changed in another module would not
invalidate a kernel's cached machine code.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.jit import kernel

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


@kernel
def _tally(ok: bool, correct: int, run: int, longest: int) -> tuple[int, int, int]:
    """One prediction into the count of right ones, the current and the longest run."""
    if ok:
        correct += 1
        run += 1
        if run > longest:
            longest = run
    else:
        run = 0
    return correct, run, longest


@kernel
def mcw_loop(s: U8, k: int, windows: I64) -> tuple[int, int]:
    """MultiMCW (6.3.7): each window's most common symbol, ties to the most recent.

    Per window: counts and last positions of every symbol and the current mode. Adding
    the newest sample makes it the mode when its count reaches the mode's (it is the most
    recent); removing the oldest only changes the mode when it was the mode, and then the
    mode is found again by one scan of the alphabet.
    """
    n = s.size
    nw = windows.size
    w0 = windows[0]
    counts = np.zeros((nw, k), dtype=np.int64)
    last = np.zeros((nw, k), dtype=np.int64)
    mode = np.full(nw, -1, dtype=np.int64)
    top = np.zeros(nw, dtype=np.int64)
    scores = np.zeros(nw, dtype=np.int64)
    winner = 0
    correct = 0
    run = 0
    longest = 0
    for t in range(n):
        x = int(s[t])
        if t >= w0:
            correct, run, longest = _tally(mode[winner] == x, correct, run, longest)
            for j in range(nw):
                if t >= windows[j] and mode[j] == x:
                    scores[j] += 1
                    if scores[j] >= scores[winner]:
                        winner = j
        for j in range(nw):
            counts[j, x] += 1
            last[j, x] = t
            if counts[j, x] >= top[j]:
                mode[j] = x
                top[j] = counts[j, x]
            if t >= windows[j]:
                y = int(s[t - windows[j]])
                counts[j, y] -= 1
                if y == mode[j]:
                    best = -1
                    for v in range(k):
                        if counts[j, v] > 0:
                            key = counts[j, v] * (n + 1) + last[j, v]
                            if key > best:
                                best = key
                                mode[j] = v
                    top[j] = counts[j, mode[j]]
    return correct, longest


#: Lag's sub-predictors (6.3.8: D = 128); a constant, so the compiler unrolls its loops.
LAGS = 128


@kernel
def lag_loop(s: U8) -> tuple[int, int]:
    """Lag (6.3.8): sub-predictor ``d`` (1..LAGS) predicts the sample ``d`` places back.

    Scores are kept lag-reversed (``rev[LAGS - d]``) so that each step reads the history
    ``s[t-LAGS .. t-1]`` forwards (``hist`` is the samples after ``LAGS`` unused bytes),
    in two passes the compiler vectorises: add the hits, then find the scorer with the
    highest score and, among equals, the highest ``d`` (``key = score * LAGS + d - 1``).
    """
    n = s.size
    hist = np.zeros(n + LAGS, dtype=np.uint8)
    hist[LAGS:] = s
    rev = np.zeros(LAGS, dtype=np.int32)
    rank = np.arange(LAGS, 0, -1).astype(np.int32)  # d for rev[e]
    winner = LAGS - 1  # d = 1
    correct = 0
    run = 0
    longest = 0
    for t in range(1, n):
        x = s[t]
        correct, run, longest = _tally(hist[t + winner] == x, correct, run, longest)
        old_top = rev[winner]
        h = hist[t : t + LAGS]
        best = np.int32(-1)
        if t < LAGS:  # only lags up to t have a sample to repeat
            for e in range(LAGS - t, LAGS):
                hit = np.int32(h[e] == x)
                rev[e] += hit
                best = max(best, hit * (rev[e] * np.int32(LAGS) + rank[e]) - np.int32(1))
        else:
            for e in range(LAGS):
                rev[e] += np.int32(h[e] == x)
            for e in range(LAGS):
                hit = np.int32(h[e] == x)
                best = max(best, hit * (rev[e] * np.int32(LAGS) + rank[e]) - np.int32(1))
        if best >= 0 and best // LAGS >= old_top:
            winner = int(LAGS - 1 - best % LAGS)
    return correct, longest


@kernel
def _level_offsets(depth: int) -> I64:
    """Where each context length's (context, bit) counts start in one flat table.

    Length ``d`` has ``2^(d+1)`` entries (context ``c`` and follower ``y`` at
    ``2c + y``); entry ``depth + 1`` is the table's size.
    """
    off = np.zeros(depth + 2, dtype=np.int64)
    for d in range(1, depth + 1):
        off[d + 1] = off[d] + (np.int64(1) << (d + 1))
    return off


@kernel
def mmc_binary_loop(s: U8, depth: int, max_entries: int) -> tuple[int, int]:
    """MultiMMC (6.3.9) over bits: contexts of 1..depth bits (``depth <= 16``).

    ``h`` holds the bits before position ``t`` (bit ``i-1`` is ``s[t-i]``), so a context
    of ``d`` bits is ``h``'s low ``d`` bits and indexes the counts directly. Step a counts
    the previous context's follower (a new pair only while its length holds fewer than
    ``max_entries`` pairs); step b predicts the more frequent follower of each context
    (ties to 1; none when the context was never counted).
    """
    n = s.size
    off = _level_offsets(depth)
    counts = np.zeros(off[depth + 1], dtype=np.int32)
    entries = np.zeros(depth + 1, dtype=np.int64)
    preds = np.full(depth + 1, -1, dtype=np.int64)
    scores = np.zeros(depth + 1, dtype=np.int64)
    winner = 1
    correct = 0
    run = 0
    longest = 0
    h = 0
    hprev = 0
    for t in range(n):
        if t >= 2:
            y = int(s[t - 1])
            for d in range(1, min(depth, t - 1) + 1):
                idx = off[d] + ((hprev & ((1 << d) - 1)) << 1) + y
                if counts[idx] > 0:
                    counts[idx] += 1
                elif entries[d] < max_entries:
                    counts[idx] = 1
                    entries[d] += 1
            x = int(s[t])
            for d in range(1, depth + 1):
                base = off[d] + ((h & ((1 << d) - 1)) << 1)
                c0 = counts[base]
                c1 = counts[base + 1]
                preds[d] = -1 if c0 == 0 and c1 == 0 else (1 if c1 >= c0 else 0)
            correct, run, longest = _tally(preds[winner] == x, correct, run, longest)
            for d in range(1, depth + 1):
                if preds[d] == x:
                    scores[d] += 1
                    if scores[d] >= scores[winner]:
                        winner = d
        hprev = h
        h = ((h << 1) | int(s[t])) & 0xFFFF
    return correct, longest


@kernel
def lz78y_binary_loop(s: U8, depth: int, max_size: int) -> tuple[int, int]:
    """LZ78Y (6.3.10) over bits: contexts of 1..depth bits in one capped dictionary.

    As NIST's tool does for bit strings, the cap counts (context, bit) entries, added
    longest context first within a step; an entry left out is never counted. The
    prediction is the more frequent follower (ties to 1) of the context with the highest
    count, the longest context winning ties. Contexts index the counts as in
    :func:`mmc_binary_loop`.
    """
    n = s.size
    off = _level_offsets(depth)
    counts = np.zeros(off[depth + 1], dtype=np.int32)
    size = 0
    correct = 0
    run = 0
    longest = 0
    h = 0
    hprev = 0
    for t in range(n):
        if t > depth:
            y = int(s[t - 1])
            for j in range(depth, 0, -1):
                idx = off[j] + ((hprev & ((1 << j) - 1)) << 1) + y
                if counts[idx] > 0:
                    counts[idx] += 1
                elif size < max_size:
                    counts[idx] = 1
                    size += 1
            best = 0
            pred = -1
            for j in range(depth, 0, -1):
                base = off[j] + ((h & ((1 << j) - 1)) << 1)
                c0 = counts[base]
                c1 = counts[base + 1]
                c = max(c0, c1)
                if c > best:
                    best = c
                    pred = 1 if c1 >= c0 else 0
            correct, run, longest = _tally(pred == int(s[t]), correct, run, longest)
        hprev = h
        h = ((h << 1) | int(s[t])) & 0xFFFF
    return correct, longest


# Larger alphabets: contexts of up to 16 symbols of up to 8 bits, packed into two words
# (``lo``: the most recent ``64 // b`` symbols, ``hi``: the older ones) and kept in
# open-addressed tables; a context's entry holds its most frequent follower so far (ties
# to the larger symbol) and that follower's count, and the (context, follower) counts sit
# in a second table keyed by the context's slot.

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


@kernel
def _find_context(
    klo: npt.NDArray[np.uint64],
    khi: npt.NDArray[np.uint64],
    kd: npt.NDArray[np.uint8],
    cnt: npt.NDArray[np.int32],
    lo: np.uint64,
    hi: np.uint64,
    d: int,
    x: np.uint64,
    base: int,
    mask: int,
) -> int:
    """Slot of context ``(lo, hi)`` of length ``d`` (hash ``x``) in the region of
    ``mask + 1`` slots at ``base``, or the free slot where it would go (``cnt`` is 0 at
    free slots)."""
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
def _pow2_at_least(x: int) -> int:
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
    klo: npt.NDArray[np.uint64],
    khi: npt.NDArray[np.uint64],
    kd: npt.NDArray[np.uint8],
    cnt: npt.NDArray[np.int32],
    filt: npt.NDArray[np.uint64],
    lo: np.uint64,
    hi: np.uint64,
    d: int,
    x: np.uint64,
    base: int,
    mask: int,
) -> int:
    """Slot of a context in the table, -1 when it is not there."""
    if not _maybe_in(filt, x):
        return -1
    i = _find_context(klo, khi, kd, cnt, lo, hi, d, x, base, mask)
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
    filt = np.zeros(_pow2_at_least(cap) // 8, dtype=np.uint64)  # 8 bits a slot, 2^m bits
    # Every context of d0 symbols seen so far, one bit each (2 MB at most).
    d0 = max(1, min(depth, 24 // b))
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
                        klo, khi, kd, cnt, lo[was, d], hi[was, d], d, xs[was, d], *_region(cb, d)
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
                i = _lookup(
                    klo, khi, kd, cnt, filt, lo[now, d], hi[now, d], d, xs[now, d], *_region(cb, d)
                )
                slot[now, d] = i
                if i >= 0:
                    preds[d] = best_y[i]
        if t >= 2:
            x = int(s[t])
            correct, run, longest = _tally(preds[winner] == x, correct, run, longest)
            for d in range(1, depth + 1):
                if preds[d] == x:
                    scores[d] += 1
                    if scores[d] >= scores[winner]:
                        winner = d
    return correct, longest


@kernel
def _lz78y_steps(
    s: U8,
    b: int,
    depth: int,
    max_size: int,
    t0: int,
    keys: tuple[U64, U64, npt.NDArray[np.uint8], U64],
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
                    i = _find_context(
                        klo, khi, kd, cnt, lo[was, j], hi[was, j], j, xs[was, j], 0, cmask
                    )
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
            i = _lookup(klo, khi, kd, cnt, filt, lo[now, j], hi[now, j], j, xs[now, j], 0, cmask)
            slot[now, j] = i
            if i >= 0 and cnt[i] > best:
                best = cnt[i]
                pred = best_y[i]
        if t > depth:
            correct, run, longest = _tally(pred == int(s[t]), correct, run, longest)
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
        np.zeros(cap // 8, dtype=np.uint64),
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
