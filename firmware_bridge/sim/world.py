"""The simulators' world: one seeded random source and one clock, never module globals.

A :class:`SimWorld` is passed to every simulator (STYLE.md idiom B), so two
simulators with the same seed behave identically and tests need no global state.
:class:`FakeClock` advances only when told to (in-process ``sim://``);
:class:`RealClock` follows ``time.monotonic`` (simulators served on a pty).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Protocol


class Clock(Protocol):
    """Time as the simulator sees it."""

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
    """Monotonic wall time, for simulators that talk to a real pty."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


@dataclass(slots=True)
class SimWorld:
    """Seeded randomness plus a clock, shared by the simulators of one test or process."""

    seed: int = 0
    clock: Clock = field(default_factory=FakeClock)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def child(self, name: str) -> random.Random:
        """An independent stream for one component, derived from the seed and a name."""
        return random.Random(f"{self.seed}:{name}")
