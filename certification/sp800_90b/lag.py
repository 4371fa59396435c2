"""Lag prediction estimate (SP 800-90B 6.3.8).

128 sub-predictors; sub-predictor ``d`` guesses that the next symbol repeats the one
``d`` places back, and the scoreboard picks whose guess is used. One compiled pass over
the samples (:func:`predictor_loops.lag_loop`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.prediction import PredictionResult, prediction_estimate
from certification.sp800_90b.predictor_loops import LAGS, lag_loop

D_LAG = LAGS


def lag_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The lag prediction estimate over symbols ``s`` from an alphabet of size ``k``."""
    n = int(s.size)
    correct, longest = lag_loop(np.ascontiguousarray(s))
    return prediction_estimate("Lag", int(correct), n - 1, int(longest), k)
