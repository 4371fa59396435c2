"""The battery over many sequences, followed by the final analysis.

``run_suite`` tests each sequence in turn (or in a small process pool), calls
``on_sequence`` after each one (progress bars, checkpoints) and returns every row and
the per-variant summaries of the tool's final analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
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
) -> SuiteResult:
    """Test every sequence (skipping those already in ``done``), then the final analysis.

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
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {i: pool.submit(battery_rows, sequences[i], params, chosen) for i in todo}
            for i in todo:
                results[i] = futures[i].result()
                if on_sequence is not None:
                    on_sequence(i, results[i])
    else:
        for i in todo:
            results[i] = battery_rows(sequences[i], params, chosen)
            if on_sequence is not None:
                on_sequence(i, results[i])
    per_sequence = [results[i] for i in range(len(sequences))]
    length = int(sequences[0].size) if len(sequences) else 0
    return SuiteResult(len(sequences), length, per_sequence, final_analysis(per_sequence))
