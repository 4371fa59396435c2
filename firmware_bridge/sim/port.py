"""An in-process serial port wired to a simulated device's firmware.

:class:`SimPort` has the part of ``serial.Serial``'s interface the link uses
(``read``, ``write``, ``in_waiting``, ``timeout``, ``close``), and runs on a
:class:`~firmware_bridge.clock.FakeClock`: a read that would wait advances
the clock to the firmware's next wake-up instead of sleeping. When the device is
unplugged it raises ``serial.SerialException`` exactly where pyserial would.
"""

from __future__ import annotations

import serial

from firmware_bridge.clock import FakeClock
from firmware_bridge.errors import DeviceNotFound
from firmware_bridge.sim.firmware import Firmware

_FOREVER = 3600.0


class SimPort:
    """One "cable" to ``firmware``; a new SimPort is a replug."""

    def __init__(self, firmware: Firmware, clock: FakeClock, name: str = "sim") -> None:
        if not firmware.present(clock.now()):
            raise DeviceNotFound(f"{name}: no such device (unplugged)")
        self.firmware = firmware
        self.clock = clock
        self.name = name
        self.timeout: float | None = 1.0
        self._rx = bytearray()
        self._open = True

    def _alive(self) -> None:
        if not self._open:
            raise serial.PortNotOpenError()
        if not self.firmware.present(self.clock.now()):
            self._open = False
            raise serial.SerialException(f"{self.name}: device disconnected")

    @property
    def in_waiting(self) -> int:
        self._alive()
        self._rx += self.firmware.poll(self.clock.now())
        return len(self._rx)

    def write(self, data: bytes, /) -> int:
        self._alive()
        self.firmware.receive(bytes(data), self.clock.now())
        return len(data)

    def read(self, size: int = 1) -> bytes:
        wait = _FOREVER if self.timeout is None else self.timeout
        deadline = self.clock.now() + wait
        while True:
            self._alive()
            now = self.clock.now()
            self._rx += self.firmware.poll(now)
            if self._rx:
                out = bytes(self._rx[:size])
                del self._rx[:size]
                return out
            wake = self.firmware.next_wake(now)
            if wake is None or wake > deadline:
                self.clock.advance(deadline - now)
                self._alive()
                return b""
            self.clock.advance(max(wake - now, 1e-6))

    def reset_input_buffer(self) -> None:
        self._rx.clear()

    def close(self) -> None:
        self._open = False
