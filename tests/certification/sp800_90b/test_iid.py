"""IID track: permutation tests, chi-square tests, LRS test and the MCV estimate."""

from __future__ import annotations

import numpy as np
import pytest

from certification.sp800_90b.chisquare import goodness_of_fit, independence
from certification.sp800_90b.iid import assess_iid, render_iid
from certification.sp800_90b.lrs_test import lrs_test
from certification.sp800_90b.permutation import NAMES, permutation_tests
from certification.sp800_90b.samples import from_array


def _uniform(n: int, seed: int, bits: int = 8) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << bits, n, dtype=np.uint8)


def test_random_nibbles_pass_as_iid() -> None:
    # (The tool's chi-square binning needs ~10^6 samples for 8-bit symbols; 4-bit symbols
    # give every pair bin a large expectation at this size.)
    res = assess_iid(from_array(_uniform(20_000, 5, bits=4)), seed=1)
    assert res.iid
    assert len(res.permutation.rows) == len(NAMES) == 19
    assert res.h_original is not None and 3.5 < res.h_original <= 4.0
    assert res.h_assessed <= res.h_original
    text = render_iid(res, "x.bin")
    assert "** Passed IID permutation tests" in text
    assert "IID assumption: holds" in text


@pytest.mark.slow
def test_random_walk_fails_permutation_tests() -> None:
    steps = np.random.default_rng(6).integers(-3, 4, 5_000)
    walk = (np.cumsum(steps) % 256).astype(np.uint8)
    res = permutation_tests(walk, False, seed=2, shuffles=500)
    failed = {r.name for r in res.rows if not r.passed}
    assert "numDirectionalRuns" in failed or "lenRunsMedian" in failed
    assert "periodicity(1)" in failed
    assert not res.passed


def test_shuffles_are_seeded() -> None:
    data = _uniform(3_000, 7)
    a = permutation_tests(data, False, seed=11, shuffles=40, early_stop=False)
    b = permutation_tests(data, False, seed=11, shuffles=40, early_stop=False)
    assert a == b
    assert a.shuffles == 40
    assert all(r.c0 + r.c1 + r.c2 == 40 for r in a.rows)


def test_binary_data_use_conversions() -> None:
    bits = _uniform(16_000, 8, bits=1)
    res = permutation_tests(bits, True, seed=3, shuffles=30, early_stop=False)
    row = {r.name: r for r in res.rows}
    # Conversion I turns 16,000 bits into 2,000 weights; periodicity counts over those.
    assert row["periodicity(1)"].t < 2_000
    assert row["excursion"].t > 0


def test_chi_square_tests_pass_random_and_fail_dependent_data() -> None:
    x = _uniform(50_000, 9, bits=4)
    assert independence(x, 16).passed
    assert goodness_of_fit(x, 16).passed
    dep = np.repeat(x[:25_000], 2)  # every symbol doubled: pairs are dependent
    assert not independence(dep, 16).passed
    drift = np.sort(x)  # frequencies change from part to part
    assert not goodness_of_fit(drift, 16).passed


def test_binary_chi_square() -> None:
    bits = _uniform(100_000, 10, bits=1)
    row = independence(bits, 2)
    # m = 10 (the largest m <= 11 with 100000/m * 0.5^m >= 5): 2^10 - 2 degrees of freedom.
    assert row.df == (1 << 10) - 2 and row.passed
    assert goodness_of_fit(bits, 2).df == 9


def test_lrs_test_flags_long_repeats() -> None:
    x = _uniform(10_000, 12)
    assert lrs_test(x, 256).passed
    rep = x.copy()
    rep[5_000:5_200] = rep[100:300]
    res = lrs_test(rep, 256)
    assert res.w >= 200
    assert not res.passed
