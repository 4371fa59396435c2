"""Linear complexity (SP 800-22 2.10): Berlekamp-Massey on N blocks of M = 500 bits.

Berlekamp-Massey runs on all blocks at once, in one of two layouts:

* bit-sliced (64 blocks or more): coefficient i of every block's connection polynomial
  C is one row of words, bit b of word w belonging to block 64 w + b; so are the
  coefficients of D = B(x) x^(N-m) and the block bits. The discrepancy is the XOR over
  i of C_i & s_(N-i), the bits read backwards being a view of the reversed bit rows,
  and the step's multiplication of D by x is a move of D's base row in a larger buffer:
  no shifts at all, and each update is one word operation for 64 blocks. Only the
  lengths L are per-block integers. 2,000 blocks of 500 bits: 10.5 ms, against 15.4 ms
  in the layout below.
* packed (fewer blocks): each block's C, D and register of the last bits read are
  bit-packed into 64-bit words, stored word-major (word, block); the discrepancy is the
  parity of C & register.

Both touch at each step only the coefficients that can be non-zero yet. The T
statistic, class bounds and probabilities are sts-2.1.2's.
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
    """The linear complexity of each row of a (count, M) 0/1 array."""
    if blocks.shape[0] >= 64:
        return sliced_linear_complexities(blocks)
    return packed_linear_complexities(blocks)


def _bounds(lin: NDArray[np.int64] | NDArray[np.int32], count: int) -> tuple[int, int]:
    return int(lin[:count].max()), int(lin[:count].min())


def sliced_linear_complexities(blocks: NDArray[np.uint8]) -> NDArray[np.int64]:
    """Berlekamp-Massey bit-sliced over the blocks (see the module docstring).

    Rows touched at step N: max(L_max, N + 2 - L_min) + 1, with L_max, L_min refreshed
    every 16 steps (deg C <= L, deg D <= N + 2 - L after the step, L never decreases and
    a length change sets L = N + 1 - L_old <= N + 1 - L_min).
    """
    count, m_len = blocks.shape
    width = -(-count // 64)
    n_rows = m_len + 2
    planes = np.zeros((m_len, width * 8), dtype=np.uint8)
    planes[:, : -(-count // 8)] = np.packbits(
        np.ascontiguousarray(blocks.T), axis=1, bitorder="little"
    )
    rev = np.zeros((m_len + n_rows, width), dtype=np.uint64)
    rev[:m_len] = planes.view("<u8")[::-1]  # rev[M - 1 - N + i] = s_(N-i) of every block
    lanes = np.zeros(width * 64, dtype=np.uint8)
    lanes[:count] = 1
    every = np.packbits(lanes, bitorder="little").view("<u8").astype(np.uint64)
    c = np.zeros((n_rows, width), dtype=np.uint64)
    c[0] = every  # C = 1
    base = m_len + 1  # D's coefficient i is d_buf[base + i]; multiplying by x: base - 1
    d_buf = np.zeros((base + n_rows + 1, width), dtype=np.uint64)
    d_buf[base + 1] = every  # B = 1, m = -1: at step 0, D = B x^(0 - m) = x
    lin = np.zeros(width * 64, dtype=np.int32)
    may_grow = every.copy()  # blocks with 2 L <= N: a discrepancy changes their length
    l_max = l_min = 0
    for step in range(m_len):
        if step % 16 == 0:
            l_max, l_min = _bounds(lin, count)
        k = min(n_rows, max(l_max, step + 2 - l_min) + 1)
        cc, dd = c[:k], d_buf[base : base + k]
        start = m_len - 1 - step
        disc = np.bitwise_xor.reduce(cc & rev[start : start + k], axis=0)
        grow = disc & may_grow
        t = cc ^ dd
        cc ^= dd & disc  # C <- C + D where the discrepancy is 1
        dd ^= t & grow  # B <- old C where the length changes
        changed = np.unpackbits(grow.view(np.uint8), bitorder="little").view(np.bool_)
        lin = np.where(changed, np.int32(step + 1) - lin, lin)
        may_grow = np.packbits(lin <= (step + 1) // 2, bitorder="little").view(np.uint64)
        base -= 1
    out: NDArray[np.int64] = lin[:count].astype(np.int64)
    return out


def packed_linear_complexities(blocks: NDArray[np.uint8]) -> NDArray[np.int64]:
    """Berlekamp-Massey with each block's polynomials packed in words (few blocks).

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
