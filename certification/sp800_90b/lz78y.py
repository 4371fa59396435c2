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

from certification.sp800_90b.contexts import (
    binary_context_ids,
    binary_prediction,
    build_binary_level,
    build_level,
    context_first_positions,
    context_ids,
    running_prediction,
)
from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.numerics import longest_run
from certification.sp800_90b.prediction import PredictionResult, prediction_estimate

B = 16
MAX_DICTIONARY_SIZE = 65_536


def lz78y_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The LZ78Y prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n < B + 2:
        raise SampleDataError(f"not enough samples for the LZ78Y estimate (need more than {B + 2})")
    binary = k == 2
    if binary:
        ids16 = binary_context_ids(s, B)
        ids: list[npt.NDArray[np.int64]] = []
        unique_from = B + 1
    else:
        ids, unique_from = context_ids(s, k, B)
    firsts = []
    pair_first: dict[int, npt.NDArray[np.int64]] = {}
    span = slice(B, n - 1)  # pairs (context, s[t]) for t = B .. n-2 update the dictionary
    pos = np.arange(B, n - 1, dtype=np.int64)
    for j in range(1, B + 1):
        if j > unique_from:
            # Every context (hence every pair) is new at its position.
            code = pos * (B + 1) + ((B - j) if binary else j)
            firsts.append(code[:MAX_DICTIONARY_SIZE])
            continue
        if binary:
            # Distinct (context, follower) pairs by first position; ids are < 2^(j+1).
            ctx16 = (ids16[span] & np.uint16((1 << j) - 1)).astype(np.int64)
            pair = ctx16 * 2 + s[span]
            first = np.full(1 << (j + 1), -1, dtype=np.int64)
            first[pair[::-1]] = pos[::-1]  # last write wins: the earliest position
            pair_first[j] = first
            distinct = first[first >= 0]
            code = distinct * (B + 1) + (B - j)
        else:
            _, idx = np.unique(ids[j - 1][span], return_index=True)
            code = (idx.astype(np.int64) + B) * (B + 1) + j
        firsts.append(np.sort(code)[:MAX_DICTIONARY_SIZE])
    allf = np.concatenate(firsts)
    if allf.size > MAX_DICTIONARY_SIZE:
        limit = int(np.partition(allf, MAX_DICTIONARY_SIZE - 1)[MAX_DICTIONARY_SIZE - 1])
    else:
        limit = int(np.iinfo(np.int64).max)
    # Best (count, prediction) so far per position, packed as count * 256 + symbol.
    best = np.zeros(n, dtype=np.int64)
    level_key = np.zeros(n, dtype=np.int64)
    tie_codes = {j: (B - j) if binary else j for j in range(1, B + 1)}
    for j in range(min(B, unique_from), 0, -1):  # longest first: ties keep the longer one
        # Positions B..n-1: every prediction; the last pair is never used by a later one.
        if binary:
            blev = build_binary_level(ids16, s, j, B, n)
            ok = (pair_first[j] >= 0) & (pair_first[j] * (B + 1) + tie_codes[j] <= limit)
            admit0, admit1 = ok[0::2], ok[1::2]
            bpred, bcnt = binary_prediction(blev, admit0, admit1)
            pred, cnt = bpred.astype(np.int64), bcnt.astype(np.int64)
            pos = blev.order
        else:
            lev = build_level(ids[j - 1], s, k, j, B, n)
            admitted = context_first_positions(lev) * (B + 1) + tie_codes[j] <= limit
            pred, cnt = running_prediction(lev, k, admitted)
            pos = lev.order
        level_key[:] = 0
        level_key[pos] = cnt * 256 + np.maximum(pred, 0)
        np.copyto(best, level_key, where=(level_key >> 8) > (best >> 8))
    steps = slice(B + 1, n)
    correct = ((best[steps] >> 8) > 0) & ((best[steps] & 255) == s[steps])
    return prediction_estimate("LZ78Y", int(correct.sum()), n - B - 1, longest_run(correct), k)
