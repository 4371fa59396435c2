"""Multi most common in window (MultiMCW) prediction estimate (SP 800-90B 6.3.7).

Four sub-predictors guess the most common symbol of the last 63, 255, 1023 and 4095
symbols (ties go to the symbol seen most recently). For bits the windows are odd, so the
guess is a majority vote from running sums. For larger alphabets each block of steps gets
a table (symbol x step) of window counts and last positions; the largest
``count << 15 | last_position`` names the guess directly through its position.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.numerics import longest_run
from certification.sp800_90b.prediction import PredictionResult, prediction_estimate
from certification.sp800_90b.scoreboard import Scoreboard

WINDOWS = (63, 255, 1023, 4095)
_BLOCK = 1 << 16


def _binary_hits(s: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    n = int(s.size)
    w0 = WINDOWS[0]
    cs = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(s, out=cs[1:])
    steps = np.arange(w0, n)
    hits = np.zeros((len(WINDOWS), steps.size), dtype=bool)
    cur = s[w0:]
    for j, w in enumerate(WINDOWS):
        valid = steps >= w
        st = steps[valid]
        ones = cs[st] - cs[st - w]
        pred = (2 * ones > w).astype(np.uint8)
        hits[j, valid] = pred == cur[valid]
    return hits


def _general_hits(s: npt.NDArray[np.uint8], k: int) -> npt.NDArray[np.bool_]:
    n = int(s.size)
    w0 = WINDOWS[0]
    wmax = WINDOWS[-1]
    hits = np.zeros((len(WINDOWS), n - w0), dtype=bool)
    sym = s.astype(np.int64)
    alphabet = np.arange(k, dtype=np.uint8)[:, None]
    pos_bits = (_BLOCK + wmax + 2).bit_length()
    pos_mask = (1 << pos_bits) - 1
    for start in range(w0, n, _BLOCK):
        stop = min(n, start + _BLOCK)
        lo = max(0, start - wmax - 1)
        width = stop - lo
        onehot = s[None, lo:stop] == alphabet  # (k, width)
        # counts[:, c] = occurrences in s[lo .. lo+c-1]
        counts = np.zeros((k, width + 1), dtype=np.int32)
        np.cumsum(onehot, axis=1, dtype=np.int32, out=counts[:, 1:])
        # lastp[:, c] = 1 + last position < lo + c of each symbol, relative to lo (0: none)
        lastp = np.zeros((k, width + 1), dtype=np.int32)
        lastp[:, 1:] = np.where(onehot, np.arange(1, width + 1, dtype=np.int32)[None, :], 0)
        np.maximum.accumulate(lastp, axis=1, out=lastp)
        cur = sym[start:stop]
        for j, w in enumerate(WINDOWS):
            first = max(start, w)
            if first >= stop:
                continue
            a = first - lo  # column of row `first` (counts before position `first`)
            b = stop - lo
            win = counts[:, a:b] - counts[:, a - w : b - w]
            # Key: window count, then the last position (later wins ties). A symbol absent
            # from the window has count 0 and loses to every symbol present.
            win <<= pos_bits
            win += lastp[:, a:b]
            best = win.max(axis=0)
            pos = (best & pos_mask).astype(np.int64) - 1 + lo
            hits[j, first - w0 : stop - w0] = sym[pos] == cur[first - start :]
    return hits


def mcw_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The MultiMCW prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n <= WINDOWS[0] + 1:
        raise SampleDataError("not enough samples for the MultiMCW estimate")
    hits = _binary_hits(s) if k == 2 else _general_hits(s, k)
    board = Scoreboard(len(WINDOWS))
    for start in range(0, hits.shape[1], 1 << 16):
        board.feed(hits[:, start : start + (1 << 16)])
    correct = board.correct
    return prediction_estimate(
        "MultiMCW", int(correct.sum()), n - WINDOWS[0], longest_run(correct), k
    )
