"""Longest run of ones in a block (SP 800-22 2.4), with the tool's three block sizes."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from certification.stats.sp800_22.result import TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import igamc

#: (n below which it applies, K, M, V[0], class probabilities) as sts-2.1.2 has them
_TABLES: tuple[tuple[int, int, int, int, tuple[float, ...]], ...] = (
    (6272, 3, 8, 1, (0.21484375, 0.3671875, 0.23046875, 0.1875)),
    (
        750000,
        5,
        128,
        4,
        (0.1174035788, 0.242955959, 0.249363483, 0.17517706, 0.102701071, 0.112398847),
    ),
    (1 << 62, 6, 10000, 10, (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727)),
)


def longest_runs(blocks: NDArray[np.uint8], cap: int | None = None) -> NDArray[np.int64]:
    """Longest run of ones in each row of a 2-D 0/1 array, counted up to ``cap``.

    Each row is packed into 64-bit words (first bit most significant, zero-padded);
    after t rounds of y <- y AND (y shifted one bit along the row) a bit is still set
    exactly where t + 1 ones start, so a row's longest run is the number of rounds
    before it is all zeros. The test needs runs only up to V[0] + K (longer ones share
    the last class), so at most that many rounds: 16 of six word-array operations at
    n = 10^6, where a pass per bit over the 10^6 positions took 7 ms.
    """
    n_blocks, m = blocks.shape
    limit = m if cap is None else min(cap, m)
    words = -(-m // 64)
    packed = np.zeros((n_blocks, words * 8), dtype=np.uint8)
    packed[:, : -(-m // 8)] = np.packbits(blocks, axis=1)
    y = packed.view(">u8").astype(np.uint64)
    length = np.zeros(n_blocks, dtype=np.int64)
    one, top = np.uint64(1), np.uint64(63)
    for _ in range(limit):
        alive = y.any(axis=1)
        if not alive.any():
            break
        length += alive
        step = y << one
        step[:, :-1] |= y[:, 1:] >> top  # the next word's first bit follows this word's last
        y &= step
    return length


def longest_run(bits: Bits | Sequence) -> TestOutcome:
    seq = as_sequence(bits)
    n = seq.n
    if n < 128:
        return single("LongestRun", None, note=f"n = {n} is too short (needs 128)")
    _, k, m, v0, pi = next(t for t in _TABLES if n < t[0])
    n_blocks = n // m
    longest = longest_runs(seq.bits[: n_blocks * m].reshape(n_blocks, m), cap=v0 + k)
    classes = np.clip(longest - v0, 0, k)
    nu = np.bincount(classes, minlength=k + 1)
    expected = n_blocks * np.asarray(pi)
    chi2 = float((((nu - expected) ** 2) / expected).sum())
    return single("LongestRun", igamc(k / 2.0, chi2 / 2.0), chi2=chi2, nu=nu.tolist(), M=m, K=k)
