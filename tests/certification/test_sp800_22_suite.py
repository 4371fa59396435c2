"""run_suite on threads: the same rows in the same order as one thread, and an interrupted
run does not go on testing the sequences not started (``certify run`` resumes instead)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from certification.stats.sp800_22 import suite
from certification.stats.sp800_22.result import PValue


def _sequences(count: int, n: int = 20_000) -> list[np.ndarray]:
    rng = np.random.default_rng(22)
    return [rng.integers(0, 2, n, dtype=np.uint8) for _ in range(count)]


def test_threads_give_the_one_thread_rows_in_sequence_order() -> None:
    seqs = _sequences(5)
    seen: list[int] = []
    one = suite.run_suite(seqs, threads=1)
    three = suite.run_suite(seqs, threads=3, on_sequence=lambda i, _r: seen.append(i))
    assert seen == [0, 1, 2, 3, 4]
    assert three.per_sequence == one.per_sequence
    assert [s.as_dict() for s in three.summaries] == [s.as_dict() for s in one.summaries]


def test_an_interrupted_run_drops_the_sequences_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int] = []
    release = threading.Event()
    real = suite.battery_rows

    def counted(bits: np.ndarray, *args: object) -> list[PValue]:
        started.append(1)
        if len(started) > 1:
            release.wait(10)  # the others stay busy until the first result is handled
        return real(bits, *args)  # type: ignore[arg-type]

    def interrupt(_i: int, _rows: list[PValue]) -> None:
        release.set()
        raise KeyboardInterrupt

    monkeypatch.setattr(suite, "battery_rows", counted)
    with pytest.raises(KeyboardInterrupt):
        suite.run_suite(
            _sequences(20, 2_000), tests=["Frequency"], threads=2, on_sequence=interrupt
        )
    assert len(started) <= 5  # the two threads' current ones at most, not all 20
