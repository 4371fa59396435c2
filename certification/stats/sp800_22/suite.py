"""The battery over many sequences, followed by the final analysis.

``run_suite`` tests the sequences on a few threads of this process (or in a small
process pool, or on a Dask cluster), calls ``on_sequence`` after each one in sequence
order (progress bars, checkpoints) and returns every row and the per-variant summaries
of the tool's final analysis.

Threads: the tests spend most of their time inside NumPy calls on arrays of 10^4-10^6
elements, which release the GIL (the FFT, the window histograms, the rank and linear
complexity word operations), so two sequences in two threads use both cores of a
2-core machine without a second process's start-up or pickling: 10 sequences of 10^6
bits, 62 -> 42-47 ms wall a sequence on a busy 2-core machine (bench/results/sp800_22.md
has the quiet figures).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from certification.stats.sp800_22.battery import DEFAULTS, Parameters, rows, run_battery
from certification.stats.sp800_22.final_analysis import VariantSummary, final_analysis
from certification.stats.sp800_22.result import PValue


@dataclass(frozen=True, slots=True)
class SuiteResult:
    sequences: int
    length: int
    per_sequence: list[list[PValue]]
    summaries: list[VariantSummary]


def default_threads() -> int:
    """Threads for the sequences: one per core, at most 4 (past that the GIL-held part
    of each test, its Python and small-array calls, is the bound)."""
    return max(1, min(4, os.cpu_count() or 1))


def battery_rows(
    bits: NDArray[np.uint8], params: Parameters = DEFAULTS, tests: tuple[str, ...] | None = None
) -> list[PValue]:
    """Every p-value row of the battery on one sequence."""
    return rows(run_battery(bits, params, tests))


def packed_battery_rows(
    packed: NDArray[np.uint8],
    bits: int,
    params: Parameters = DEFAULTS,
    tests: tuple[str, ...] | None = None,
) -> list[PValue]:
    """:func:`battery_rows` on a sequence shipped packed eight bits a byte (a cluster's
    task: 125 KB for 10^6 bits instead of a byte a bit), unpacked where it runs."""
    return battery_rows(np.unpackbits(packed, count=bits), params, tests)


def run_suite(
    sequences: Sequence[NDArray[np.uint8]],
    params: Parameters = DEFAULTS,
    tests: Iterable[str] | None = None,
    on_sequence: Callable[[int, list[PValue]], None] | None = None,
    done: dict[int, list[PValue]] | None = None,
    jobs: int = 1,
    dask: Any = None,
    threads: int | None = None,
) -> SuiteResult:
    """Test every sequence (skipping those already in ``done``), then the final analysis.

    ``threads``: sequences tested at once in this process when ``jobs`` is 1 and no
    cluster is given (default :func:`default_threads`); the rows do not depend on it.

    ``dask``: a ``distributed.Client`` (:mod:`certification.cluster`): one task per
    sequence on its cluster, ``on_sequence`` as each finishes (in any order), the rows
    put back in sequence order, so the result is the local run's."""
    chosen = tuple(tests) if tests is not None else None
    results: dict[int, list[PValue]] = dict(done or {})
    todo = [i for i in range(len(sequences)) if i not in results]
    if dask is not None and todo:
        from certification.cluster import run_tasks

        def finished(i: int, rows_of: list[PValue]) -> None:
            results[i] = rows_of
            if on_sequence is not None:
                on_sequence(i, rows_of)

        items = (
            (i, (np.packbits(sequences[i]), int(sequences[i].size), params, chosen)) for i in todo
        )
        run_tasks(dask, packed_battery_rows, items, finished, name="sp800-22")
    elif jobs > 1 and len(todo) > 1:
        from concurrent.futures import ProcessPoolExecutor  # multiprocessing: 10 ms to load

        from certification.cluster import keep_freed_memory

        with ProcessPoolExecutor(max_workers=jobs, initializer=keep_freed_memory) as pool:
            futures = {i: pool.submit(battery_rows, sequences[i], params, chosen) for i in todo}
            for i in todo:
                results[i] = futures[i].result()
                if on_sequence is not None:
                    on_sequence(i, results[i])
    else:
        workers = min(default_threads() if threads is None else threads, len(todo))
        threads_pool = ThreadPoolExecutor(max_workers=max(workers, 1))
        try:
            found: Iterable[list[PValue]]
            if workers > 1:
                queued = [
                    threads_pool.submit(battery_rows, sequences[i], params, chosen) for i in todo
                ]
                found = (f.result() for f in queued)
            else:
                found = (battery_rows(sequences[i], params, chosen) for i in todo)
            for i, rows_of in zip(todo, found, strict=True):
                results[i] = rows_of
                if on_sequence is not None:
                    on_sequence(i, rows_of)
        finally:  # interrupted (Ctrl-C, a failing callback): drop the sequences not started
            threads_pool.shutdown(wait=True, cancel_futures=True)
    per_sequence = [results[i] for i in range(len(sequences))]
    length = int(sequences[0].size) if len(sequences) else 0
    return SuiteResult(len(sequences), length, per_sequence, final_analysis(per_sequence))
