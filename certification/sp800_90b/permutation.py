"""The IID permutation tests (SP 800-90B 5.1), shuffles computed on both cores.

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

The loops (shuffle, counting, the text bzip2 compresses) are compiled in
:mod:`certification.sp800_90b.iid_kernels`; here threads run them shuffle by shuffle and
the main thread counts the results in order.
"""

from __future__ import annotations

import bz2
import math
import os
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.iid_kernels import (
    LAGS,
    MAX_SHUFFLE,
    shuffle_into,
    statistics_into,
    text_into,
)

PERMS = 10_000
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

F1 = npt.NDArray[np.float64]
I1 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]


def _cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


#: threads computing shuffles side by side (the kernels and bzip2 release the GIL): one
#: per core, up to 8 (each further one adds at most one wasted shuffle when the
#: compression statistic gets decided)
WORKERS = max(1, min(8, _cores()))
#: bytes of text per call of the compressor (two of its 500,000-byte blocks), between
#: which a shuffle no longer needed stops compressing
_SLICE = 1 << 20


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


def _median(x: U8, binary: bool) -> float:
    """The samples' median (0.5 for binary data, as SP 800-90B 5.1 sets it)."""
    if binary:
        return 0.5
    v = np.sort(x)
    half = x.size // 2
    return float(v[half]) if x.size % 2 else (float(v[half]) + float(v[half - 1])) / 2.0


def _pcg64_state(seed: int, index: int) -> U64:
    """The PCG64 state of shuffle ``index``: NumPy's ``SeedSequence(seed)`` child
    ``index`` (``spawn_key=(index,)``), so each shuffle is the same whichever thread draws
    it and in whatever order."""
    st = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))).state["state"]
    s, inc = int(st["state"]), int(st["inc"])
    mask = (1 << 64) - 1
    return np.array([s >> 64, s & mask, inc >> 64, inc & mask], dtype=np.uint64)


def _compressed_length(x: U8, buf: U8, cancel: threading.Event | None = None) -> float:
    """bzip2 (block size 5) length of the values written as decimal text, space separated
    (without the last space, as NIST's tool writes them); NaN when ``cancel`` got set
    (the statistic got decided meanwhile: the rest of the text is not compressed).

    The text goes to the compressor in slices of a few blocks, the GIL released while
    each compresses; the stream is the one ``bz2.compress`` makes of the whole text.
    """
    size = text_into(x, buf)
    view = memoryview(buf.data)[:size]
    comp = bz2.BZ2Compressor(5)
    length = 0
    for lo in range(0, size, _SLICE):
        if cancel is not None and cancel.is_set():
            return math.nan
        length += len(comp.compress(view[lo : lo + _SLICE]))
    return float(length + len(comp.flush()))


class _Buffers(threading.local):
    """Each thread's shuffle and text buffers, reused from shuffle to shuffle."""

    shuffled: U8 | None = None
    text: U8 | None = None

    def get(self, n: int) -> tuple[U8, U8]:
        if self.shuffled is None or self.shuffled.size != n or self.text is None:
            self.shuffled = np.empty(n, dtype=np.uint8)
            self.text = np.empty(4 * n + 1, dtype=np.uint8)
        return self.shuffled, self.text


@dataclass(frozen=True, slots=True)
class _Data:
    """What every shuffle needs: the samples, their median, the seed, the buffers."""

    x: U8
    binary: bool
    median: float
    seed: int
    buffers: _Buffers
    cancel: threading.Event


def _shuffle_statistics(data: _Data, index: int, need: npt.NDArray[np.bool_]) -> F1:
    """The statistics in ``need`` of shuffle ``index`` (NaN for the others).

    Runs in a worker thread: the shuffle, the counting loops and bzip2 all release the GIL.
    """
    shuffled, text = data.buffers.get(data.x.size)
    shuffle_into(data.x, shuffled, _pcg64_state(data.seed, index))
    out = np.full(len(NAMES), np.nan)
    statistics_into(shuffled, data.binary, data.median, need, out)
    if need[18] and not data.cancel.is_set():
        out[18] = _compressed_length(shuffled, text, data.cancel)
    return out


def original_statistics(raw: U8, binary: bool) -> F1:
    """The 19 statistics of the samples themselves (``ea_iid -v -v -v``'s "Unpermuted
    result" lines)."""
    x = np.ascontiguousarray(raw, dtype=np.uint8)
    out = np.full(len(NAMES), np.nan)
    statistics_into(x, binary, _median(x, binary), np.ones(len(NAMES), dtype=bool), out)
    out[18] = _compressed_length(x, np.empty(4 * x.size + 1, dtype=np.uint8))
    return out


def permutation_tests(
    raw: npt.NDArray[np.uint8],
    binary: bool,
    *,
    seed: int = 0,
    shuffles: int = PERMS,
    early_stop: bool = True,
) -> PermutationResult:
    """Run the permutation tests on ``raw`` samples with seeded shuffles.

    ``WORKERS`` threads compute shuffles ahead (each shuffle ``i`` drawn from its own
    seeded stream, so the results do not depend on the threads); the main thread counts
    them in order and stops each statistic at the shuffle that decides it, so the counts
    and the verdict depend only on ``seed``. A shuffle already under way when the last
    statistic it computes got decided is wasted work, never a changed count.
    """
    t: F1
    x = np.ascontiguousarray(raw, dtype=np.uint8)
    if x.size > MAX_SHUFFLE:
        raise SampleDataError(
            f"{x.size} samples: the permutation tests shuffle at most {MAX_SHUFFLE}"
        )
    m = len(NAMES)
    counts = np.zeros((m, 3), dtype=np.int64)
    live = np.ones(m, dtype=bool)
    data = _Data(x, binary, _median(x, binary), seed, _Buffers(), threading.Event())
    pending: deque[Future[F1]] = deque()
    nxt = 0
    with ThreadPoolExecutor(WORKERS) as pool:
        try:
            # the first shuffles start while the data's own statistics are computed
            while nxt < min(shuffles, 2 * WORKERS):
                pending.append(pool.submit(_shuffle_statistics, data, nxt, live.copy()))
                nxt += 1
            t = original_statistics(x, binary)
            for _ in range(shuffles):
                if not live.any():
                    break
                while nxt < shuffles and len(pending) < 2 * WORKERS:
                    pending.append(pool.submit(_shuffle_statistics, data, nxt, live.copy()))
                    nxt += 1
                values = pending.popleft().result()
                for j in np.flatnonzero(live):
                    live[j] = not _tally(counts[j], t[j], float(values[j]), early_stop)
                if not live[18]:
                    data.cancel.set()
        finally:
            data.cancel.set()
            for f in pending:
                f.cancel()
    rows = []
    for idx, name in enumerate(NAMES):
        c0, c1, c2 = (int(c) for c in counts[idx])
        rows.append(PermutationRow(name, float(t[idx]), c0, c1, c2, _decided(counts[idx])))
    return PermutationResult(rows=tuple(rows), shuffles=int(counts.sum(axis=1).max()))


def _tally(c: I1, t: float, v: float, early_stop: bool) -> bool:
    """Count one shuffle's value ``v`` above/equal/below ``t`` into ``c``; True when the
    statistic got decided (counting stops right there, as NIST's tool does)."""
    c[0 if v > t else 1 if v == t else 2] += 1
    return early_stop and _decided(c)


def _decided(c: I1) -> bool:
    """True once the original can no longer be extreme: more than 5 shuffles at or above
    it and more than 5 at or below it (NIST stops counting a statistic right there)."""
    return bool(c[0] + c[1] > 5 and c[1] + c[2] > 5)
