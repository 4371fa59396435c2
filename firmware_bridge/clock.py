"""Time as the device layer sees it: one ``Clock`` protocol, a fake and a real one.

Drivers, transports and the protocol link wait and time out through a :class:`Clock`
they are given, never through ``time`` directly, so the same code runs on hardware
(:class:`RealClock`) and, in tests, on a clock that moves only when told to
(:class:`FakeClock`). It lives at the bottom of the device layer: ``drivers/``,
``transport/``, ``protocol/`` and ``sim/`` all import it, and it imports none of them.

>>> clock = FakeClock()
>>> clock.sleep(1.5)
>>> clock.now()
1.5
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol


class Clock(Protocol):
    """A monotonic time source that can also wait."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


@dataclass(slots=True)
class FakeClock:
    """A clock that moves only when ``sleep``/``advance`` is called: tests never wait."""

    t: float = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        if seconds > 0:
            self.t += seconds


class RealClock:
    """Monotonic wall time: hardware, and simulators that talk to a real pty."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)
