"""``serial://PORT?model=...``: real hardware on a serial port (pyserial).

``model`` picks the driver: a serial TRNG (``truerng``, ``truerngpro``,
``truerngprov2``, ``onerng``) or a framed-protocol peripheral (``shoe``, ``dice``,
``wheel``). The port path is the URL target: ``serial:///dev/ttyACM0`` or
``serial://COM3``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge.clock import RealClock
from firmware_bridge.config import build_config, positive
from firmware_bridge.drivers.peripheral import LinkSettings
from firmware_bridge.drivers.serial_trng import KINDS as TRNG_KINDS
from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import Device
from firmware_bridge.transport.serial import open_serial
from firmware_bridge.url import DeviceUrl

PERIPHERALS = ("shoe", "dice", "wheel")


@dataclass(frozen=True, slots=True, kw_only=True)
class SerialConfig:
    """Query keys of ``serial://`` (see docs/devices.md)."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "model": (*TRNG_KINDS, *PERIPHERALS),
        "dice": (2, 3),
        "zeros": (1, 2),
    }
    port: str
    model: str = ""
    baud: int = 115200  # framed peripherals; serial TRNGs choose their own
    mode: str = ""  # serial TRNG mode (TrueRNGpro knock target, OneRNG noise source)
    timeout: float = 1.0
    ack_timeout: float = 0.25
    max_retries: int = 3
    reconnect_attempts: int = 5
    dice: int = 2
    zeros: int = 2

    def __post_init__(self) -> None:
        if not self.port:
            raise ConfigError("serial://: no port given (e.g. serial:///dev/ttyACM0?model=shoe)")
        if not self.model:
            raise ConfigError(
                f"serial://{self.port}: say which device it is with model= "
                f"(one of {', '.join(map(str, self.CHOICES['model']))})"
            )
        for key in ("timeout", "ack_timeout", "baud"):
            positive(f"serial://{self.port}", key, getattr(self, key))


class SerialBackend:
    """Open a device on a real serial port."""

    @classmethod
    def open(cls, url: DeviceUrl, overrides: Mapping[str, object]) -> Device:
        config = build_config(
            SerialConfig, f"serial://{url.target}", {"port": url.target}, {**url.query, **overrides}
        )
        path = config.port
        clock = RealClock()
        if config.model in TRNG_KINDS:
            from firmware_bridge.drivers.serial_trng import SerialTrng

            return SerialTrng(
                url.text,
                lambda baud: open_serial(path, baudrate=baud, timeout=config.timeout),
                clock,
                kind=config.model,
                mode=config.mode,
                timeout=config.timeout,
                reconnect_attempts=config.reconnect_attempts,
            )
        settings = LinkSettings(
            timeout=config.timeout,
            ack_timeout=config.ack_timeout,
            max_retries=config.max_retries,
            reconnect_attempts=config.reconnect_attempts,
        )

        def opener() -> object:
            return open_serial(path, baudrate=config.baud, timeout=config.timeout)

        if config.model == "shoe":
            from firmware_bridge.drivers.shoe import ShoeDriver

            return ShoeDriver(url.text, opener, clock, settings)  # type: ignore[arg-type]
        if config.model == "dice":
            from firmware_bridge.drivers.dice import DiceDriver

            return DiceDriver(url.text, opener, clock, settings, dice=config.dice)  # type: ignore[arg-type]
        from firmware_bridge.drivers.wheel import WheelDriver

        return WheelDriver(url.text, opener, clock, settings, zeros=config.zeros)  # type: ignore[arg-type]
