"""Lag prediction estimate (SP 800-90B 6.3.8).

128 sub-predictors; sub-predictor ``d`` guesses that the next symbol repeats the one
``d+1`` places back. Hits are ``S[i] == S[i-d-1]``, built for blocks of steps as one
comparison per lag over contiguous memory, then run through the scoreboard.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.numerics import longest_run
from certification.sp800_90b.prediction import PredictionResult, prediction_estimate
from certification.sp800_90b.scoreboard import Scoreboard

D_LAG = 128
_BLOCK = 1 << 15


def lag_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The lag prediction estimate over symbols ``s`` from an alphabet of size ``k``."""
    n = int(s.size)
    padded = np.full(n + D_LAG, -1, dtype=np.int16)
    padded[D_LAG:] = s
    board = Scoreboard(D_LAG)
    hits = np.empty((D_LAG, _BLOCK), dtype=bool)
    for start in range(1, n, _BLOCK):
        stop = min(n, start + _BLOCK)
        t_len = stop - start
        cur = padded[D_LAG + start : D_LAG + stop]
        for d in range(D_LAG):
            lo = D_LAG + start - d - 1
            np.equal(padded[lo : lo + t_len], cur, out=hits[d, :t_len])
        board.feed(hits[:, :t_len])
    correct = board.correct
    return prediction_estimate("Lag", int(correct.sum()), n - 1, longest_run(correct), k)
