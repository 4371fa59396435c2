"""Longest run of ones in a block (SP 800-22 2.4), with the tool's three block sizes."""

from __future__ import annotations

import numpy as np

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


def longest_runs(blocks: np.ndarray) -> np.ndarray:
    """Longest run of ones in each row of a 2-D 0/1 array.

    At each position the run ending there is its index minus the index of the last zero
    at or before it (a running maximum of zero positions, reset at each row's start).
    """
    n_blocks, m = blocks.shape
    idx = np.broadcast_to(np.arange(m, dtype=np.int32), (n_blocks, m))
    last_zero = np.where(blocks == 0, idx, np.int32(-1))
    np.maximum.accumulate(last_zero, axis=1, out=last_zero)
    out: np.ndarray = (idx - last_zero).max(axis=1).astype(np.int64)
    return out


def longest_run(bits: Bits | Sequence) -> TestOutcome:
    seq = as_sequence(bits)
    n = seq.n
    if n < 128:
        return single("LongestRun", None, note=f"n = {n} is too short (needs 128)")
    _, k, m, v0, pi = next(t for t in _TABLES if n < t[0])
    n_blocks = n // m
    longest = longest_runs(seq.bits[: n_blocks * m].reshape(n_blocks, m))
    classes = np.clip(longest - v0, 0, k)
    nu = np.bincount(classes, minlength=k + 1)
    expected = n_blocks * np.asarray(pi)
    chi2 = float((((nu - expected) ** 2) / expected).sum())
    return single("LongestRun", igamc(k / 2.0, chi2 / 2.0), chi2=chi2, nu=nu.tolist(), M=m, K=k)
