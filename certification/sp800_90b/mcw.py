"""Multi most common in window (MultiMCW) prediction estimate (SP 800-90B 6.3.7).

Four sub-predictors guess the most common symbol of the last 63, 255, 1023 and 4095
symbols (ties go to the symbol seen most recently); the scoreboard picks whose guess is
used. One compiled pass over the samples (:func:`predictor_loops.mcw_loop`; for bits,
whose odd windows cannot tie, the majority of a running count: ``mcw_binary_loop``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.prediction import PredictionResult, prediction_estimate
from certification.sp800_90b.predictor_loops import mcw_binary_loop, mcw_loop

WINDOWS = (63, 255, 1023, 4095)


def mcw_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The MultiMCW prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n <= WINDOWS[0] + 1:
        raise SampleDataError("not enough samples for the MultiMCW estimate")
    data = np.ascontiguousarray(s)
    windows = np.array(WINDOWS, dtype=np.int64)
    if k == 2 and all(w % 2 for w in WINDOWS):  # odd windows: the majority bit, no tie
        correct, longest = mcw_binary_loop(data, windows)
    else:
        correct, longest = mcw_loop(data, k, windows)
    return prediction_estimate("MultiMCW", int(correct), n - WINDOWS[0], int(longest), k)
