"""ChaosKey through real pyusb calls, on the simulated bus (a real usb.backend.IBackend)."""

from __future__ import annotations

import pytest
import usb.core

from firmware_bridge import (
    ConfigError,
    DeviceDisconnected,
    DeviceNotFound,
    DeviceState,
    DeviceTimeout,
    open_device,
)
from firmware_bridge.drivers.chaoskey import ChaosKey
from firmware_bridge.sim.usb_backend import SimChaosKey, SimUsbBackend
from firmware_bridge.sim.world import SimWorld


def test_pyusb_finds_and_configures_the_simulated_chaoskey() -> None:
    bus = SimUsbBackend(SimWorld(1), serial="CK42")
    dev = usb.core.find(idVendor=0x1D50, idProduct=0x60C6, backend=bus)
    assert dev is not None
    assert dev.serial_number == "CK42"  # a string descriptor over a control transfer
    assert dev.manufacturer == "altusmetrum.org"
    dev.set_configuration()
    assert bus.configured == 1
    data = dev.read(0x85, 128, timeout=100)
    assert len(data) == 128
    assert usb.core.find(idVendor=0x04D8, idProduct=0xF5FE, backend=bus) is None


def test_usb_url_with_the_simulated_backend() -> None:
    bus = SimUsbBackend(SimWorld(5))
    with open_device("usb://1d50:60c6", backend=bus) as dev:
        assert isinstance(dev, ChaosKey)
        data = dev.read(1000)
        assert len(data) == 1000
        assert len(set(data)) > 200
        status = dev.status()
        assert (status.model, status.serial_number, status.firmware) == (
            "ChaosKey-hw-1.0-sw-1.9.3",
            "SIM0001",
            "1.9.3",
        )
        assert bus.transfers == 1  # 1000 bytes = 16 packets in one bulk read


def test_usb_url_selects_by_serial() -> None:
    bus = SimUsbBackend(SimWorld(5), serial="A1")
    assert open_device("usb://1d50:60c6?serial=A1", backend=bus).status().serial_number == "A1"
    with pytest.raises(DeviceNotFound, match="serial B2"):
        open_device("usb://1d50:60c6?serial=B2", backend=bus)


def test_same_seed_same_bytes() -> None:
    a = open_device("sim://chaoskey?seed=9")
    b = open_device("sim://chaoskey?seed=9")
    assert a.read(256) == b.read(256)  # type: ignore[attr-defined]


def test_raw_endpoint_carries_12_bit_samples() -> None:
    data = open_device("sim://chaoskey?endpoint=raw&seed=2").read(512)  # type: ignore[attr-defined]
    assert all(hi <= 0x0F for hi in data[1::2])
    assert len(set(data[0::2])) > 100


def test_stuck_fault() -> None:
    assert set(open_device("sim://chaoskey?fault=stuck").read(640)) == {0}  # type: ignore[attr-defined]


def test_slow_fault_times_out() -> None:
    dev = open_device("sim://chaoskey?fault=slow")
    with pytest.raises(DeviceTimeout):
        dev.read(64)  # type: ignore[attr-defined]
    assert dev.status().state is DeviceState.DEGRADED


def test_unplug_then_replug() -> None:
    dev = open_device("sim://chaoskey?seed=4")
    assert isinstance(dev, SimChaosKey)
    dev.read(64)
    dev.inject("unplug")
    with pytest.raises(DeviceDisconnected):
        dev.read(64)
    assert dev.status().state is DeviceState.DISCONNECTED
    with pytest.raises(DeviceDisconnected, match="gave up after 5"):
        dev.read(64)  # still unplugged: the reconnect attempts run out
    dev.inject("none")
    assert len(dev.read(64)) == 64
    assert dev.status().counters["reconnects"] == 1


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("usb://zz:60c6", "expected usb://VID:PID"),
        ("usb://1d50:60c6:1", "expected usb://VID:PID"),
        ("usb://1234:5678", "unknown USB TRNG"),
        ("usb://1d50:60c6?backend=libusb", "only be passed from code"),
        ("usb://1d50:60c6?endpoint=firmware", "not one of"),
    ],
)
def test_bad_usb_urls(url: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        open_device(url)
