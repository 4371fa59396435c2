"""Sources of known entropy are estimated within bounds; biased sources lower."""

from __future__ import annotations

import numpy as np
import pytest

from certification.sp800_90b.errors import SampleDataError, SampleFileError
from certification.sp800_90b.non_iid import assess_non_iid
from certification.sp800_90b.samples import from_array, read_samples


def _uniform(bits: int, n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 1 << bits, n, dtype=np.uint8)


def test_uniform_4bit_source_is_near_4_bits() -> None:
    res = assess_non_iid(from_array(_uniform(4, 20_000, 1)))
    assert res.word_size == 4
    assert res.h_original is not None and res.h_bitstring is not None
    # The estimate is a lower bound: below the true 4 bits but not far below it.
    assert 3.0 < res.h_assessed <= 4.0
    assert res.h_assessed == pytest.approx(min(res.h_original, 4 * res.h_bitstring))


def test_uniform_bits_are_near_one_bit() -> None:
    res = assess_non_iid(from_array(_uniform(1, 20_000, 2)))
    assert res.h_bitstring is None  # binary data: one track only
    assert 0.6 < res.h_assessed <= 1.0


@pytest.mark.slow
def test_biased_source_is_estimated_lower() -> None:
    rng = np.random.default_rng(3)
    fair = _uniform(4, 20_000, 4)
    biased = np.where(rng.random(20_000) < 0.5, 0, fair).astype(np.uint8)
    h_fair = assess_non_iid(from_array(fair)).h_assessed
    h_biased = assess_non_iid(from_array(biased)).h_assessed
    # P(0) ~ 0.53, so min-entropy ~ 0.9 bits per sample.
    assert h_biased < 1.0 < h_fair


def test_repetitive_source_scores_near_zero() -> None:
    pattern = np.tile(np.arange(16, dtype=np.uint8), 150)
    res = assess_non_iid(from_array(pattern))
    assert res.h_assessed < 0.1


def test_one_symbol_is_refused() -> None:
    with pytest.raises(SampleDataError, match="1 symbol"):
        from_array(np.zeros(100, dtype=np.uint8))


def test_declared_width_too_small_is_refused(tmp_path: object) -> None:
    with pytest.raises(SampleFileError, match="does not fit"):
        from_array(np.array([0, 200, 3], dtype=np.uint8), 4)


def test_missing_and_empty_files_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SampleFileError, match="cannot read"):
        read_samples(tmp_path / "nope.bin")
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with pytest.raises(SampleFileError, match="empty"):
        read_samples(empty)


def test_symbols_are_mapped_down_and_bits_kept_raw() -> None:
    s = from_array(np.array([2, 6, 2, 6, 6], dtype=np.uint8))
    assert s.word_size == 3
    assert s.alph_size == 2
    assert s.symbols.tolist() == [0, 1, 0, 1, 1]
    assert s.bits[:6].tolist() == [0, 1, 0, 1, 1, 0]
