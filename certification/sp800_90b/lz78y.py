"""LZ78Y prediction estimate (SP 800-90B 6.3.10).

One dictionary of (context, follower) counts for every context length 1..16, capped at
65,536 entries in total. The prediction is the most frequent follower of the context with
the highest count, the longest context winning ties. One compiled pass over the samples
(:mod:`predictor_loops` for bits, :mod:`context_tables` for larger alphabets).

The cap follows NIST's tool: for bit strings it counts (context, follower) entries added
longest context first within a step; for larger alphabets it counts contexts added
shortest first, and a follower seen after an admitted context is always counted. (Both
readings give the same result on bit strings of the reference data; on 8-bit data only the
second reproduces the tool.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.context_tables import lz78y_general_loop
from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.prediction import PredictionResult, loop_input, prediction_estimate
from certification.sp800_90b.predictor_loops import lz78y_binary_loop

B = 16
MAX_DICTIONARY_SIZE = 65_536


def lz78y_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The LZ78Y prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n < B + 2:
        raise SampleDataError(f"not enough samples for the LZ78Y estimate (need more than {B + 2})")
    data, bits = loop_input("LZ78Y", s, k)
    if k == 2:
        correct, longest = lz78y_binary_loop(data, B, MAX_DICTIONARY_SIZE)
    else:
        correct, longest = lz78y_general_loop(data, bits, B, MAX_DICTIONARY_SIZE)
    return prediction_estimate("LZ78Y", int(correct), n - B - 1, int(longest), k)
