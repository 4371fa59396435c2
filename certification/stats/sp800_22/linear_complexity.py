"""Linear complexity (SP 800-22 2.10): Berlekamp-Massey on N blocks of M = 500 bits.

Berlekamp-Massey runs on all blocks at once. Each block's connection polynomial C, the
shifted previous polynomial D = B(x) x^(N-m) and the register of the last bits read are
bit-packed into 64-bit words, stored word-major (word, block) so each step touches only
the words that can be non-zero yet. The discrepancy is the parity of C & register. The
T statistic, class bounds and probabilities are sts-2.1.2's.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from certification.errors import ParameterError
from certification.stats.sp800_22.result import TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import igamc

PI = (0.01047, 0.03125, 0.12500, 0.50000, 0.25000, 0.06250, 0.020833)
_ONE = np.uint64(1)
_TOP = np.uint64(63)
_ZERO = np.uint64(0)


def _shift_up(words: NDArray[np.uint64]) -> None:
    """Multiply every polynomial by x (shift left by one bit across the words), in place."""
    if words.shape[0] > 1:
        carry = words[:-1] >> _TOP
        words <<= _ONE
        words[1:] |= carry
    else:
        words <<= _ONE


def linear_complexities(blocks: NDArray[np.uint8]) -> NDArray[np.int64]:
    """The linear complexity of each row of a (count, M) 0/1 array.

    The width in words touched at each step is bounded by max(L_max, step + 2 - L_min),
    refreshed every 16 steps (L never decreases, and a length change sets
    L = step + 1 - L_old <= step + 1 - L_min).
    """
    count, m_len = blocks.shape
    n_words = (m_len + 64) // 64 + 1
    c = np.zeros((n_words, count), dtype=np.uint64)
    c[0] = 1
    d = np.zeros((n_words, count), dtype=np.uint64)
    d[0] = 2  # B = 1 and m = -1: at step 0, B x^(0 - (-1)) = x
    reg = np.zeros((n_words, count), dtype=np.uint64)
    lin = np.zeros(count, dtype=np.int64)
    columns = np.ascontiguousarray(blocks.T).astype(np.uint64)
    l_max = l_min = 0
    one = np.uint8(1)
    for step in range(m_len):
        if step % 16 == 0:
            l_max, l_min = int(lin.max()), int(lin.min())
        k = min(n_words, max(l_max, step + 2 - l_min) // 64 + 1)
        r, cc, dd = reg[:k], c[:k], d[:k]
        _shift_up(r)
        r[0] |= columns[step]
        x = np.bitwise_xor.reduce(cc & r, axis=0) if k > 1 else cc[0] & r[0]
        disc = np.bitwise_count(x) & one
        if not disc.any():
            _shift_up(dd)
            continue
        dmask = np.subtract(_ZERO, disc, dtype=np.uint64)  # all ones where d = 1
        cmask = dmask * (lin <= step // 2)  # ... and where the length changes
        lin = np.where(cmask != 0, step + 1 - lin, lin)
        t = cc ^ dd
        cc ^= dd & dmask  # C <- C + B x^(N - m)
        dd ^= t & cmask  # B <- old C where the length changed
        _shift_up(dd)
    return lin


def linear_complexity(bits: Bits | Sequence, block_length: int = 500) -> TestOutcome:
    seq = as_sequence(bits)
    m = block_length
    if not 2 <= m <= 100_000:
        raise ParameterError(f"linear complexity block length must be 2..100000, got {m}")
    n_blocks = seq.n // m
    if n_blocks == 0:
        return single("LinearComplexity", None, note=f"n = {seq.n} is shorter than M = {m}")
    lin = linear_complexities(seq.bits[: n_blocks * m].reshape(n_blocks, m))
    sign = -1 if (m + 1) % 2 == 0 else 1
    mean = m / 2.0 + (9.0 + sign) / 36.0 - 1.0 / 2.0**m * (m / 3.0 + 2.0 / 9.0)
    sign = 1 if m % 2 == 0 else -1
    t = sign * (lin - mean) + 2.0 / 9.0
    cls = np.where(
        t <= -2.5,
        0,
        np.where(
            t <= -1.5,
            1,
            np.where(
                t <= -0.5, 2, np.where(t <= 0.5, 3, np.where(t <= 1.5, 4, np.where(t <= 2.5, 5, 6)))
            ),
        ),
    )
    nu = np.bincount(cls, minlength=7).astype(np.float64)
    expected = n_blocks * np.asarray(PI)
    chi2 = float((((nu - expected) ** 2) / expected).sum())
    return single(
        "LinearComplexity",
        igamc(3.0, chi2 / 2.0),
        chi2=chi2,
        nu=nu.astype(int).tolist(),
        N=n_blocks,
    )
