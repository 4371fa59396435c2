"""The predictors' sample-by-sample loops (SP 800-90B 6.3.7-6.3.10), compiled by numba.

Each kernel walks the samples once, as the section's steps read, and returns
``(correct, longest_run)``: how many predictions of the chosen (sub-)predictor were right
and the longest run of right ones; :mod:`prediction` turns the pair into min-entropy.

The scoreboard (6.3.7-6.3.9 step d): sub-predictors are visited in order; one that
predicted the sample scores a point and becomes the winner when its score is at least the
winner's. The winner therefore always holds the top score, and after a step it is the
highest-numbered sub-predictor that scored and holds the new top score (unchanged when
none does); :func:`lag_loop` uses that form, which vectorises.

Kernels here call only helpers of this module, on purpose: numba's disk cache is keyed by
the calling function's source file, so a helper changed in another module would not
invalidate a kernel's cached machine code (the larger-alphabet tables are the
self-contained :mod:`context_tables`).
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
def _score(scores: I64, winner: int, d: int, hit: bool) -> int:
    """Step d for sub-predictor ``d``: a hit scores, and wins at the winner's score or more.

    Written without branches on the hit (a random bit for good data: mispredicted
    branches were most of the predictors' time).
    """
    sc = scores[d] + np.int64(hit)
    scores[d] = sc
    take = hit & (sc >= scores[winner])  # & and not `and`: no short-circuit branch
    return d if take else winner


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
                winner = _score(scores, winner, j, (t >= windows[j]) & (mode[j] == x))
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


@kernel
def mcw_binary_loop(s: U8, windows: I64) -> tuple[int, int]:
    """MultiMCW (6.3.7) over bits with odd windows: each window's majority bit.

    An odd window has no tie, so its most common bit is the majority of a running count
    of ones; the scoreboard is :func:`mcw_loop`'s.
    """
    n = s.size
    nw = windows.size
    w0 = windows[0]
    ones = np.zeros(nw, dtype=np.int64)
    scores = np.zeros(nw, dtype=np.int64)
    winner = 0
    correct = 0
    run = 0
    longest = 0
    for t in range(n):
        x = int(s[t])
        if t >= w0:
            guess = 2 * ones[winner] > windows[winner]
            correct, run, longest = _tally(guess == x, correct, run, longest)
            for j in range(nw):
                hit = (t >= windows[j]) & ((2 * ones[j] > windows[j]) == x)
                winner = _score(scores, winner, j, hit)
        for j in range(nw):
            ones[j] += x
            if t >= windows[j]:
                ones[j] -= s[t - windows[j]]
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
    rev = np.zeros(LAGS, dtype=np.int64)  # int64: score * LAGS must not overflow
    rank = np.arange(LAGS, 0, -1).astype(np.int64)  # d for rev[e]
    winner = LAGS - 1  # d = 1
    correct = 0
    run = 0
    longest = 0
    for t in range(1, n):
        x = s[t]
        correct, run, longest = _tally(hist[t + winner] == x, correct, run, longest)
        old_top = rev[winner]
        h = hist[t : t + LAGS]
        best = -1
        if t < LAGS:  # only lags up to t have a sample to repeat
            for e in range(LAGS - t, LAGS):
                hit = np.int64(h[e] == x)
                rev[e] += hit
                best = max(best, hit * (rev[e] * LAGS + rank[e]) - 1)
        else:
            for e in range(LAGS):
                rev[e] += np.int64(h[e] == x)
            for e in range(LAGS):
                hit = np.int64(h[e] == x)
                best = max(best, hit * (rev[e] * LAGS + rank[e]) - 1)
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
                preds[d] = -1 if (c0 | c1) == 0 else np.int64(c1 >= c0)
            correct, run, longest = _tally(preds[winner] == x, correct, run, longest)
            for d in range(1, depth + 1):
                winner = _score(scores, winner, d, preds[d] == x)
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
                better = c > best  # no branch: which count is larger is a random bit
                pred = int(c1 >= c0) if better else pred
                best = c if better else best
            correct, run, longest = _tally(pred == int(s[t]), correct, run, longest)
        hprev = h
        h = ((h << 1) | int(s[t])) & 0xFFFF
    return correct, longest
