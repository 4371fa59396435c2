"""Multi Markov model with counting (MultiMMC) prediction estimate (SP 800-90B 6.3.9).

Sixteen sub-predictors; sub-predictor ``d`` predicts the symbol that most often followed
the last ``d`` symbols (ties to the larger symbol), from a table capped at 100,000
(context, follower) entries per ``d``. Predictions for every position come from
:mod:`contexts`; the winner is chosen by the shared scoreboard.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.contexts import build_level, context_ids, predictions
from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.numerics import longest_run
from certification.sp800_90b.prediction import PredictionResult, prediction_estimate
from certification.sp800_90b.scoreboard import Scoreboard

D_MMC = 16
MAX_ENTRIES = 100_000


def admitted_by_first_seen(
    pair_first: npt.NDArray[np.int64], pair_count: npt.NDArray[np.int64], cap: int
) -> npt.NDArray[np.bool_]:
    """Pairs admitted to a table capped at ``cap`` entries, in order of first appearance."""
    firsts = pair_first[pair_count == 1]
    if firsts.size <= cap:
        return np.ones(pair_first.size, dtype=bool)
    limit = np.partition(firsts, cap - 1)[cap - 1]
    return np.asarray(pair_first <= limit, dtype=bool)


def mmc_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The MultiMMC prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n < 3:
        raise SampleDataError("not enough samples for the MultiMMC estimate")
    ids = context_ids(s, k, D_MMC)
    steps = n - 2  # predictions for positions 2..n-1
    hits = np.zeros((D_MMC, steps), dtype=bool)
    cur = s[2:].astype(np.int64)
    for d in range(1, D_MMC + 1):
        if d >= n:
            break
        level = build_level(ids[d - 1], s, k, d, d, n)
        adm = admitted_by_first_seen(level.pair_first, level.pair_count, MAX_ENTRIES)
        pred, cnt = predictions(level, s, k, adm, n)
        hits[d - 1] = (cnt[2:] > 0) & (pred[2:] == cur)
    board = Scoreboard(D_MMC)
    for start in range(0, steps, 1 << 16):
        board.feed(hits[:, start : start + (1 << 16)])
    correct = board.correct
    return prediction_estimate("MultiMMC", int(correct.sum()), steps, longest_run(correct), k)
