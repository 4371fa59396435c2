"""The simulators' world: one seeded random source and one clock, never module globals.

A :class:`SimWorld` is passed to every simulator (STYLE.md idiom B), so two
simulators with the same seed behave identically and tests need no global state.
Its clock is a :mod:`firmware_bridge.clock` one: :class:`~firmware_bridge.clock.FakeClock`
advances only when told to (in-process ``sim://``); :class:`~firmware_bridge.clock.RealClock`
follows ``time.monotonic`` (simulators served on a pty).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from firmware_bridge.clock import Clock, FakeClock


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
