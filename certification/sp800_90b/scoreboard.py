"""The predictor scoreboard shared by MultiMCW, Lag and MultiMMC (SP 800-90B 6.3.7-6.3.9).

Each step every sub-predictor that guessed right scores a point; the next prediction is
taken from the *winner*. NIST's tool updates the scores in sub-predictor order with
``score >= best`` so, after a step, the winner is the highest-numbered sub-predictor that
scored this step and now holds the top score, and it is unchanged when none did. Given
the hits of a block of steps (``hits[j, t]``: sub-predictor ``j`` predicted step ``t``
correctly; predictor-major so the running sums run along contiguous memory) that rule is
evaluated for the whole block at once.

Sub-predictors that cannot reach the top score within a block (their score plus all their
hits in the block is below the current top) cannot win or set the top there, so each block
is split into short slices and only the contenders of each slice are evaluated.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Bool2D = npt.NDArray[np.bool_]

_SLICE = 512


class Scoreboard:
    """Feeds blocks of hits through the scoreboard; collects the winner's correctness."""

    def __init__(self, predictors: int) -> None:
        self.scores = np.zeros(predictors, dtype=np.int64)
        self.winner = 0
        self._correct: list[npt.NDArray[np.bool_]] = []

    def _feed_exact(self, hits: Bool2D, rows: npt.NDArray[np.int64] | None) -> None:
        """Run a block over the sub-predictors ``rows`` (all when None)."""
        p_all, t_len = hits.shape
        sub = hits if rows is None else hits[rows]
        ids = np.arange(p_all) if rows is None else rows
        base = self.scores if rows is None else self.scores[rows]
        scores = np.cumsum(sub, axis=1, dtype=np.int32)
        scores += base[:, None].astype(np.int32)
        top = scores.max(axis=0)
        mask = sub & (scores == top[None, :])
        has = mask.any(axis=0)
        last = ids[(sub.shape[0] - 1) - np.argmax(mask[::-1], axis=0)]
        idx = np.where(has, np.arange(t_len), -1)
        np.maximum.accumulate(idx, out=idx)
        after = np.where(idx >= 0, last[np.maximum(idx, 0)], self.winner)
        before = np.empty(t_len, dtype=np.int64)
        before[0] = self.winner
        before[1:] = after[:-1]
        self._correct.append(hits[before, np.arange(t_len)])
        self.scores += hits.sum(axis=1, dtype=np.int64)
        self.winner = int(after[-1])

    def feed(self, hits: Bool2D) -> None:
        """Process consecutive steps; ``hits`` has one row per sub-predictor."""
        p, t_len = hits.shape
        if t_len == 0:
            return
        if p <= 16:
            self._feed_exact(hits, None)
            return
        for start in range(0, t_len, _SLICE):
            block = hits[:, start : start + _SLICE]
            gain = block.sum(axis=1, dtype=np.int64)
            top = int(self.scores.max())
            rows = np.flatnonzero(self.scores + gain >= top)
            if self.winner not in rows:
                rows = np.union1d(rows, [self.winner])
            self._feed_exact(block, rows if rows.size < p else None)

    @property
    def correct(self) -> npt.NDArray[np.bool_]:
        """Whether the winner's prediction was right, one flag per step."""
        if not self._correct:
            return np.zeros(0, dtype=bool)
        return np.concatenate(self._correct)
