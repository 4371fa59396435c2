"""FIPS 140-2 block tests: our counts equal rngtest's (rng-tools) on the same bytes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from certification.stats.fips140_2 import BLOCK_BYTES, fips140_2

DATA = Path(__file__).resolve().parent.parent / "data" / "nist-sts"


def rngtest_counts(data: bytes) -> list[str]:
    exe = shutil.which("rngtest") or "/usr/bin/rngtest"
    proc = subprocess.run([exe], input=data, capture_output=True, check=False, timeout=120)
    keep = ("bits received", "successes", "failures", "Monobit", "Poker", "Runs", "Long run",
            "Continuous run")  # fmt: skip
    return [
        line
        for line in proc.stderr.decode().splitlines()
        if any(k in line for k in keep) and "speed" not in line
    ]


def _markov(switch: float, blocks: int, seed: int) -> bytes:
    """Bits that change value with probability ``switch``: runs too long or too short."""
    rng = np.random.default_rng(seed)
    flips = rng.random((4 + BLOCK_BYTES * blocks) * 8) < switch
    return np.packbits((np.cumsum(flips) & 1).astype(np.uint8)).tobytes()


CASES = {
    "uniform": lambda: np.random.default_rng(1).integers(0, 256, 4 + BLOCK_BYTES * 300,
                                                         dtype=np.uint8).tobytes(),
    "runs-borderline-low": lambda: _markov(0.485, 400, 2),
    "runs-borderline-high": lambda: _markov(0.515, 400, 3),
    "biased": lambda: np.packbits((np.random.default_rng(4).random(8 * (4 + BLOCK_BYTES * 60))
                                   < 0.51).astype(np.uint8)).tobytes(),
    "zeros-and-tail": lambda: bytes(4 + BLOCK_BYTES * 3 + 777),
    "repeated-words": lambda: bytes(range(256)) * 40,
    "too-short": lambda: b"\x01\x02\x03",
    "sha1": lambda: (DATA / "data.sha1").read_bytes(),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_counts_match_rngtest(name: str) -> None:
    data = CASES[name]()
    ours = fips140_2(data).rngtest_text().splitlines()
    if len(data) < 4:
        assert fips140_2(data).successes == fips140_2(data).failures == 0
        return
    assert ours == rngtest_counts(data)


def test_borderline_data_really_exercises_failures() -> None:
    report = fips140_2(CASES["runs-borderline-low"]())
    assert 0 < report.per_test[2] < report.successes + report.failures  # some, not all
    assert report.per_test[1] > 0  # and the poker test too


def test_zero_blocks_fail_everything_and_exit_status() -> None:
    report = fips140_2(CASES["zeros-and-tail"]())
    assert report.per_test == (3, 3, 3, 3, 3)
    assert not report.passed
    assert report.bits_received == (4 + BLOCK_BYTES * 3 + 777) * 8
