"""SP 800-22's vectorised kernels against plain per-block loops written from the definitions.

The kernels (longest run by word shifts, the rank elimination on row vectors of all
matrices, Berlekamp-Massey on bit-packed blocks) must give, block by block, what the
test's definition gives; random data and data built to reach the corner cases (long
runs, repeated and zero rows and columns, all-zero and periodic blocks).
"""

from __future__ import annotations

import numpy as np
import pytest

from certification.stats.sp800_22.linear_complexity import (
    linear_complexities,
    packed_linear_complexities,
    sliced_linear_complexities,
)
from certification.stats.sp800_22.longest_run import longest_runs
from certification.stats.sp800_22.rank import sts_ranks


def _longest(row: list[int]) -> int:
    best = run = 0
    for b in row:
        run = run + 1 if b else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize("m", [1, 7, 8, 63, 64, 65, 128, 1000])
@pytest.mark.parametrize("p_one", [0.0, 0.5, 0.9, 0.99, 1.0])
def test_longest_runs_equal_a_scan(m: int, p_one: float) -> None:
    rng = np.random.default_rng(m)
    blocks = (rng.random((30, m)) < p_one).astype(np.uint8)
    expected = [_longest(r) for r in blocks.tolist()]
    assert longest_runs(blocks).tolist() == expected
    assert longest_runs(blocks, cap=5).tolist() == [min(e, 5) for e in expected]


def _tool_rank(rows: list[int]) -> int:
    """The elimination rank.py's docstring describes, one matrix, row words bit j = col j."""
    a = list(rows)

    def swap_in(i: int, order: range) -> bool:
        for j in order:
            if a[j] >> i & 1:
                a[i], a[j] = a[j], a[i]
                return True
        return False

    for i in range(31):
        if a[i] >> i & 1 or swap_in(i, range(i + 1, 32)):
            for k in range(i + 1, 32):
                if a[k] >> i & 1:
                    a[k] ^= a[i] & (0xFFFFFFFF << i) & 0xFFFFFFFF
    for i in range(31, 0, -1):
        if a[i] >> i & 1 or swap_in(i, range(i - 1, -1, -1)):
            for k in range(i):
                if a[k] >> i & 1:
                    a[k] ^= a[i]
    return sum(1 for r in a if r)


def _matrices(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = [rng.integers(0, 1 << 32, (40, 32), dtype=np.uint64)]
    for _ in range(40):  # rows drawn from a few words, some columns cleared
        pool = rng.integers(0, 1 << 32, int(rng.integers(1, 12)), dtype=np.uint64)
        pool &= np.uint64(rng.integers(0, 1 << 32, dtype=np.uint64))
        out.append(pool[rng.integers(0, pool.size, (1, 32))])
    sparse = (rng.random((40, 32, 32)) < 0.08).astype(np.uint64)
    out.append((sparse << np.arange(32, dtype=np.uint64)).sum(axis=2))
    return np.concatenate(out).astype(np.uint32)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rank_equals_the_tools_elimination_matrix_by_matrix(seed: int) -> None:
    mats = _matrices(seed)
    expected = [_tool_rank(m) for m in mats.tolist()]
    assert sts_ranks(mats).tolist() == expected
    assert {31, 32} <= set(expected) and min(expected) < 30  # the corner cases were reached


def _berlekamp_massey(bits: list[int]) -> int:
    """Massey's algorithm over GF(2): the length of the shortest LFSR producing the bits."""
    n = len(bits)
    c, b = [0] * (n + 1), [0] * (n + 1)
    c[0] = b[0] = 1
    length, m = 0, -1
    for step in range(n):
        d = bits[step]
        for i in range(1, length + 1):
            d ^= c[i] & bits[step - i]
        if d:
            t = c[:]
            shift = step - m
            for i in range(n + 1 - shift):
                c[i + shift] ^= b[i]
            if 2 * length <= step:
                length, m, b = step + 1 - length, step, t
    return length


@pytest.mark.parametrize("m", [2, 13, 64, 65, 200, 500])
def test_linear_complexity_equals_massey_block_by_block(m: int) -> None:
    rng = np.random.default_rng(m)
    blocks = [rng.integers(0, 2, (64, m), dtype=np.uint8)]
    blocks.append(np.zeros((1, m), dtype=np.uint8))
    blocks.append(np.eye(1, m, m - 1, dtype=np.uint8))  # one 1 at the end: L = m
    blocks.append(np.resize(np.array([1, 0, 0, 1, 1], dtype=np.uint8), (1, m)))  # periodic
    blocks.append((rng.random((4, m)) < 0.05).astype(np.uint8))
    data = np.concatenate(blocks)
    expected = [_berlekamp_massey(r) for r in data.tolist()]
    assert linear_complexities(data).tolist() == expected
    assert sliced_linear_complexities(data).tolist() == expected  # 71 blocks: 2 words
    assert sliced_linear_complexities(data[-7:]).tolist() == expected[-7:]
    assert packed_linear_complexities(data).tolist() == expected
