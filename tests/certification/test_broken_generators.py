"""Broken generators are caught, and the tests name which test catches each.

* a modulo-biased sampler (16-bit words reduced ``% 200`` and emitted as bytes),
* a short-period LCG (x <- 25173 x + 13849 mod 2^16, top byte out: period 65,536 bytes),
* a stuck bit (bit 0 of every byte of a good stream forced to 1),

against a good stream (the rng package's seeded CTR_DRBG) that passes. The same faults
at the game level: a Fisher-Yates shuffle drawing ``byte % (i + 1)`` is caught by the
shuffle position test, and a die made of four bits reduced ``% 6`` by the dice tests.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from certification.outcomes import card_checks, dice_checks
from certification.stats.fips140_2 import fips140_2
from certification.stats.sp800_22 import rows, run_battery
from rng import Rng, SeededBytes

N_BYTES = 125_000  # one 10^6-bit sequence


def _lcg16(n: int, x: int = 12345) -> bytes:
    out = bytearray(n)
    for i in range(n):
        x = (25173 * x + 13849) & 0xFFFF
        out[i] = x >> 8
    return bytes(out)


@cache
def stream(kind: str) -> bytes:
    good = SeededBytes(7).generate(N_BYTES)
    if kind == "good":
        return good
    if kind == "modulo":
        words = np.frombuffer(SeededBytes(8).generate(2 * N_BYTES), dtype="<u2")
        return (words % 200).astype(np.uint8).tobytes()
    if kind == "lcg":
        return _lcg16(N_BYTES)
    if kind == "stuck":
        return (np.frombuffer(good, dtype=np.uint8) | 1).tobytes()
    raise AssertionError(kind)


@cache
def p_values(kind: str) -> dict[tuple[str, str | None], float | None]:
    bits = np.unpackbits(np.frombuffer(stream(kind), dtype=np.uint8))
    return {(r.test, r.variant): r.p_value for r in rows(run_battery(bits))}


CAUGHT_BY = {
    "modulo": [("Frequency", None), ("Runs", None), ("ApproximateEntropy", None), ("Serial", "P1")],
    "stuck": [("Frequency", None), ("Rank", None), ("FFT", None), ("Serial", "P1")],
    "lcg": [("FFT", None), ("Serial", "P1"), ("Serial", "P2")],
}


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "row"), [(k, r) for k, rs in CAUGHT_BY.items() for r in rs])
def test_broken_generator_is_caught(kind: str, row: tuple[str, str | None]) -> None:
    p = p_values(kind)[row]
    assert p is not None
    assert p < 1e-6, f"{row} should reject the {kind} generator, got p = {p}"


@pytest.mark.slow
def test_good_generator_is_not_rejected() -> None:
    values = [p for p in p_values("good").values() if p is not None]
    assert len(values) >= 162  # every row but the excursions, which need J >= 500
    assert min(values) > 1e-4


def test_fips_monobit_catches_bias_and_stuck_bit() -> None:
    assert fips140_2(stream("good")).failures == 0
    for kind in ("modulo", "stuck"):
        report = fips140_2(stream(kind))
        assert report.per_test[0] == report.failures > 40  # monobit fails every block


class ModuloRng:
    """A broken sampler: Fisher-Yates and dice with ``byte % n`` (modulo bias)."""

    def __init__(self, seed: int) -> None:
        self._bytes = SeededBytes(seed)
        self._good = Rng(SeededBytes(seed + 1))

    def _below(self, n: int, count: int) -> np.ndarray:
        raw = np.frombuffer(self._bytes.generate(count), dtype=np.uint8)
        return raw.astype(np.int64) % n

    def randbelow(self, n: int) -> int:
        return int(self._below(n, 1)[0])

    def shoe(self, decks: int, jokers: int = 0) -> list[int]:
        cards = list(range(52)) * decks
        positions = range(len(cards) - 1, 0, -1)
        raw = self._bytes.generate(len(cards) - 1)
        js = [b % (i + 1) for i, b in zip(positions, raw, strict=True)]
        for i, j in zip(positions, js, strict=True):
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]:
        """Four random bits reduced mod ``sides``: faces 1-4 come 3/16, faces 5-6 2/16."""
        raw = np.frombuffer(self._bytes.generate(dice), dtype=np.uint8) & 0x0F
        return tuple(int(v) % sides + 1 for v in raw)


def test_modulo_biased_shuffle_is_caught_by_position_test() -> None:
    broken = ModuloRng(3)
    decks = np.asarray([broken.shoe(1) for _ in range(10_000)], dtype=np.int64)
    checks = {c.name: c for c in card_checks(decks)}
    assert not checks["shuffle-position"].passed
    assert checks["shuffle-position"].p_value < 1e-6
    good = Rng(SeededBytes(4))
    decks = np.asarray([good.shoe(1) for _ in range(3000)], dtype=np.int64)
    assert all(c.passed for c in card_checks(decks))


@pytest.mark.slow
def test_modulo_biased_die_is_caught_by_dice_tests() -> None:
    checks = {c.name: c for c in dice_checks(ModuloRng(5), 20_000)}
    assert not checks["dice-faces"].passed
    assert not checks["dice-sums"].passed
