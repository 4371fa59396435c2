"""rng's factory and device source wired to the device layer, as the appliance wires them.

rng imports no device code: whoever builds an RNG hands it ``firmware_bridge``'s
opener. The tests that drive the hardware path through firmware_bridge's simulators
import these instead of the bare ``rng`` names.
"""

from __future__ import annotations

from firmware_bridge import ENTROPY_OPENER, SCHEMES
from rng import factory, sources
from rng.config import RngConfig


def open_rng(
    config: RngConfig, *, real_money: bool, start: bool = True, watchdog: bool = True
) -> factory.RngStack:
    """:func:`rng.factory.open_rng` with firmware_bridge's opener."""
    return factory.open_rng(
        config, real_money=real_money, opener=ENTROPY_OPENER, start=start, watchdog=watchdog
    )


class DeviceSource(sources.DeviceSource):
    """:class:`rng.sources.DeviceSource` on firmware_bridge's opener."""

    def __init__(self, url: str, *, timeout: float | None = None) -> None:
        super().__init__(url, opener=ENTROPY_OPENER, timeout=timeout)


#: the device schemes rng treats as simulated (not for play), as its device source reports them
SIMULATED_SCHEMES = tuple(s for s in SCHEMES if not DeviceSource(f"{s}://device").for_play)
