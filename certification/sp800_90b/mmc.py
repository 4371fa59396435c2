"""Multi Markov model with counting (MultiMMC) prediction estimate (SP 800-90B 6.3.9).

Sixteen sub-predictors; sub-predictor ``d`` predicts the symbol that most often followed
the last ``d`` symbols (ties to the larger symbol), from a table capped at 100,000
(context, follower) entries per ``d``, admitted in order of first appearance; the
scoreboard picks whose prediction is used. One compiled pass over the samples: contexts
index the counts directly for bits (:mod:`predictor_loops`) and sit in hash tables for
larger alphabets (:mod:`context_tables`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.context_tables import mmc_general_loop
from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.prediction import PredictionResult, loop_input, prediction_estimate
from certification.sp800_90b.predictor_loops import mmc_binary_loop

D_MMC = 16
MAX_ENTRIES = 100_000


def mmc_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The MultiMMC prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n < 3:
        raise SampleDataError("not enough samples for the MultiMMC estimate")
    data, bits = loop_input("MultiMMC", s, k)
    if k == 2:
        correct, longest = mmc_binary_loop(data, D_MMC, MAX_ENTRIES)
    else:
        correct, longest = mmc_general_loop(data, k, bits, D_MMC, MAX_ENTRIES)
    return prediction_estimate("MultiMMC", int(correct), n - 2, int(longest), k)
