"""SP 800-90B section 4.4 continuous health tests, and the start-up test (4.3).

Repetition Count Test (4.4.1): fails when one sample value repeats C times in a
row, C = 1 + ceil(-log2(alpha) / H).

Adaptive Proportion Test (4.4.2): non-overlapping windows of W samples (1024 for
non-binary samples, 512 for binary); A is the window's first sample, B counts the
samples of the window equal to A (A itself included); the test fails as soon as
B reaches C, where C = 1 + CRITBINOM(W, 2**-H, 1 - alpha), i.e. the smallest c with
P(X >= c) <= alpha for X ~ Binomial(W, 2**-H).

H is the claimed min-entropy per sample (bits) and alpha = 2**-alpha_log2 the
false-positive probability (alpha_log2 in 20..40). Both cutoffs are computed once,
when the tests are configured, in exact or 80-digit decimal arithmetic; the hot
path compares integers only (NumPy over whole chunks of samples).

A failure fails closed: :meth:`HealthTests.feed` raises EntropyHealthError, and every
later call raises too, until :meth:`HealthTests.reset` (a new start-up test).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np

from rng.errors import EntropyHealthError, RngConfigError

STARTUP_MIN_SAMPLES = 1024  # SP 800-90B 4.3: at least 1024 consecutive samples
ALPHA_LOG2_RANGE = range(20, 41)


def _entropy(h: str | int | Decimal, bits_per_sample: int) -> Decimal:
    try:
        value = Decimal(str(h))
    except ArithmeticError:
        raise RngConfigError(f"claimed min-entropy {h!r} is not a number") from None
    if not value.is_finite() or not 0 < value <= bits_per_sample:
        raise RngConfigError(
            f"claimed min-entropy {h} must be in (0, {bits_per_sample}] bits per sample"
        )
    return value


def _alpha(alpha_log2: int) -> None:
    if alpha_log2 not in ALPHA_LOG2_RANGE:
        raise RngConfigError(f"alpha = 2**-{alpha_log2} is outside 2**-20 .. 2**-40")


def rct_cutoff(h: str | int | Decimal, alpha_log2: int, bits_per_sample: int = 8) -> int:
    """C = 1 + ceil(alpha_log2 / H) (SP 800-90B 4.4.1), in exact rational arithmetic.

    >>> rct_cutoff("0.5", 20)
    41
    >>> rct_cutoff(8, 20)
    4
    """
    _alpha(alpha_log2)
    value = Fraction(_entropy(h, bits_per_sample))
    return 1 + math.ceil(Fraction(alpha_log2) / value)


def apt_window(bits_per_sample: int) -> int:
    """W = 512 for binary samples, 1024 otherwise (SP 800-90B 4.4.2)."""
    return 512 if bits_per_sample == 1 else 1024


def apt_cutoff(
    h: str | int | Decimal, alpha_log2: int, window: int = 1024, bits_per_sample: int = 8
) -> int:
    """Smallest c with P(X >= c) <= 2**-alpha_log2, X ~ Binomial(window, 2**-H).

    >>> apt_cutoff("0.5", 20, 512, 1)
    410
    >>> apt_cutoff(8, 20, 512)
    13
    """
    _alpha(alpha_log2)
    value = _entropy(h, bits_per_sample)
    with localcontext() as ctx:
        ctx.prec = 80
        p = Decimal(2) ** (-value)
        q = 1 - p
        alpha = Decimal(2) ** (-alpha_log2)
        # pmf(k) for k = 0..W, then the upper tail from the top down.
        pmf = [Decimal(math.comb(window, k)) * p**k * q ** (window - k) for k in range(window + 1)]
        tail = Decimal(0)
        c = window + 1  # P(X >= W + 1) = 0 <= alpha
        for k in range(window, -1, -1):
            tail += pmf[k]
            if tail > alpha:
                break
            c = k
    return c


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthConfig:
    """What the tests need: claimed min-entropy per sample, alpha, sample width."""

    min_entropy: str = "7"  # bits per sample, a decimal string (exact)
    alpha_log2: int = 30
    bits_per_sample: int = 8
    startup_samples: int = STARTUP_MIN_SAMPLES

    def __post_init__(self) -> None:
        if self.bits_per_sample not in (1, 8):
            raise RngConfigError("bits_per_sample must be 1 or 8")
        _entropy(self.min_entropy, self.bits_per_sample)
        _alpha(self.alpha_log2)
        if self.startup_samples < STARTUP_MIN_SAMPLES:
            raise RngConfigError(
                f"startup_samples {self.startup_samples} < {STARTUP_MIN_SAMPLES} (SP 800-90B 4.3)"
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthStatus:
    """A snapshot for the operator console and ``croupier rng health``."""

    rct_cutoff: int
    apt_cutoff: int
    apt_window: int
    started: bool  # the start-up test has passed
    failed: bool  # a test failed; the source is stopped until reset
    samples: int  # samples tested since the last reset
    windows: int  # complete APT windows
    longest_run: int  # the longest run of one value seen (RCT statistic)
    highest_proportion: int  # the highest APT count B seen
    rct_failures: int  # failures since the object was made (survive reset)
    apt_failures: int
    startup_runs: int
    last_failure: str | None


class HealthTests:
    """RCT and APT over a stream of samples (one sample per byte), fed in chunks."""

    def __init__(self, config: HealthConfig, source: str = "") -> None:
        self.config = config
        self.source = source
        self.rct_c = rct_cutoff(config.min_entropy, config.alpha_log2, config.bits_per_sample)
        self.apt_w = apt_window(config.bits_per_sample)
        self.apt_c = apt_cutoff(
            config.min_entropy, config.alpha_log2, self.apt_w, config.bits_per_sample
        )
        self.rct_failures = 0
        self.apt_failures = 0
        self.startup_runs = 0
        self.last_failure: str | None = None
        self.reset()

    def reset(self) -> None:
        """Forget the stream (after an operator restart); a new start-up test is due."""
        self.started = False
        self.failed = False
        self.samples = 0
        self.windows = 0
        self.longest_run = 0
        self.highest_proportion = 0
        self._last = -1  # RCT: value of the current run (-1: none yet)
        self._run = 0
        self._a = -1  # APT: the current window's first sample
        self._b = 0
        self._i = 0  # samples of the current window seen (0: no window open)

    def status(self) -> HealthStatus:
        return HealthStatus(
            rct_cutoff=self.rct_c,
            apt_cutoff=self.apt_c,
            apt_window=self.apt_w,
            started=self.started,
            failed=self.failed,
            samples=self.samples,
            windows=self.windows,
            longest_run=self.longest_run,
            highest_proportion=self.highest_proportion,
            rct_failures=self.rct_failures,
            apt_failures=self.apt_failures,
            startup_runs=self.startup_runs,
            last_failure=self.last_failure,
        )

    def startup(self, samples: bytes) -> None:
        """The start-up test (4.3): the continuous tests over >= startup_samples samples."""
        if len(samples) < self.config.startup_samples:
            raise EntropyHealthError(
                f"{self.source}: start-up test needs {self.config.startup_samples} samples, "
                f"got {len(samples)}",
                test="startup",
                source=self.source,
            )
        self.reset()
        self.startup_runs += 1
        self._check(samples)
        self.started = True

    def feed(self, samples: bytes) -> None:
        """Run the continuous tests over ``samples``; raise EntropyHealthError on failure."""
        if not self.started:
            raise EntropyHealthError(
                f"{self.source}: start-up test has not passed", test="startup", source=self.source
            )
        self._check(samples)

    def _fail(self, test: str, message: str) -> None:
        self.failed = True
        if test == "RCT":
            self.rct_failures += 1
        else:
            self.apt_failures += 1
        self.last_failure = f"{test}: {message}"
        raise EntropyHealthError(
            f"{self.source}: {self.last_failure}", test=test, source=self.source
        )

    def _check(self, samples: bytes) -> None:
        if self.failed:
            raise EntropyHealthError(
                f"{self.source}: stopped after a health-test failure ({self.last_failure})",
                test="stopped",
                source=self.source,
            )
        x = np.frombuffer(samples, dtype=np.uint8)
        if self.config.bits_per_sample == 1 and x.size and int(x.max()) > 1:
            self._fail("format", "binary source delivered a sample other than 0 or 1")
        if x.size == 0:
            return
        base = self.samples
        self._rct(x, base)
        self._apt(x, base)
        self.samples += int(x.size)

    def _rct(self, x: np.ndarray, base: int) -> None:
        starts = np.concatenate(([0], np.flatnonzero(x[1:] != x[:-1]) + 1))
        lengths = np.diff(np.concatenate((starts, [x.size])))
        carried = self._run if int(x[0]) == self._last else 0
        lengths[0] += carried
        self.longest_run = max(self.longest_run, int(lengths.max()))
        bad = np.flatnonzero(lengths >= self.rct_c)
        if bad.size:
            j = int(bad[0])
            offset = int(starts[j]) + self.rct_c - 1 - (carried if j == 0 else 0)
            value = int(x[starts[j]])
            self._fail(
                "RCT",
                f"value 0x{value:02x} repeated {self.rct_c} times in a row "
                f"(cutoff {self.rct_c}) at sample {base + offset}",
            )
        self._last = int(x[-1])
        self._run = int(lengths[-1])

    def _apt_fail(self, window: np.ndarray, b0: int, a: int, at: int) -> None:
        hits = b0 + np.cumsum(window == a)
        k = int(np.flatnonzero(hits >= self.apt_c)[0])
        self._fail(
            "APT",
            f"value 0x{a:02x} seen {self.apt_c} times in a window of {self.apt_w} "
            f"(cutoff {self.apt_c}) at sample {at + k}",
        )

    def _apt(self, x: np.ndarray, base: int) -> None:
        w, c, pos, n = self.apt_w, self.apt_c, 0, int(x.size)
        if self._i:  # finish the open window
            part = x[: w - self._i]
            b = self._b + int(np.count_nonzero(part == self._a))
            self.highest_proportion = max(self.highest_proportion, b)
            if b >= c:
                self._apt_fail(part, self._b, self._a, base)
            self._b, self._i, pos = b, self._i + int(part.size), int(part.size)
            if self._i == w:
                self._i = 0
                self.windows += 1
        m = (n - pos) // w
        if m:
            block = x[pos : pos + m * w].reshape(m, w)
            counts = np.count_nonzero(block == block[:, :1], axis=1)
            self.highest_proportion = max(self.highest_proportion, int(counts.max()))
            bad = np.flatnonzero(counts >= c)
            if bad.size:
                j = int(bad[0])
                row = block[j]
                self._apt_fail(row[1:], 1, int(row[0]), base + pos + j * w + 1)
            self.windows += m
            pos += m * w
        if pos < n:  # open a new window with the tail
            tail = x[pos:]
            a = int(tail[0])
            b = int(np.count_nonzero(tail == a))
            self.highest_proportion = max(self.highest_proportion, b)
            if b >= c:
                self._apt_fail(tail[1:], 1, a, base + pos + 1)
            self._a, self._b, self._i = a, b, int(tail.size)
            if self._i == w:
                self._i = 0
                self.windows += 1
