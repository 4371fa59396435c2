"""Roulette wheel reader driver: ball launched, winning number, no spin."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from firmware_bridge.clock import Clock
from firmware_bridge.drivers.peripheral import FramedPeripheral, LinkSettings
from firmware_bridge.hal import DeviceEvent, DeviceFault, WinningNumber
from firmware_bridge.protocol.link import Port
from firmware_bridge.protocol.messages import Role


class WheelDriver(FramedPeripheral):
    """A :class:`~firmware_bridge.hal.WheelReader`; "00" on a single-zero wheel is a fault."""

    role = "wheel"
    device_role: ClassVar[Role] = Role.WHEEL

    def __init__(
        self,
        url: str,
        opener: Callable[[], Port],
        clock: Clock,
        settings: LinkSettings | None = None,
        *,
        zeros: int = 2,
    ) -> None:
        if zeros not in (1, 2):
            raise ValueError(f"zeros must be 1 or 2, got {zeros}")
        self.zeros = zeros
        super().__init__(url, opener, clock, settings)

    def _check(self, event: DeviceEvent) -> DeviceEvent:
        if isinstance(event, WinningNumber) and event.number == "00" and self.zeros == 1:
            return DeviceFault(
                seq=event.seq, code="bad-number", message="00 reported by a single-zero wheel"
            )
        return event
