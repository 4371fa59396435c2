"""FIPS 140-2 (change notice of 2001-10-10) block tests, counted as rngtest reports them.

rngtest (rng-tools) reads 32 bits to seed its continuous-run test, then tests each full
20,000-bit block (2,500 bytes; a partial tail is not tested) with monobit, poker, runs,
long run (a run of 26 or more fails) and the continuous run test (two equal consecutive
32-bit little-endian words). Bits are taken most significant first within each byte.

This module reproduces rngtest's counting exactly, including two artefacts of its run
bookkeeping, because a lab compares our counts with rngtest's:

* a run that ends inside the block is tallied under the *other* bit value (the bucket is
  chosen by the bit that ends it); the block's last run under its own value;
* at the start of a block, if the first bit differs from the previous block's last bit
  (0 before the first block), a phantom run is tallied: in the ones' "6+" bucket when the
  first bit is 1, and, when it is 0, one index before the run table, which is the poker
  counter of nibble 15 in rngtest's context structure.

Both buckets have the same limits for zeros and ones, so the first artefact never changes
a verdict; the second rarely does. All blocks are tested at once with NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

BLOCK_BYTES = 2500
BLOCK_BITS = BLOCK_BYTES * 8
TEST_NAMES = (
    "FIPS 140-2(2001-10-10) Monobit",
    "FIPS 140-2(2001-10-10) Poker",
    "FIPS 140-2(2001-10-10) Runs",
    "FIPS 140-2(2001-10-10) Long run",
    "FIPS 140-2(2001-10-10) Continuous run",
)
RUN_LIMITS = ((2315, 2685), (1114, 1386), (527, 723), (240, 384), (103, 209), (103, 209))
POKER_MIN, POKER_MAX = 1563176, 1576928  # sum of squared nibble counts: 2.16 < X < 46.17
MONOBIT_LOW, MONOBIT_HIGH = 9725, 10275  # fails at or beyond either


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockResults:
    """Per-block verdicts (True = failed) for each of the five tests."""

    monobit: NDArray[np.bool_]
    poker: NDArray[np.bool_]
    runs: NDArray[np.bool_]
    long_run: NDArray[np.bool_]
    continuous_run: NDArray[np.bool_]

    @property
    def failed(self) -> NDArray[np.bool_]:
        out: NDArray[np.bool_] = (
            self.monobit | self.poker | self.runs | self.long_run | self.continuous_run
        )
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Fips140Report:
    """rngtest's summary: bits read, blocks passed/failed, failures per test."""

    bits_received: int
    successes: int
    failures: int
    per_test: tuple[int, int, int, int, int]

    def as_dict(self) -> dict[str, object]:
        return {
            "bits_received": self.bits_received,
            "successes": self.successes,
            "failures": self.failures,
            "tests": dict(zip(("monobit", "poker", "runs", "long_run", "continuous_run"),
                              self.per_test, strict=True)),
        }  # fmt: skip

    def rngtest_text(self, prefix: str = "rngtest: ") -> str:
        """The counting lines of rngtest's statistics dump."""
        lines = [
            f"{prefix}bits received from input: {self.bits_received}",
            f"{prefix}FIPS 140-2 successes: {self.successes}",
            f"{prefix}FIPS 140-2 failures: {self.failures}",
        ]
        lines += [f"{prefix}{n}: {c}" for n, c in zip(TEST_NAMES, self.per_test, strict=True)]
        return "\n".join(lines) + "\n"

    @property
    def passed(self) -> bool:
        """rngtest's exit status 0: at least one block, and no block failed."""
        return self.successes > 0 and self.failures == 0


def test_blocks(data: bytes) -> BlockResults:
    """Run the five tests on each full 2,500-byte block after the 4 bootstrap bytes."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if raw.size < 4:
        empty = np.zeros(0, dtype=bool)
        return BlockResults(
            monobit=empty, poker=empty, runs=empty, long_run=empty, continuous_run=empty
        )
    seed = raw[:4]
    count = (raw.size - 4) // BLOCK_BYTES
    blocks = raw[4 : 4 + count * BLOCK_BYTES].reshape(count, BLOCK_BYTES)
    bits = np.unpackbits(blocks, axis=1)  # (count, 20000), MSB first

    ones = bits.sum(axis=1, dtype=np.int64)
    monobit = (ones >= MONOBIT_HIGH) | (ones <= MONOBIT_LOW)

    nibbles = np.stack([blocks >> 4, blocks & 15], axis=2).reshape(count, -1).astype(np.int64)
    poker = np.bincount(
        (np.arange(count)[:, None] * 16 + nibbles).ravel(), minlength=16 * count
    ).reshape(count, 16)

    flat = bits.ravel()
    starts_mask = np.ones_like(bits, dtype=bool)
    starts_mask[:, 1:] = bits[:, 1:] != bits[:, :-1]
    starts = np.flatnonzero(starts_mask.ravel())
    ends = np.append(starts[1:], flat.size)
    lengths = ends - starts
    run_bit = flat[starts].astype(np.int64)
    owner = starts // BLOCK_BITS
    last_in_block = (ends % BLOCK_BITS) == 0
    tally_bit = np.where(last_in_block, run_bit, 1 - run_bit)
    bucket = np.minimum(lengths, 6) - 1 + 6 * tally_bit
    runs = np.bincount(owner * 12 + bucket, minlength=12 * count).reshape(count, 12)
    long_run = np.bincount(owner, weights=lengths >= 26, minlength=count) > 0

    first = bits[:, 0].astype(np.int64)
    prev_last = np.concatenate(([0], bits[:-1, -1])).astype(np.int64)
    phantom = first != prev_last
    runs[:, 5] += phantom & (first == 1)
    poker[:, 15] += phantom & (first == 0)

    poker_sum = (poker * poker).sum(axis=1)
    poker_fail = (poker_sum > POKER_MAX) | (poker_sum < POKER_MIN)
    lows = np.asarray([lo for lo, _ in RUN_LIMITS] * 2)
    highs = np.asarray([hi for _, hi in RUN_LIMITS] * 2)
    runs_fail: NDArray[np.bool_] = np.asarray(((runs < lows) | (runs > highs)).any(axis=1))

    words = np.concatenate([seed, blocks.ravel()]).view("<u4")
    equal = words[1:] == words[:-1]
    continuous = equal.reshape(count, BLOCK_BYTES // 4).any(axis=1) if count else equal[:0]

    return BlockResults(
        monobit=monobit, poker=poker_fail, runs=runs_fail, long_run=long_run,
        continuous_run=continuous,
    )  # fmt: skip


def fips140_2(data: bytes) -> Fips140Report:
    """rngtest's counts for ``data`` (raw bytes, as piped to rngtest's standard input)."""
    res = test_blocks(data)
    failed = res.failed
    per_test = tuple(
        int(np.count_nonzero(a))
        for a in (res.monobit, res.poker, res.runs, res.long_run, res.continuous_run)
    )
    return Fips140Report(
        bits_received=len(data) * 8,
        successes=int(np.count_nonzero(~failed)),
        failures=int(np.count_nonzero(failed)),
        per_test=(per_test[0], per_test[1], per_test[2], per_test[3], per_test[4]),
    )
