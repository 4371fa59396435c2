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


def _swap_in(a: NDArray[np.uint32], col: NDArray[np.uint32], i: int, below: bool) -> None:
    """sts's ``find_unit_element_and_swap``: where row i has no one in column i, swap in
    the nearest row below (forward) or above (backward, searching upwards) that has."""
    need = col[i] == 0
    if not need.any():
        return
    cand = col[i + 1 :, need] if below else col[:i, need][::-1]
    found = cand.any(axis=0)
    if not found.any():
        return
    lanes = np.flatnonzero(need)[found]
    first = np.argmax(cand[:, found], axis=0)
    j = i + 1 + first if below else i - 1 - first
    tmp = a[i, lanes]
    a[i, lanes] = a[j, lanes]
    a[j, lanes] = tmp
    col[i, lanes] = 1
    col[j, lanes] = 0


def sts_ranks(rows: NDArray[np.uint32]) -> NDArray[np.int64]:
    """sts-2.1.2 ``computeRank`` for a stack of 32x32 matrices given as (count, 32) row words.

    Held row-major as (32, count): row r of every matrix is one contiguous vector, and
    column i of rows k.. is the 0/1 array ``(a[k:] >> i) & 1``, which also serves as the
    multiplier selecting the rows to eliminate (no boolean masks, no per-matrix gathers
    but for the swaps): 3.6 ms for the 976 matrices of 10^6 bits, against 8.5 ms.
    """
    a = np.ascontiguousarray(rows.T, dtype=np.uint32)  # (row, matrix)
    one = np.uint32(1)
    for i in range(M - 1):  # forward: pivot on the diagonal, eliminate below
        rows_on = a[i:]  # a view: rows i.., renumbered from 0
        col = (rows_on >> np.uint32(i)) & one
        _swap_in(rows_on, col, 0, below=True)
        keep = np.uint32((0xFFFFFFFF << i) & 0xFFFFFFFF)  # the tool adds columns k >= i only
        rows_on[1:] ^= ((rows_on[0] & keep) * col[0]) * col[1:]
    for i in range(M - 1, 0, -1):  # backward: from the last row up, eliminate above
        col = (a[: i + 1] >> np.uint32(i)) & one
        _swap_in(a, col, i, below=False)
        a[:i] ^= (a[i] * col[i]) * col[:i]
    nonzero: NDArray[np.int64] = (a != 0).sum(axis=0).astype(np.int64)
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
