"""Build the device side of a simulator from ``KEY=VALUE`` settings, for ``devices sim``.

The settings are the query keys of the matching ``pty://KIND`` URL, validated by
the same config dataclasses, so the command line and URLs cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping

from firmware_bridge.clock import RealClock
from firmware_bridge.config import build_config
from firmware_bridge.errors import ConfigError
from firmware_bridge.sim.configs import SimDiceConfig, SimShoeConfig, SimWheelConfig
from firmware_bridge.sim.firmware import Firmware
from firmware_bridge.sim.pty_server import Served
from firmware_bridge.sim.serial_trng import PtyTrngConfig, SerialTrngFirmware
from firmware_bridge.sim.world import SimWorld


def build_served(kind: str, settings: Mapping[str, str]) -> Served:
    """The sans-IO simulated device for ``kind``, configured by ``settings``."""
    where = f"devices sim {kind}"
    if kind == "trng":
        c = build_config(PtyTrngConfig, where, {}, settings)
        return SerialTrngFirmware(
            SimWorld(c.seed, RealClock()),
            kind=c.model,
            start_mode=c.start_mode,
            fault=c.fault,
            unplug_after=c.unplug_after,
            slow_rate=c.slow_rate,
            replug_after=c.replug_after,
        )
    firmware: Firmware
    if kind == "shoe":
        shoe = build_config(SimShoeConfig, where, {}, settings)
        _, firmware = shoe.build(SimWorld(shoe.seed, RealClock()))
        fault = shoe.fault
    elif kind == "dice":
        dice = build_config(SimDiceConfig, where, {}, settings)
        _, firmware = dice.build(SimWorld(dice.seed, RealClock()))
        fault = dice.fault
    elif kind == "wheel":
        wheel = build_config(SimWheelConfig, where, {}, settings)
        _, firmware = wheel.build(SimWorld(wheel.seed, RealClock()))
        fault = wheel.fault
    else:
        raise ConfigError(f"{where}: unknown simulator kind (known: trng, shoe, dice, wheel)")
    if fault != "none":
        firmware.inject(fault)
    return firmware
