"""``sim://shoe``, ``sim://dice``, ``sim://wheel``: the real drivers on an in-process port.

The driver code is exactly the one used for hardware; only the port differs
(:class:`~firmware_bridge.sim.port.SimPort` instead of ``serial.Serial``), and time
is a :class:`~firmware_bridge.clock.FakeClock`, so tests never sleep.
"""

from __future__ import annotations

from firmware_bridge.clock import FakeClock
from firmware_bridge.drivers.dice import DiceDriver
from firmware_bridge.drivers.shoe import ShoeDriver
from firmware_bridge.drivers.wheel import WheelDriver
from firmware_bridge.sim.configs import SimDiceConfig, SimShoeConfig, SimWheelConfig
from firmware_bridge.sim.firmware import Firmware
from firmware_bridge.sim.models import DiceModel, ShoeModel, WheelModel
from firmware_bridge.sim.port import SimPort
from firmware_bridge.sim.world import SimWorld


class _Injectable:
    """Fault injection on a simulated peripheral (``fault=`` in the URL does the same)."""

    sim: Firmware
    fake_clock: FakeClock

    def inject(self, fault: str) -> None:
        """Inject ``fault`` now; see docs/devices.md for the names."""
        self.sim.inject(fault, self.fake_clock.now())


def _opener(firmware: Firmware, clock: FakeClock, url: str) -> SimPort:
    return SimPort(firmware, clock, url)


class SimShoe(_Injectable, ShoeDriver):
    """An in-process simulated card shoe."""

    Config = SimShoeConfig

    def __init__(self, url: str, config: SimShoeConfig) -> None:
        clock = FakeClock()
        self.world = SimWorld(config.seed, clock)
        self.shoe: ShoeModel
        self.shoe, self.sim = config.build(self.world)
        fw = self.sim
        super().__init__(url, lambda: _opener(fw, clock, url), clock, config.link_settings())
        self.fake_clock = clock
        if config.fault != "none":
            self.inject(config.fault)


class SimDice(_Injectable, DiceDriver):
    """An in-process simulated dice reader."""

    Config = SimDiceConfig

    def __init__(self, url: str, config: SimDiceConfig) -> None:
        clock = FakeClock()
        self.world = SimWorld(config.seed, clock)
        self.reader: DiceModel
        self.reader, self.sim = config.build(self.world)
        fw = self.sim
        super().__init__(
            url, lambda: _opener(fw, clock, url), clock, config.link_settings(), dice=config.dice
        )
        self.fake_clock = clock
        if config.fault != "none":
            self.inject(config.fault)


class SimWheel(_Injectable, WheelDriver):
    """An in-process simulated roulette wheel reader."""

    Config = SimWheelConfig

    def __init__(self, url: str, config: SimWheelConfig) -> None:
        clock = FakeClock()
        self.world = SimWorld(config.seed, clock)
        self.wheel: WheelModel
        self.wheel, self.sim = config.build(self.world)
        fw = self.sim
        super().__init__(
            url, lambda: _opener(fw, clock, url), clock, config.link_settings(), zeros=config.zeros
        )
        self.fake_clock = clock
        if config.fault != "none":
            self.inject(config.fault)
