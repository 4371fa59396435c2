"""One behaviour suite for every entropy backend (EntropyDevice)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_bridge import DeviceDisconnected, DeviceState, EntropyDevice

from .conftest import Opened

Make = Callable[[str], Opened]


def test_is_an_entropy_device(entropy: Make) -> None:
    o = entropy("")
    assert isinstance(o.device, EntropyDevice)
    status = o.device.status()
    assert status.role == "entropy"
    assert status.state is DeviceState.OK
    assert status.model


def test_reads_exactly_n_random_bytes(entropy: Make) -> None:
    dev = entropy("").device
    assert dev.read(0) == b""
    for n in (1, 63, 64, 65, 5000):
        assert len(dev.read(n)) == n
    sample = dev.read(8192)
    assert len(set(sample)) > 240
    assert max(sample.count(bytes([v])) for v in range(256)) < 8192 * 0.02


def test_stuck_fault_is_visible_in_the_bytes(entropy: Make) -> None:
    o = entropy("")
    o.device.read(64)
    o.inject("stuck")
    for _ in range(100):  # bytes already in flight (pty buffers) may still be good
        if set(o.device.read(4096)) == {0}:
            break
    else:
        raise AssertionError("the stuck output never showed")
    assert set(o.device.read(4096)) == {0}  # and it stays stuck: nothing is invented


def test_unplug_raises_and_heals(entropy: Make) -> None:
    o = entropy("")
    o.device.read(64)
    o.inject("unplug")
    with pytest.raises(DeviceDisconnected):  # noqa: PT012 - drain what was in flight
        for _ in range(64):  # pty backends may still hold buffered bytes
            o.device.read(4096, timeout=2.0)
    assert o.device.status().state is DeviceState.DISCONNECTED
    o.inject("none")
    assert len(o.device.read(256, timeout=2.0)) == 256
    assert o.device.status().counters["reconnects"] == 1


def test_close_is_idempotent(entropy: Make) -> None:
    dev = entropy("").device
    dev.close()
    dev.close()
    assert dev.status().state is DeviceState.CLOSED
    with pytest.raises(Exception, match="closed"):
        dev.read(1)
