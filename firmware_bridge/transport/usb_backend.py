"""``usb://VID:PID?...``: a USB TRNG through pyusb (today: the ChaosKey class).

``backend`` may be given only as a keyword override (a pyusb ``IBackend`` object),
which is how tests and ``sim://chaoskey`` plug the simulated bus in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge.config import build_config, positive
from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import Device
from firmware_bridge.url import DeviceUrl

KNOWN = {(0x1D50, 0x60C6): "chaoskey"}


@dataclass(frozen=True, slots=True, kw_only=True)
class UsbConfig:
    """Query keys of ``usb://`` (see docs/devices.md)."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "model": ("chaoskey",),
        "endpoint": ("cooked", "raw"),
    }
    vid: int
    pid: int
    model: str = "chaoskey"
    serial: str = ""
    endpoint: str = "cooked"
    timeout: float = 1.0
    reconnect_attempts: int = 5
    backend: object = None

    def __post_init__(self) -> None:
        positive("usb://", "timeout", self.timeout)
        if isinstance(self.backend, str):
            raise ConfigError("usb://: backend can only be passed from code, not in the URL")


def parse_ids(target: str) -> tuple[int, int]:
    """``"1d50:60c6"`` -> (0x1D50, 0x60C6), or ConfigError."""
    try:
        vid_text, pid_text = target.strip("/").split(":")
        vid, pid = int(vid_text, 16), int(pid_text, 16)
    except ValueError:
        raise ConfigError(
            f"usb://{target}: expected usb://VID:PID in hex, e.g. usb://1d50:60c6"
        ) from None
    if not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
        raise ConfigError(f"usb://{target}: VID and PID are 16-bit")
    return vid, pid


class UsbBackend:
    """Open a USB TRNG."""

    @classmethod
    def open(cls, url: DeviceUrl, overrides: Mapping[str, object]) -> Device:
        from firmware_bridge.clock import RealClock
        from firmware_bridge.drivers.chaoskey import ChaosKey
        from firmware_bridge.transport.usb import find_usb

        vid, pid = parse_ids(url.target)
        config = build_config(
            UsbConfig, f"usb://{url.target}", {"vid": vid, "pid": pid}, {**url.query, **overrides}
        )
        if (vid, pid) not in KNOWN and "model" not in url.query:
            names = ", ".join(f"{v:04x}:{p:04x} ({m})" for (v, p), m in KNOWN.items())
            raise ConfigError(f"usb://{url.target}: unknown USB TRNG (known: {names})")
        clock = RealClock()

        def finder() -> object:
            return find_usb(vid, pid, serial=config.serial, backend=config.backend)

        return ChaosKey(
            url.text,
            finder,
            clock,
            endpoint=config.endpoint,
            timeout=config.timeout,
            reconnect_attempts=config.reconnect_attempts,
        )
