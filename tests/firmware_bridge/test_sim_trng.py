"""sim://trng: determinism per seed, the URL contract, and every injectable fault."""

from __future__ import annotations

import pytest

from firmware_bridge import (
    ConfigError,
    DeviceDisconnected,
    DeviceState,
    DeviceTimeout,
    EntropyDevice,
    open_device,
)
from firmware_bridge.sim.trng import SimTrng


def test_is_an_entropy_device_and_reads_exactly_n() -> None:
    dev = open_device("sim://trng?seed=7")
    assert isinstance(dev, EntropyDevice)
    for n in (0, 1, 7, 4096):
        assert len(dev.read(n)) == n


def test_same_seed_same_stream_independent_of_chunking() -> None:
    a = open_device("sim://trng?seed=7")
    b = open_device("sim://trng?seed=7")
    assert a.read(10) + a.read(90) == b.read(100)


def test_different_seeds_differ() -> None:
    assert open_device("sim://trng?seed=1").read(32) != open_device("sim://trng?seed=2").read(32)


def test_healthy_stream_uses_all_byte_values() -> None:
    data = open_device("sim://trng?seed=11").read(65536)
    counts = [data.count(bytes([v])) for v in range(256)]
    assert min(counts) > 150  # 256 expected per value
    assert max(counts) < 370


def test_stuck_is_constant() -> None:
    data = open_device("sim://trng?seed=1&fault=stuck").read(1000)
    assert len(set(data)) == 1


def test_biased_is_mostly_one_value() -> None:
    data = open_device("sim://trng?seed=1&fault=biased").read(10000)
    top = max(data.count(bytes([v])) for v in range(256))
    assert top > 8500


def test_garbage_is_a_repeating_text() -> None:
    data = open_device("sim://trng?fault=garbage").read(20)
    assert data == b"ERR\r\n" * 4


def test_unplug_from_url_after_some_bytes() -> None:
    dev = open_device("sim://trng?seed=3&fault=unplug&unplug_after=100")
    assert len(dev.read(60)) == 60
    with pytest.raises(DeviceDisconnected):
        dev.read(41)  # would cross byte 100: nothing partial is returned
    status = dev.status()
    assert status.state is DeviceState.DISCONNECTED
    assert "unplug" in str(status.last_fault)
    with pytest.raises(DeviceDisconnected):
        dev.read(1)


def test_slow_times_out_large_reads_but_serves_small_ones() -> None:
    dev = open_device("sim://trng?fault=slow&slow_rate=100&timeout=1")
    assert len(dev.read(50)) == 50
    with pytest.raises(DeviceTimeout):
        dev.read(500)
    with pytest.raises(TimeoutError):  # DeviceTimeout is a TimeoutError too
        dev.read(500, timeout=0.5)
    assert dev.status().counters["fault.timeout"] == 2


def test_inject_at_run_time_and_heal() -> None:
    dev = open_device("sim://trng?seed=5")
    assert isinstance(dev, SimTrng)
    dev.read(10)
    dev.inject("stuck")
    assert dev.read(8) == bytes(8)
    dev.inject("unplug")
    with pytest.raises(DeviceDisconnected):
        dev.read(1)
    dev.inject(None)
    assert len(set(dev.read(64))) > 20
    assert dev.status().state is DeviceState.OK
    assert dev.status().counters["reconnects"] == 1


def test_unknown_fault_is_rejected() -> None:
    dev = open_device("sim://trng")
    assert isinstance(dev, SimTrng)
    with pytest.raises(ConfigError, match="unknown TRNG fault"):
        dev.inject("melted")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("sim://trng?sead=1", "unknown query key 'sead'"),
        ("sim://trng?seed=x", "bad value 'x' for 'seed'"),
        ("sim://trng?fault=melted", "fault='melted' is not one of"),
        ("sim://trng?timeout=0", "timeout must be positive"),
        ("sim://trng?seed=1&seed=2", "given twice"),
        ("sim://toaster", "unknown simulator kind"),
        ("warp://x", "unknown device URL scheme"),
        ("trng", "has no scheme"),
    ],
)
def test_bad_urls_fail_clearly(url: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        open_device(url)


def test_overrides_win_over_query() -> None:
    a = open_device("sim://trng?seed=1", seed=2).read(16)
    assert a == open_device("sim://trng?seed=2").read(16)


def test_close_is_idempotent_and_blocks_reads() -> None:
    dev = open_device("sim://trng")
    with dev:
        pass
    dev.close()
    assert dev.status().state is DeviceState.CLOSED
    with pytest.raises(Exception, match="closed"):
        dev.read(1)  # type: ignore[attr-defined]
