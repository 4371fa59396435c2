"""The IID permutation tests (SP 800-90B 5.1), vectorised over batches of shuffles.

Nineteen statistics (excursion; number and length of directional runs; number of
increases/decreases; number and length of runs about the median; average and maximum
collision; periodicity and covariance at lags 1, 2, 8, 16, 32; bzip2 compression) are
computed on the data and on up to 10,000 shuffles of it. For each statistic ``C0`` counts
shuffles scoring above the original and ``C1`` equal, ``C2`` below; the statistic fails
when ``C0 + C1 <= 5`` or ``C1 + C2 <= 5`` after all shuffles (the original is extreme in
either tail). As in NIST's tool a statistic stops being computed once both sums exceed 5,
since it can then no longer fail; ``early_stop=False`` runs all shuffles.

Binary data use Conversion I (Hamming weight of 8-bit blocks) for the directional,
periodicity and covariance statistics and Conversion II (8-bit blocks as numbers) for the
collision statistics; the median of binary data is 0.5.
"""

from __future__ import annotations

import bz2
import os
from collections import deque
from collections.abc import Generator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

PERMS = 10_000
LAGS = (1, 2, 8, 16, 32)
NAMES: tuple[str, ...] = (
    "excursion",
    "numDirectionalRuns",
    "lenDirectionalRuns",
    "numIncreasesDecreases",
    "numRunsMedian",
    "lenRunsMedian",
    "avgCollision",
    "maxCollision",
    *(f"periodicity({p})" for p in LAGS),
    *(f"covariance({p})" for p in LAGS),
    "compression",
)

F2 = npt.NDArray[np.float64]
I2 = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class PermutationRow:
    """One statistic: original value, counts above/equal/below, verdict."""

    name: str
    t: float
    c0: int
    c1: int
    c2: int
    passed: bool


@dataclass(frozen=True, slots=True)
class PermutationResult:
    """All statistics and how many shuffles were run."""

    rows: tuple[PermutationRow, ...]
    shuffles: int

    @property
    def passed(self) -> bool:
        """True when no statistic failed."""
        return all(r.passed for r in self.rows)


def _conv1(x: I2) -> I2:
    m = x.shape[1] // 8
    return np.asarray(x[:, : m * 8].reshape(x.shape[0], m, 8).sum(axis=2), dtype=np.int64)


def _conv2(x: I2) -> I2:
    m = x.shape[1] // 8
    w = (1 << np.arange(7, -1, -1)).astype(np.int64)
    return np.asarray(x[:, : m * 8].reshape(x.shape[0], m, 8) @ w, dtype=np.int64)


def _runs(alt: npt.NDArray[np.bool_]) -> tuple[I2, I2]:
    """(number of runs, longest run) of each row of a boolean sequence."""
    b, n = alt.shape
    change = alt[:, 1:] != alt[:, :-1]
    count = change.sum(axis=1) + 1
    longest = np.empty(b, dtype=np.int64)
    idx = np.arange(1, n, dtype=np.int64)
    for r in range(b):
        brk = idx[change[r]]
        edges = np.concatenate(([0], brk, [n]))
        longest[r] = int(np.diff(edges).max())
    return count.astype(np.int64), longest


def _collisions(x: I2, k: int) -> tuple[F2, I2]:
    """Average and maximum collision wait of each row (SP 800-90B 5.1.7/5.1.8)."""
    b, n = x.shape
    avg = np.zeros(b, dtype=np.float64)
    longest = np.full(b, -1, dtype=np.int64)
    small = k <= 256 and (b == 0 or int(x.max()) < 256)
    nxt = np.empty(n, dtype=np.int64)
    for r in range(b):
        row = x[r].astype(np.uint8) if small else x[r]
        order = np.argsort(row, kind="stable")  # radix sort for 8-bit values
        same = row[order[1:]] == row[order[:-1]]
        nxt.fill(n)
        nxt[order[:-1][same]] = order[1:][same]
        rev = np.minimum.accumulate(nxt[::-1])
        avg[r], longest[r] = _walk(memoryview(rev.data), n)
    return avg, longest


def _walk(rev: memoryview, n: int) -> tuple[float, int]:
    """(average, longest) collision wait along one row's chain of first repeats.

    ``rev[n - 1 - i]`` is the first position ``j >= i`` whose value already occurred in
    ``[i, j)``; each wait runs from the current start to that repeat, and the next one
    starts after it. The chain is sequential by nature (some 5*10^4 steps for 10^6 8-bit
    samples), so it walks the array's buffer from Python, one row at a time: a vectorised
    step across a batch's rows cost a dozen NumPy calls per step, and the (rows x n)
    sort keys and index arrays it needed were most of the track's page faults.
    """
    cur = total = count = 0
    longest = -1
    last = n - 1
    while True:
        j = rev[last - cur]
        if j >= n:
            break
        t = j - cur + 1
        total += t
        count += 1
        if t > longest:
            longest = t
        cur = j + 1
        if cur >= n:
            break
    return (total / count if count else 0.0), longest


_TEXT = [f"{v} ".encode() for v in range(256)]
_TEXT_TABLE = np.zeros((256, 4), dtype=np.uint8)
_TEXT_LEN = np.zeros(256, dtype=np.int64)
for _v, _t in enumerate(_TEXT):
    _TEXT_TABLE[_v, : len(_t)] = np.frombuffer(_t, dtype=np.uint8)
    _TEXT_LEN[_v] = len(_t)


#: threads compressing shuffles side by side (bz2 releases the GIL while it works)
WORKERS = max(1, min(2, os.cpu_count() or 1))


