"""SP 800-90B 4.4 health tests: cutoffs, exact trip points, chunking, fail-closed."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from scipy.stats import binom

from rng.errors import EntropyHealthError, RngConfigError
from rng.health import HealthConfig, HealthTests, apt_cutoff, rct_cutoff
from rng.sources import HealthCheckedSource, SimSource

DATA = Path(__file__).parents[1] / "data" / "rng" / "health_cutoffs.toml"
PUBLISHED = tomllib.loads(DATA.read_text())


@pytest.mark.parametrize("row", PUBLISHED["rct"], ids=lambda r: r["source"])
def test_rct_cutoff_matches_published(row: dict[str, object]) -> None:
    assert rct_cutoff(str(row["min_entropy"]), int(str(row["alpha_log2"]))) == row["cutoff"]


@pytest.mark.parametrize("row", PUBLISHED["apt"], ids=lambda r: r["source"])
def test_apt_cutoff_matches_published(row: dict[str, object]) -> None:
    got = apt_cutoff(
        str(row["min_entropy"]),
        int(str(row["alpha_log2"])),
        int(str(row["window"])),
        int(str(row["bits_per_sample"])),
    )
    assert got == row["cutoff"]


@pytest.mark.parametrize("h", ["0.5", "1", "2.5", "4", "6", "7", "7.5", "8"])
@pytest.mark.parametrize("alpha_log2", [20, 30, 40])
def test_apt_cutoff_is_the_binomial_critical_value(h: str, alpha_log2: int) -> None:
    """C = smallest c with P(X >= c) <= alpha, X ~ Binomial(1024, 2**-H) (scipy agrees)."""
    c = apt_cutoff(h, alpha_log2)
    p, alpha = 2.0 ** -float(h), 2.0**-alpha_log2
    assert binom.sf(c - 1, 1024, p) <= alpha * (1 + 1e-9)
    assert binom.sf(c - 2, 1024, p) > alpha * (1 - 1e-9)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(RngConfigError, match="2\\*\\*-20"):
        rct_cutoff("1", 19)
    with pytest.raises(RngConfigError, match="min-entropy"):
        HealthConfig(min_entropy="9")
    with pytest.raises(RngConfigError, match="not a number"):
        HealthConfig(min_entropy="lots")
    with pytest.raises(RngConfigError, match="1024"):
        HealthConfig(startup_samples=1000)


def started(config: HealthConfig) -> HealthTests:
    t = HealthTests(config, "test")
    t.startup(bytes(range(256)) * 4)
    return t


def test_stuck_source_trips_rct_at_exactly_the_cutoff() -> None:
    config = HealthConfig(min_entropy="7", alpha_log2=30)
    t = started(config)
    c = t.rct_c
    assert c == 1 + -(-30 // 7)  # 6
    t.feed(bytes([9]) * (c - 1))  # C - 1 repeats: still fine
    with pytest.raises(EntropyHealthError, match="repeated 6 times") as info:
        t.feed(bytes([9]))
    assert info.value.test == "RCT"
    assert t.status().rct_failures == 1


def test_apt_trips_when_the_count_reaches_the_cutoff() -> None:
    """A, x, A, y, ...: no runs (RCT silent); B reaches C at window sample 2C - 2."""
    t = started(HealthConfig(min_entropy="7", alpha_log2=30))
    c = t.apt_c
    pattern = bytearray()
    for i in range(t.apt_w):
        pattern.append(0xAA if i % 2 == 0 else i % 200)
    with pytest.raises(EntropyHealthError, match="APT") as info:
        t.feed(bytes(pattern))
    assert f"at sample {1024 + 2 * c - 2}" in str(info.value)
    # One fewer occurrence of A passes.
    t2 = started(HealthConfig(min_entropy="7", alpha_log2=30))
    t2.feed(bytes(pattern[: 2 * c - 3]))


def test_failure_persists_until_reset() -> None:
    t = started(HealthConfig())
    with pytest.raises(EntropyHealthError):
        t.feed(bytes(64))
    with pytest.raises(EntropyHealthError, match="stopped"):
        t.feed(bytes(range(10)))
    t.reset()
    with pytest.raises(EntropyHealthError, match="start-up"):
        t.feed(bytes(range(10)))
    t.startup(bytes(range(256)) * 4)
    t.feed(bytes(range(10)))


def oracle(samples: bytes, rct_c: int, apt_c: int, w: int) -> int | None:
    """Index of the first failing sample, straight from the text of SP 800-90B 4.4.1/4.4.2."""
    a_r, b_r = -1, 0
    a_p, b_p, i_p = -1, 0, 0
    for k, s in enumerate(samples):
        if s == a_r:
            b_r += 1
            if b_r >= rct_c:
                return k
        else:
            a_r, b_r = s, 1
        if i_p == 0:
            a_p, b_p = s, 1
        elif s == a_p:
            b_p += 1
        if b_p >= apt_c:
            return k
        i_p = (i_p + 1) % w
    return None


@pytest.mark.parametrize("seed", range(12))
def test_chunked_vectorised_tests_match_the_scalar_definition(seed: int) -> None:
    rnd = random.Random(seed)
    config = HealthConfig(min_entropy=rnd.choice(["2", "4", "6"]), alpha_log2=20)
    data = bytearray(rnd.randrange(16) for _ in range(6000))  # 4-bit samples: APT close calls
    if seed % 3 == 0:  # plant a long run somewhere
        at = rnd.randrange(5000)
        data[at : at + 30] = bytes([rnd.randrange(16)]) * 30
    t = HealthTests(config, "x")
    t.startup(bytes(range(256)) * 4)
    prefix = bytes(range(256)) * 4
    expected = oracle(prefix + bytes(data), t.rct_c, t.apt_c, t.apt_w)
    got: int | None = None
    pos = 0
    try:
        while pos < len(data):
            n = rnd.choice([1, 7, 100, 1023, 1024, 3000])
            t.feed(bytes(data[pos : pos + n]))
            pos += n
    except EntropyHealthError as exc:
        got = int(str(exc).rsplit("at sample ", 1)[1])
    assert got == expected


@pytest.mark.parametrize(("fault", "test"), [("stuck", "RCT"), ("biased", "RCT")])
def test_faulty_simulated_trng_is_stopped_by_the_startup_test(fault: str, test: str) -> None:
    source = HealthCheckedSource(SimSource(seed=7, fault=fault), HealthConfig())
    with pytest.raises(EntropyHealthError) as info:
        source.read(32)
    assert info.value.test == test
    status = source.status()
    assert status.state == "failed" and status.bytes_served == 0
    # The standard's prediction: a stuck source fails on its C-th sample.
    if fault == "stuck":
        assert status.health.samples == 0 and f"at sample {status.health.rct_cutoff - 1}" in str(
            info.value
        )


def test_biased_source_that_defeats_rct_is_caught_by_apt() -> None:
    """A 90 %-biased source with runs broken up trips APT within its first window."""
    raw = SimSource(seed=3, fault="biased").read(4096)
    broken = bytearray()
    for i, b in enumerate(raw):  # every other sample replaced: no runs
        broken.append(b if i % 2 == 0 else (i * 37) % 256)
    t = started(HealthConfig(min_entropy="7", alpha_log2=30))
    with pytest.raises(EntropyHealthError, match="APT") as info:
        t.feed(bytes(broken))
    at = int(str(info.value).rsplit("at sample ", 1)[1]) - 1024
    assert at < t.apt_w


def test_healthy_source_passes_many_windows() -> None:
    source = HealthCheckedSource(SimSource(seed=11), HealthConfig(min_entropy="7"))
    source.read(1 << 20)
    status = source.status()
    assert status.state == "ok" and status.health.windows >= 1024
    assert status.bytes_read == (1 << 20) + 1024 and status.bytes_served == 1 << 20
