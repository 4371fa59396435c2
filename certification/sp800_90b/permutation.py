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
    key = x * n + np.arange(n, dtype=np.int64)[None, :]
    key.sort(axis=1)
    val = key // n
    pos = key % n
    nxt = np.full((b, n), n, dtype=np.int64)
    same = val[:, 1:] == val[:, :-1]
    rows = np.nonzero(same)
    nxt[rows[0], pos[:, :-1][same]] = pos[:, 1:][same]
    nce = np.minimum.accumulate(nxt[:, ::-1], axis=1)[:, ::-1]
    total = np.zeros(b, dtype=np.int64)
    count = np.zeros(b, dtype=np.int64)
    longest = np.full(b, -1, dtype=np.int64)
    cur = np.zeros(b, dtype=np.int64)
    active = np.ones(b, dtype=bool)
    ridx = np.arange(b)
    while active.any():
        r = ridx[active]
        j = nce[r, cur[r]]
        ok = j < n
        t = j - cur[r] + 1
        rr = r[ok]
        total[rr] += t[ok]
        count[rr] += 1
        np.maximum.at(longest, rr, t[ok])
        nxt_pos = j + 1
        cur[r] = np.minimum(nxt_pos, n - 1)
        active[r] = ok & (nxt_pos < n)
    with np.errstate(invalid="ignore", divide="ignore"):
        avg = total / np.maximum(count, 1)
    _ = k
    return avg.astype(np.float64), longest


_TEXT = [f"{v} ".encode() for v in range(256)]
_TEXT_TABLE = np.zeros((256, 4), dtype=np.uint8)
_TEXT_LEN = np.zeros(256, dtype=np.int64)
for _v, _t in enumerate(_TEXT):
    _TEXT_TABLE[_v, : len(_t)] = np.frombuffer(_t, dtype=np.uint8)
    _TEXT_LEN[_v] = len(_t)


def _compressed_length(row: npt.NDArray[np.int64]) -> int:
    """bzip2 (block size 5) length of the values written as decimal text, space separated."""
    cells = _TEXT_TABLE[row]
    mask = np.arange(4)[None, :] < _TEXT_LEN[row][:, None]
    return len(bz2.compress(cells[mask].tobytes(), 5))


def statistics(x: I2, binary: bool, mean: float, median: float, need: npt.NDArray[np.bool_]) -> F2:
    """The 19 statistics of every row of ``x`` (NaN for those not in ``need``)."""
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
    if need[18]:
        for r in range(b):
            out[r, 18] = _compressed_length(x[r])
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
    counts = np.zeros((m, 3), dtype=np.int64)
    rng = np.random.default_rng(seed)
    done = 0
    batch = 8
    max_cells = 1 << 25
    while done < shuffles:
        if early_stop:
            need = ~(((counts[:, 0] + counts[:, 1]) > 5) & ((counts[:, 1] + counts[:, 2]) > 5))
            if not need.any():
                break
        size = min(batch, shuffles - done, max(1, max_cells // max(n, 1)))
        perm = rng.permuted(np.broadcast_to(x, (size, n)), axis=1)
        tp = statistics(perm, binary, mean, median, need)
        for j in np.flatnonzero(need):
            col = tp[:, j]
            counts[j, 0] += int((col > t[j]).sum())
            counts[j, 1] += int((col == t[j]).sum())
            counts[j, 2] += int((col < t[j]).sum())
        done += size
        batch = min(batch * 2, 256)
    rows = []
    for idx, name in enumerate(NAMES):
        c0, c1, c2 = (int(c) for c in counts[idx])
        ok = (c0 + c1 > 5) and (c1 + c2 > 5)
        rows.append(PermutationRow(name, float(t[idx]), c0, c1, c2, ok))
    return PermutationResult(rows=tuple(rows), shuffles=done)
