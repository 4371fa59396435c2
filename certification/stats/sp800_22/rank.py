"""Binary matrix rank (SP 800-22 2.5): 32x32 matrices, ranks 32, 31 and below.

The rank is computed with sts-2.1.2's own elimination, not a textbook one: forward
elimination pivots on the diagonal element only (a column without a pivot leaves its
row in place) and adds the pivot row to the columns from the diagonal on; backward
elimination then works up from the last row; the "rank" is the number of non-zero
rows left. For rare matrices this differs from the true GF(2) rank, and the tool's
p-values depend on it, so it is reproduced here, vectorised over all matrices with
each row held as a 32-bit word (bit j = column j).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from certification.stats.sp800_22.result import TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence

M = Q = 32


def _probabilities() -> tuple[float, float, float]:
    def p_rank(r: int) -> float:
        product = 1.0
        for i in range(r):
            product *= ((1.0 - 2.0 ** (i - 32)) * (1.0 - 2.0 ** (i - 32))) / (1.0 - 2.0 ** (i - r))
        return float(2.0 ** (r * (32 + 32 - r) - 32 * 32) * product)

    p32, p31 = p_rank(32), p_rank(31)
    return p32, p31, 1.0 - (p32 + p31)


def sts_ranks(rows: NDArray[np.uint32]) -> NDArray[np.int64]:
    """sts-2.1.2 ``computeRank`` for a stack of 32x32 matrices given as (count, 32) row words."""
    a = rows.astype(np.uint32, copy=True)
    count = a.shape[0]
    idx = np.arange(count)
    full = np.uint32(0xFFFFFFFF)
    m = min(M, Q)
    for i in range(m - 1):  # forward
        bit = np.uint32(1 << i)
        has = (a[:, i:] & bit) != 0  # rows i..M-1 with a one in column i
        need_swap = ~has[:, 0]
        candidates = has[:, 1:]
        found = candidates.any(axis=1) & need_swap
        if found.any():
            j = i + 1 + np.argmax(candidates[found], axis=1)
            sel = idx[found]
            tmp = a[sel, i].copy()
            a[sel, i] = a[sel, j]
            a[sel, j] = tmp
        pivot = (a[:, i] & bit) != 0
        keep = np.uint32((0xFFFFFFFF << i) & 0xFFFFFFFF)  # columns k >= i only
        prow = np.where(pivot, a[:, i] & keep, np.uint32(0))
        below = a[:, i + 1 :]
        hit = (below & bit) != 0
        below ^= np.where(hit, prow[:, None], np.uint32(0))
    for i in range(m - 1, 0, -1):  # backward
        bit = np.uint32(1 << i)
        above = (a[:, :i] & bit) != 0  # rows 0..i-1
        need_swap = (a[:, i] & bit) == 0
        found = above.any(axis=1) & need_swap
        if found.any():
            # search from row i-1 downwards to 0: the last row index with the bit set
            j = i - 1 - np.argmax(above[found][:, ::-1], axis=1)
            sel = idx[found]
            tmp = a[sel, i].copy()
            a[sel, i] = a[sel, j]
            a[sel, j] = tmp
        pivot = (a[:, i] & bit) != 0
        prow = np.where(pivot, a[:, i] & full, np.uint32(0))
        upper = a[:, :i]
        hit = (upper & bit) != 0
        upper ^= np.where(hit, prow[:, None], np.uint32(0))
    nonzero: NDArray[np.int64] = (a != 0).sum(axis=1).astype(np.int64)
    return nonzero


def matrices(bits: Bits, count: int) -> NDArray[np.uint32]:
    """Row words of ``count`` consecutive 32x32 matrices, row-major, bit j = column j."""
    block = bits[: count * M * Q].reshape(count, M, Q)
    weights = (np.uint32(1) << np.arange(Q, dtype=np.uint32)).astype(np.uint32)
    out: NDArray[np.uint32] = (block.astype(np.uint32) * weights).sum(axis=2, dtype=np.uint32)
    return out


def rank(bits: Bits | Sequence) -> TestOutcome:
    seq = as_sequence(bits)
    n_mat = seq.n // (M * Q)
    if n_mat == 0:
        return single("Rank", None, note=f"n = {seq.n} is shorter than one 32x32 matrix")
    ranks = sts_ranks(matrices(seq.bits, n_mat))
    f32 = int(np.count_nonzero(ranks == 32))
    f31 = int(np.count_nonzero(ranks == 31))
    f30 = n_mat - (f32 + f31)
    p32, p31, p30 = _probabilities()
    chi2 = (
        (f32 - n_mat * p32) ** 2 / (n_mat * p32)
        + (f31 - n_mat * p31) ** 2 / (n_mat * p31)
        + (f30 - n_mat * p30) ** 2 / (n_mat * p30)
    )
    return single("Rank", math.exp(-chi2 / 2.0), chi2=chi2, N=n_mat, F32=f32, F31=f31, F30=f30)
