"""Multi Markov model with counting (MultiMMC) prediction estimate (SP 800-90B 6.3.9).

Sixteen sub-predictors; sub-predictor ``d`` predicts the symbol that most often followed
the last ``d`` symbols (ties to the larger symbol), from a table capped at 100,000
(context, follower) entries per ``d``, admitted in order of first appearance. Predictions
for every position come from :mod:`contexts`; the winner is chosen by the scoreboard.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.contexts import (
    binary_context_ids,
    binary_prediction,
    build_binary_level,
    build_level,
    context_ids,
    pair_first_positions,
    running_prediction,
)
from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.numerics import longest_run
from certification.sp800_90b.prediction import PredictionResult, prediction_estimate
from certification.sp800_90b.scoreboard import Scoreboard

D_MMC = 16
MAX_ENTRIES = 100_000


def _binary_admission(
    ids16: npt.NDArray[np.uint16], s: npt.NDArray[np.uint8], d: int, n: int
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None:
    """(context, 0) / (context, 1) admitted to the order-``d`` table, or None if all are."""
    span_len = n - 1 - d  # pairs at positions d .. n-2 update the table
    prefix = min(span_len, 1 << 21)
    while True:
        span = slice(d, d + prefix)
        pair = (ids16[span] & np.uint16((1 << d) - 1)).astype(np.int32) * 2 + s[span]
        pos = np.arange(d, d + prefix, dtype=np.int64)
        first = np.full(1 << (d + 1), -1, dtype=np.int64)
        first[pair[::-1]] = pos[::-1]  # last write wins: the earliest position
        seen = first[first >= 0]
        if seen.size > MAX_ENTRIES or prefix == span_len:
            break
        prefix = span_len
    if seen.size <= MAX_ENTRIES:
        return None
    limit = np.partition(seen, MAX_ENTRIES - 1)[MAX_ENTRIES - 1]
    ok = (first >= 0) & (first <= limit)
    return ok[0::2], ok[1::2]


def mmc_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The MultiMMC prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n < 3:
        raise SampleDataError("not enough samples for the MultiMMC estimate")
    if k == 2:
        ids16 = binary_context_ids(s, D_MMC)
        ids: list[npt.NDArray[np.int64]] = []
        unique_from = D_MMC + 1
    else:
        ids, unique_from = context_ids(s, k, D_MMC)
    steps = n - 2  # predictions for positions 2..n-1
    hits = np.zeros((D_MMC, steps), dtype=bool)
    for d in range(1, D_MMC + 1):
        if d >= n or d > unique_from:
            break  # every context of this length is new: no prediction from here on
        if k == 2:
            # Below d = 16 there are at most 2^16 (context, follower) pairs: the cap of
            # 100,000 entries can only bind at d = 16.
            blevel = build_binary_level(ids16, s, d, d, n)
            admit = _binary_admission(ids16, s, d, n) if d == D_MMC else None
            if admit is None:
                bpred, bcnt = binary_prediction(blevel)
            else:
                bpred, bcnt = binary_prediction(blevel, admit[0], admit[1])
            bhit = (bcnt > 0) & (bpred == blevel.y)
            keep = blevel.order >= 2
            hits[d - 1, blevel.order[keep] - 2] = bhit[keep]
            continue
        level = build_level(ids[d - 1], s, k, d, d, n)
        admitted = None
        firsts = level.order[level.pair_count == 1]
        if firsts.size > MAX_ENTRIES:
            limit = np.partition(firsts, MAX_ENTRIES - 1)[MAX_ENTRIES - 1]
            admitted = pair_first_positions(level, k) <= limit
        pred, _ = running_prediction(level, k, admitted)
        hit = pred == level.y
        keep = level.order >= 2
        hits[d - 1, level.order[keep] - 2] = hit[keep]
    board = Scoreboard(D_MMC)
    for start in range(0, steps, 1 << 16):
        board.feed(hits[:, start : start + (1 << 16)])
    correct = board.correct
    return prediction_estimate("MultiMMC", int(correct.sum()), steps, longest_run(correct), k)
