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


def _first_entries(
    s: npt.NDArray[np.uint8],
    ids: list[npt.NDArray[np.int64]],
    ids16: npt.NDArray[np.uint16],
    unique_from: int,
    binary: bool,
    n: int,
    prefix: int,
) -> tuple[list[npt.NDArray[np.int64]], dict[int, npt.NDArray[np.int64]]]:
    """Insertion codes of the dictionary entries first seen in positions B..B+prefix-1.

    Code = first position * (B+1) + tie, the tie ordering context lengths within a step
    (longest first for bit strings, shortest first otherwise). For bit strings also the
    first position of every (context, follower) pair of each length (-1: not seen).
    """
    span = slice(B, B + prefix)
    pos = np.arange(B, B + prefix, dtype=np.int64)
    firsts: list[npt.NDArray[np.int64]] = []
    pair_first: dict[int, npt.NDArray[np.int64]] = {}
    for j in range(1, B + 1):
        tie = (B - j) if binary else j
        if j > unique_from:
            # Every context (hence every pair) is new at its position.
            firsts.append((pos * (B + 1) + tie)[:MAX_DICTIONARY_SIZE])
            continue
        if binary:
            # Distinct (context, follower) pairs by first position; ids are < 2^(j+1).
            ctx = (ids16[span] & np.uint16((1 << j) - 1)).astype(np.int32)
            pair = ctx * 2 + s[span]
            first = np.full(1 << (j + 1), -1, dtype=np.int64)
            first[pair[::-1]] = pos[::-1]  # last write wins: the earliest position
            pair_first[j] = first
            code = first[first >= 0] * (B + 1) + tie
        else:
            _, idx = np.unique(ids[j - 1][span], return_index=True)
            code = (idx.astype(np.int64) + B) * (B + 1) + tie
        firsts.append(np.sort(code)[:MAX_DICTIONARY_SIZE])
    return firsts, pair_first


def lz78y_estimate(s: npt.NDArray[np.uint8], k: int) -> PredictionResult:
    """The LZ78Y prediction estimate over symbols ``s`` (alphabet size ``k``)."""
    n = int(s.size)
    if n < B + 2:
        raise SampleDataError(f"not enough samples for the LZ78Y estimate (need more than {B + 2})")
    binary = k == 2
    ids16 = binary_context_ids(s, B) if binary else np.zeros(0, dtype=np.uint16)
    ids: list[npt.NDArray[np.int64]] = []
    unique_from = B + 1
    if not binary:
        ids, unique_from = context_ids(s, k, B)
    # Dictionary admission: entries in insertion order (position, then context length);
    # only the first MAX_DICTIONARY_SIZE matter, so a prefix of the data usually decides.
    span_len = n - 1 - B
    prefix = min(span_len, 1 << 20)
    while True:
        firsts, pair_first = _first_entries(s, ids, ids16, unique_from, binary, n, prefix)
        allf = np.concatenate(firsts)
        if allf.size > MAX_DICTIONARY_SIZE or prefix == span_len:
            break
        prefix = span_len
    if allf.size > MAX_DICTIONARY_SIZE:
        limit = int(np.partition(allf, MAX_DICTIONARY_SIZE - 1)[MAX_DICTIONARY_SIZE - 1])
    else:
        limit = int(np.iinfo(np.int64).max)
    # Best (count, prediction) so far per position, packed as count << shift | symbol.
    shift = 1 if binary else 8
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
            level_key[:] = 0
            level_key[blev.order] = (bcnt << 1) | bpred
            np.copyto(best, level_key, where=(level_key >> 1) > (best >> 1))
            continue
        else:
            lev = build_level(ids[j - 1], s, k, j, B, n)
            admitted = context_first_positions(lev) * (B + 1) + tie_codes[j] <= limit
            pred, cnt = running_prediction(lev, k, admitted)
            pos = lev.order
        level_key[:] = 0
        level_key[pos] = (cnt << shift) | np.maximum(pred, 0)
        np.copyto(best, level_key, where=(level_key >> shift) > (best >> shift))
    steps = slice(B + 1, n)
    mask = (1 << shift) - 1
    correct = ((best[steps] >> shift) > 0) & ((best[steps] & mask) == s[steps])
    return prediction_estimate("LZ78Y", int(correct.sum()), n - B - 1, longest_run(correct), k)
