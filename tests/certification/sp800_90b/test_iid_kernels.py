"""The IID track against ``ea_iid`` and its compiled loops: NumPy's PCG64 stream, unbiased
shuffles, the 19 statistics equal to ``ea_iid``'s on NIST's files and to plain NumPy on
random data, the chi-square scores and p-values equal to the tool's."""

from __future__ import annotations

import bz2
import itertools
import re
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from certification.sp800_90b import permutation
from certification.sp800_90b.chisquare import goodness_of_fit, independence
from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.iid_kernels import (
    pcg64_words,
    shuffle_into,
    statistics_into,
    text_into,
)
from certification.sp800_90b.permutation import (
    NAMES,
    original_statistics,
    permutation_tests,
)
from certification.sp800_90b.samples import read_samples

DATA = Path(__file__).resolve().parents[2] / "data" / "sp800-90b"
U8 = npt.NDArray[np.uint8]


def _state(seed: int, index: int) -> npt.NDArray[np.uint64]:
    return permutation._pcg64_state(seed, index)


def test_words_are_numpys_pcg64_stream() -> None:
    for seed, index in ((0, 0), (7, 1), (2**40 + 3, 9_999)):
        numpy_gen = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,)))
        assert np.array_equal(pcg64_words(_state(seed, index), 1000), numpy_gen.random_raw(1000))


def test_shuffles_are_uniform_and_seeded() -> None:
    base = np.arange(4, dtype=np.uint8)
    out = np.empty_like(base)
    seen: dict[bytes, int] = {}
    draws = 4800
    for i in range(draws):
        shuffle_into(base, out, _state(3, i))
        seen[out.tobytes()] = seen.get(out.tobytes(), 0) + 1
    assert set(seen) == {bytes(p) for p in itertools.permutations(range(4))}
    expect = draws / 24
    chi2 = sum((c - expect) ** 2 / expect for c in seen.values())
    assert chi2 < 49.7  # 23 degrees of freedom, p = 0.001
    big = np.arange(200, dtype=np.uint8)
    a, b = np.empty_like(big), np.empty_like(big)
    shuffle_into(big, a, _state(5, 2))
    shuffle_into(big, b, _state(5, 2))
    assert np.array_equal(a, b) and sorted(a.tolist()) == list(range(200))


def _runs(alt: npt.NDArray[np.bool_]) -> tuple[int, int]:
    edges = np.concatenate(([0], np.flatnonzero(alt[1:] != alt[:-1]) + 1, [alt.size]))
    return edges.size - 1, int(np.diff(edges).max())


def _collisions(x: npt.NDArray[np.int64]) -> tuple[float, int]:
    waits, start, seen = [], 0, set()
    for j, v in enumerate(x.tolist()):
        if v in seen:
            waits.append(j - start + 1)
            start, seen = j + 1, set()
        else:
            seen.add(v)
    return (sum(waits) / len(waits), max(waits)) if waits else (0.0, -1)


