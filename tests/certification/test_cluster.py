"""SP 800-22 campaigns on a Dask cluster: the local run's results, progress per task,
and a campaign that loses a worker finishing on the other (a real LocalCluster of
worker processes, never a mock)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

from certification.cluster import client, parse, run_tasks
from certification.stats.sp800_22.battery import DEFAULTS
from certification.stats.sp800_22.suite import battery_rows, packed_battery_rows, run_suite

TESTS = ("Frequency", "BlockFrequency", "CumulativeSums", "Runs", "LongestRun", "Serial")


def sequences(n: int, bits: int) -> list[np.ndarray]:
    rng = np.random.default_rng(20261201)
    return [rng.integers(0, 2, bits, dtype=np.uint8) for _ in range(n)]


def test_the_address_forms() -> None:
    assert parse("local") == ("local", None)
    assert parse("local:3") == ("local", 3)
    assert parse("tcp://lab-scheduler:8786") == ("tcp://lab-scheduler:8786", None)
    for bad in ("local:0", "local:x", "nowhere"):
        with pytest.raises(ValueError, match="--dask"):
            parse(bad)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_campaign_on_a_local_cluster_is_the_local_run_even_losing_a_worker() -> None:
    seqs = sequences(16, 200_000)
    local = run_suite(seqs, tests=TESTS)
    finished: list[int] = []
    with client("local:2") as dask:
        pids = dask.run(os.getpid)  # worker address -> its process
        victim = pids[sorted(pids)[0]]

        def progress(i: int, _rows: object) -> None:
            finished.append(i)
            if len(finished) == 2:  # a worker dies mid-campaign; its tasks go elsewhere
                os.kill(victim, signal.SIGKILL)

        remote = run_suite(seqs, tests=TESTS, on_sequence=progress, dask=dask)
        # certify run's way: at most 3 sequences handed out at a time, made as needed
        made: list[int] = []

        def items() -> Iterator[tuple[int, tuple[object, ...]]]:
            for i in range(len(seqs)):
                made.append(i)
                yield i, (seqs[i], DEFAULTS, TESTS)

        def window_done(_i: int, _rows: object) -> None:
            assert len(made) - len(windowed_done) <= 3  # never more than 3 out at once
            windowed_done.append(_i)

        windowed_done: list[int] = []
        windowed = run_tasks(dask, battery_rows, items(), window_done, name="w", window=3)
    assert sorted(finished) == list(range(16))  # progress once per sequence, as each ended
    assert remote.per_sequence == local.per_sequence  # every p-value, in sequence order
    assert remote.summaries == local.summaries
    assert [windowed[i] for i in range(len(seqs))] == local.per_sequence


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_sp800_90b_estimators_on_a_local_cluster_give_the_local_assessment() -> None:
    """The non-IID estimators as Dask tasks (the samples scattered once): every estimate
    and the assessed min-entropy equal the local run's, even when a worker dies after the
    first estimate comes back (its tasks run again on the other)."""
    from pathlib import Path

    from certification.cluster import Tasks
    from certification.sp800_90b.non_iid import assess_non_iid
    from certification.sp800_90b.report import render_non_iid
    from certification.sp800_90b.samples import read_samples

    data = Path(__file__).parents[1] / "data" / "sp800-90b" / "rand8_short.bin"
    samples = read_samples(data, 8)
    local = assess_non_iid(samples)
    with client("local:2") as dask:
        pids = dask.run(os.getpid)
        victim = pids[sorted(pids)[0]]
        seen: list[str] = []

        def progress(name: str, track: str) -> None:
            seen.append(name)
            if len(seen) == 2:
                os.kill(victim, signal.SIGKILL)

        tasks = Tasks(dask, "sp800-90b")
        remote = assess_non_iid(samples, executor=tasks, progress=progress)
    assert render_non_iid(remote, "x", verbose=2) == render_non_iid(local, "x", verbose=2)
    assert remote.h_assessed == local.h_assessed
    assert tasks.count == len(local.rows) - sum(r.estimator == "LRS" for r in local.rows)
    scattered = [arr for arr, _ in tasks._scattered.values()]  # sent once, not per task
    assert [a.size for a in scattered] == [samples.bits.size]  # 10^4 symbols go by value


def test_a_sequence_shipped_packed_gives_the_same_rows() -> None:
    """Cluster tasks carry a sequence eight bits a byte; unpacked where it runs, it is
    the same sequence (a length not a multiple of 8 included)."""
    bits = sequences(1, 20_003)[0]
    assert packed_battery_rows(np.packbits(bits), bits.size, DEFAULTS, TESTS) == battery_rows(
        bits, DEFAULTS, TESTS
    )


FAULTS = """
import resource, sys
import numpy as np
from certification.cluster import in_worker

def churn() -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(100):
        a = np.ones(1_000_000)  # 8 MB, freed at once: what the battery's tests do
        del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

plain = churn()
kept = in_worker(churn)
print(plain, kept)
"""


def test_a_task_reuses_freed_memory_under_a_dask_nanny_environment() -> None:
    """A Dask nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536 (glibc then maps
    every large block afresh); a task run through in_worker reuses freed blocks instead:
    100 fresh 8 MB arrays fault tens of thousands of pages before, a tenth of that at most
    after (the first array's, some 400-900 pages: with 20 arrays the bound was too close)."""
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    out = subprocess.run(
        [sys.executable, "-c", FAULTS], env=env, capture_output=True, text=True, check=True
    )
    plain, kept = map(int, out.stdout.split())
    assert plain > 1000  # every array faulted in afresh
    assert kept * 10 < plain
