"""Restart tests: sanity check on the 1000x1000 matrix and row/column validation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.restart import (
    read_restart_matrix,
    render_restart,
    restart_tests,
    simulate_cutoff,
)
from certification.sp800_90b.samples import from_array


def _matrix(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 16, 1_000_000, dtype=np.uint8)


@pytest.mark.slow
def test_good_restart_data_pass(tmp_path: Path) -> None:
    f = tmp_path / "restart.bin"
    f.write_bytes(_matrix(1).tobytes())
    s = read_restart_matrix(f)
    res = restart_tests(s, s.word_size, 3.5, iid=True)
    assert res.sanity_passed and res.passed
    assert res.h_r is not None and 3.8 < res.h_r <= 4.0
    assert res.h_assessed == pytest.approx(3.5)
    assert "Restart Sanity Check Passed" in render_restart(res)


@pytest.mark.slow
def test_stuck_restart_fails_sanity_check() -> None:
    data = _matrix(2)
    data[:1000] = 7  # the first restart produced one value only
    s = from_array(data)
    res = restart_tests(s, s.word_size, 3.5, iid=True)
    assert res.x_max == 1000 > res.x_cutoff
    assert not res.sanity_passed and not res.passed
    assert "*** Restart Sanity Check Failed ***" in render_restart(res)


def test_cutoff_grows_as_entropy_falls() -> None:
    alpha = 1.0 - np.exp(np.log(0.99) / 2000)
    high = simulate_cutoff(alpha, 16, 4.0, rounds=100_000)
    low = simulate_cutoff(alpha, 16, 1.0, rounds=100_000)
    assert 62 < high < low <= 1000


def test_wrong_size_and_bad_h_i_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "short.bin"
    f.write_bytes(bytes(range(16)) * 10)
    with pytest.raises(SampleDataError, match="1000000 samples"):
        read_restart_matrix(f)
    s = from_array(_matrix(3))
    with pytest.raises(SampleDataError, match="H_I"):
        restart_tests(s, 4, 5.0)