def _reference(raw: U8, binary: bool) -> list[float]:
    """The 18 counting statistics written straight from SP 800-90B 5.1 in NumPy."""
    x = raw.astype(np.int64)
    n = x.size
    if binary:
        blocks = x[: n // 8 * 8].reshape(-1, 8)
        c1, c2, median = blocks.sum(axis=1), blocks @ (1 << np.arange(7, -1, -1)), 0.5
    else:
        c1 = c2 = x
        median = float(np.median(x))
    s = np.cumsum(x)
    excursion = float(np.abs(n * s - np.arange(1, n + 1) * s[-1]).max()) / n
    up = c1[:-1] <= c1[1:]
    nd, ld = _runs(up)
    inc = int(up.sum())
    nm, lm = _runs(x >= median)
    avg, mx = _collisions(c2)
    per = [int((c1[:-p] == c1[p:]).sum()) for p in permutation.LAGS]
    cov = [int((c1[:-p] * c1[p:]).sum()) for p in permutation.LAGS]
    return [excursion, nd, ld, max(inc, up.size - inc), nm, lm, avg, mx, *per, *cov]


@pytest.mark.parametrize(
    ("bits", "binary"), [(8, False), (3, False), (1, True)], ids=["8-bit", "3-bit", "binary"]
)
def test_kernel_statistics_equal_plain_numpy(bits: int, binary: bool) -> None:
    rng = np.random.default_rng(bits)
    for n in (40_000, 40_003):
        x = rng.integers(0, 1 << bits, n, dtype=np.uint8)
        walk = (np.cumsum(rng.integers(-2, 3, n)) % (1 << bits)).astype(np.uint8)
        for data in (x, walk):
            out = np.full(19, np.nan)
            median = 0.5 if binary else float(np.median(data))
            statistics_into(data, binary, median, np.ones(19, dtype=bool), out)
            assert out[:18].tolist() == _reference(data, binary)
            assert np.isnan(out[18])


def test_statistics_not_needed_are_not_computed() -> None:
    x = np.random.default_rng(1).integers(0, 256, 5_000, dtype=np.uint8)
    need = np.zeros(19, dtype=bool)
    need[12] = True  # periodicity(32) and its covariance share a loop
    out = np.full(19, np.nan)
    statistics_into(x, False, 127.5, need, out)
    assert set(np.flatnonzero(~np.isnan(out)).tolist()) == {12, 17}


@pytest.mark.parametrize(
    ("name", "bits"),
    [("truerand_8bit", 8), ("rand8_short", 8), ("rand4_short", 4), ("rand1_short", 1)],
)
def test_unshuffled_statistics_equal_ea_iid(name: str, bits: int) -> None:
    """``<name>.iid`` is ``ea_iid -v -v -v <name>.bin <bits>``'s output, unedited."""
    text = (DATA / f"{name}.iid").read_text()
    theirs = {k: float(v) for k, v in re.findall(r"Unpermuted result (\S+) = (\S+)", text)}
    samples = read_samples(DATA / f"{name}.bin", bits)
    values = original_statistics(samples.raw, samples.alph_size == 2).tolist()
    ours = dict(zip(NAMES, values, strict=True))
    assert set(ours) == set(theirs)
    for key, value in ours.items():
        # the excursion is exact here (integers, rounded once); the tool's long double
        # sums of 10^6 terms are off in the 14th digit
        expect = pytest.approx(theirs[key], rel=1e-12) if key == "excursion" else theirs[key]
        assert value == expect, key


def test_text_and_sliced_bzip2_equal_the_whole_stream() -> None:
    x = np.random.default_rng(4).integers(0, 256, 700_000, dtype=np.uint8)
    buf = np.empty(4 * x.size + 1, dtype=np.uint8)
    size = text_into(x, buf)
    text = " ".join(map(str, x.tolist())).encode()
    assert buf[:size].tobytes() == text
    assert permutation._compressed_length(x, buf) == len(bz2.compress(text, 5))
    stop = threading.Event()
    stop.set()
    assert np.isnan(permutation._compressed_length(x, buf, stop))


def test_counts_do_not_depend_on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    x = np.random.default_rng(8).integers(0, 16, 4_000, dtype=np.uint8)
    two = permutation_tests(x, False, seed=5, shuffles=300)
    monkeypatch.setattr(permutation, "WORKERS", 1)
    one = permutation_tests(x, False, seed=5, shuffles=300)
    assert one == two
    assert permutation_tests(x, False, seed=6, shuffles=300) != two


@pytest.mark.parametrize(
    ("name", "bits"),
    [("truerand_8bit", 8), ("rand8_short", 8), ("rand4_short", 4), ("rand1_short", 1)],
)
def test_chi_square_equals_ea_iid(name: str, bits: int) -> None:
    text = (DATA / f"{name}.iid").read_text()
    samples = read_samples(DATA / f"{name}.bin", bits)
    for row, key in (
        (independence(samples.symbols, samples.alph_size), "independence"),
        (goodness_of_fit(samples.symbols, samples.alph_size), "goodness of fit"),
    ):
        found = dict(re.findall(rf"Chi square {key}: (T|df|P-value) = (\S+)", text))
        assert row.score == float(found["T"]), key  # the tool prints 17 digits
        assert row.df == int(found["df"]), key
        # Q(df/2, T/2) here agrees with scipy.special.gammaincc to 1e-15; the tool's is off
        # by 1.4e-11 (relative) at df = 65,280
        assert row.p_value == pytest.approx(float(found["P-value"]), rel=1e-10), key


def test_too_many_samples_to_shuffle_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(permutation, "MAX_SHUFFLE", 10)
    with pytest.raises(SampleDataError, match="shuffle at most 10"):
        permutation_tests(np.zeros(11, dtype=np.uint8), False, shuffles=5)
