"""LZ78Y prediction estimate (SP 800-90B 6.3.10).

One dictionary of (context, follower) counts for every context length 1..16, capped at
65,536 entries in total. The prediction is the most frequent follower of the context with
the highest count, the longest context winning ties. Per-length predictions come from
:mod:`contexts`.

The cap follows NIST's tool: for bit strings it counts (context, follower) entries added
longest context first within a step; for larger alphabets it counts contexts added
shortest first, and a follower seen after an admitted context is always counted. (Both
readings give the same result on bit strings of the reference data; on 8-bit data only the
second reproduces the tool.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.contexts import ContextLevel, build_level, context_ids, predictions
from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.numerics import longest_run
from certification.sp800_90b.prediction import PredictionResult, prediction_estimate

B = 16
MAX_DICTIONARY_SIZE = 65_536


def _entry_first(
    lev: ContextLevel, binary: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(codes of distinct entries, code per sorted element) ordering dictionary insertion."""
    tie = (B - lev.d) if binary else lev.d
    if binary:
        per_elem = lev.pair_first
        distinct = lev.pair_first[lev.pair_count == 1]
    else:
        gid = np.cumsum(lev.group_start) - 1
        distinct = lev.order[lev.group_start]
        per_elem = distinct[gid]
    return distinct * (B + 1) + tie, per_elem * (B + 1) + tie


def lz78y_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The LZ78Y prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n < B + 2:
        raise SampleDataError(f"not enough samples for the LZ78Y estimate (need more than {B + 2})")
    binary = k == 2
    ids = context_ids(s, k, B)
    firsts = []
    for j in range(1, B + 1):
        lev = build_level(ids[j - 1], s, k, j, B, n - 1)
        distinct, _ = _entry_first(lev, binary)
        firsts.append(np.sort(distinct)[:MAX_DICTIONARY_SIZE])
    allf = np.concatenate(firsts)
    if allf.size > MAX_DICTIONARY_SIZE:
        limit = int(np.partition(allf, MAX_DICTIONARY_SIZE - 1)[MAX_DICTIONARY_SIZE - 1])
    else:
        limit = int(np.iinfo(np.int64).max)
    best_cnt = np.zeros(n, dtype=np.int32)
    best_pred = np.full(n, -1, dtype=np.int16)
    for j in range(B, 0, -1):  # longest context first: ties keep the longer context
        lev = build_level(ids[j - 1], s, k, j, B, n - 1)
        _, per_elem = _entry_first(lev, binary)
        pred, cnt = predictions(lev, s, k, per_elem <= limit, n)
        better = cnt > best_cnt
        best_cnt[better] = cnt[better]
        best_pred[better] = pred[better]
        del lev, pred, cnt, better
    steps = slice(B + 1, n)
    correct = (best_cnt[steps] > 0) & (best_pred[steps] == s[steps])
    return prediction_estimate("LZ78Y", int(correct.sum()), n - B - 1, longest_run(correct), k)