def _compressed_length(row: npt.NDArray[np.int64]) -> int:
    """bzip2 (block size 5) length of the values written as decimal text, space separated
    (without the last space, as NIST's tool writes them)."""
    cells = _TEXT_TABLE[row]
    mask = np.arange(4)[None, :] < _TEXT_LEN[row][:, None]
    return len(bz2.compress(cells[mask].tobytes()[:-1], 5))


def _compressed_lengths(rows: I2, pool: ThreadPoolExecutor) -> Generator[int, None, None]:
    """The compression statistic of each row in order, ``WORKERS`` rows in flight.

    Closing the iterator early (the statistic is decided) cancels the rows not started.
    """
    pending: deque[Future[int]] = deque()
    nxt = 0
    try:
        while nxt < len(rows) or pending:
            while nxt < len(rows) and len(pending) < WORKERS:
                pending.append(pool.submit(_compressed_length, rows[nxt]))
                nxt += 1
            yield pending.popleft().result()
    finally:
        for f in pending:
            f.cancel()


def statistics(x: I2, binary: bool, mean: float, median: float, need: npt.NDArray[np.bool_]) -> F2:
    """The 19 statistics of every row of ``x`` (NaN for those not in ``need``).

    The compression statistic (bzip2 of each row, by far the dearest) is left NaN here:
    :func:`permutation_tests` computes it shuffle by shuffle, only while it is undecided.
    """
    b, n = x.shape
    out = np.full((b, len(NAMES)), np.nan)
    if need[0]:
        dev = np.cumsum(x, axis=1) - (np.arange(1, n + 1, dtype=np.float64) * mean)[None, :]
        out[:, 0] = np.abs(dev).max(axis=1)
    c1 = _conv1(x) if binary else x
    if need[1:4].any():
        alt = c1[:, :-1] <= c1[:, 1:]
        nr, lr = _runs(alt)
        out[:, 1] = nr
        out[:, 2] = lr
        inc = alt.sum(axis=1)
        out[:, 3] = np.maximum(inc, alt.shape[1] - inc)
    if need[4:6].any():
        alt2 = x >= median
        nr, lr = _runs(alt2)
        out[:, 4] = nr
        out[:, 5] = lr
    if need[6:8].any():
        c2 = _conv2(x) if binary else x
        avg, mx = _collisions(c2, 256)
        out[:, 6] = avg
        out[:, 7] = mx
    for i, p in enumerate(LAGS):
        if need[8 + i]:
            out[:, 8 + i] = (c1[:, :-p] == c1[:, p:]).sum(axis=1)
        if need[13 + i]:
            out[:, 13 + i] = (c1[:, :-p] * c1[:, p:]).sum(axis=1)
    return out


def permutation_tests(
    raw: npt.NDArray[np.uint8],
    binary: bool,
    *,
    seed: int = 0,
    shuffles: int = PERMS,
    early_stop: bool = True,
) -> PermutationResult:
    """Run the permutation tests on ``raw`` samples with seeded shuffles."""
    x = raw.astype(np.int64)
    n = x.size
    mean = float(x.sum()) / n
    if binary:
        median = 0.5
    else:
        v = np.sort(x)
        half = n // 2
        median = float(v[half]) if n % 2 else (float(v[half]) + float(v[half - 1])) / 2.0
    m = len(NAMES)
    need = np.ones(m, dtype=bool)
    t = statistics(x[None, :], binary, mean, median, need)[0]
    t[18] = _compressed_length(x)
    counts = np.zeros((m, 3), dtype=np.int64)
    live = np.ones(m, dtype=bool)
    rng = np.random.default_rng(seed)
    drawn = 0
    batch = 16
    max_cells = 1 << 25
    with ThreadPoolExecutor(WORKERS) as pool:
        while drawn < shuffles and live.any():
            size = min(batch, shuffles - drawn, max(1, max_cells // max(n, 1)))
            perm = _shuffled(rng, x, size)
            tp = statistics(perm, binary, mean, median, live)
            for j in np.flatnonzero(live):
                if j == 18:
                    lengths = _compressed_lengths(perm, pool)
                    live[j] = not _tally(counts[j], t[j], lengths, early_stop)
                    lengths.close()
                else:
                    live[j] = not _tally(counts[j], t[j], iter(tp[:, j]), early_stop)
            drawn += size
            batch = min(batch * 2, 256)
    rows = []
    for idx, name in enumerate(NAMES):
        c0, c1, c2 = (int(c) for c in counts[idx])
        rows.append(PermutationRow(name, float(t[idx]), c0, c1, c2, _decided(counts[idx])))
    return PermutationResult(rows=tuple(rows), shuffles=int(counts.sum(axis=1).max()))


def _shuffled(rng: np.random.Generator, x: I2, size: int) -> I2:
    """``size`` seeded Fisher-Yates shuffles of ``x``, one row each.

    Row by row with ``Generator.shuffle`` on contiguous rows: ``Generator.permuted(...,
    axis=1)`` on the batch took four times as long (55 ms against 13 ms per 10^6 samples).
    """
    out = np.broadcast_to(x, (size, x.size)).copy()
    for row in out:
        rng.shuffle(row)
    return out


def _tally(c: I2, t: float, values: Iterator[float], early_stop: bool) -> bool:
    """Count shuffles' ``values`` above/equal/below ``t`` into ``c`` one by one; True when
    the statistic got decided (and counting stopped right there, as NIST's tool does, so
    the counts do not depend on the batch sizes)."""
    for v in values:
        c[0 if v > t else 1 if v == t else 2] += 1
        if early_stop and _decided(c):
            return True
    return False


def _decided(c: I2) -> bool:
    """True once the original can no longer be extreme: more than 5 shuffles at or above
    it and more than 5 at or below it (NIST stops counting a statistic right there)."""
    return bool(c[0] + c[1] > 5 and c[1] + c[2] > 5)
