"""Query keys of the simulated peripherals (``sim://shoe``, ``pty://dice``...), and their builders.

One frozen, kw_only dataclass per kind; the same keys serve the in-process
(``sim://``) and pseudo-terminal (``pty://``) backends. docs/devices.md lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge.config import positive
from firmware_bridge.drivers.peripheral import LinkSettings
from firmware_bridge.errors import ConfigError
from firmware_bridge.sim.firmware import LINK_FAULTS, DeviceModel, Firmware
from firmware_bridge.sim.models import DiceModel, ShoeModel, WheelModel
from firmware_bridge.sim.spec import DeviceSpec, load_spec
from firmware_bridge.sim.world import SimWorld


@dataclass(frozen=True, slots=True, kw_only=True)
class _PeripheralConfig:
    seed: int = 0
    interval: float = 0.0  # seconds between events (0: as fast as the link goes)
    fault: str = "none"  # injected once the session is up
    replug_after: float = 0.5  # an unplugged device comes back after this long (0: never)
    timeout: float = 1.0
    ack_timeout: float = 0.25
    max_retries: int = 3
    reconnect_attempts: int = 5

    def __post_init__(self) -> None:
        for key in ("timeout", "ack_timeout"):
            positive("device URL", key, getattr(self, key))
        if self.interval < 0 or self.replug_after < 0 or self.max_retries < 0:
            raise ConfigError("device URL: interval, replug_after, max_retries must be >= 0")

    def link_settings(self) -> LinkSettings:
        return LinkSettings(
            timeout=self.timeout,
            ack_timeout=self.ack_timeout,
            max_retries=self.max_retries,
            reconnect_attempts=self.reconnect_attempts,
        )

    def firmware(self, model: DeviceModel, world: SimWorld, spec: DeviceSpec) -> Firmware:
        return Firmware(
            model,
            world.child("link"),
            ack_timeout=self.ack_timeout * 0.8,
            slow_delay=spec.slow_delay,
            replug_after=self.replug_after,
            garbage_bytes=spec.garbage_bytes,
        )

    def identity(self, spec: DeviceSpec) -> tuple[str, str, str]:
        """Model, serial and firmware of the simulated device, from its spec file."""
        fields = {"dice": getattr(self, "dice", 0), "zeros": getattr(self, "zeros", 0)}
        return spec.model.format(**fields), f"{spec.serial_prefix}{self.seed}", spec.firmware


@dataclass(frozen=True, slots=True, kw_only=True)
class SimShoeConfig(_PeripheralConfig):
    """Keys of ``sim://shoe`` / ``pty://shoe``."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "fault": ("none", *LINK_FAULTS, *ShoeModel.FAULTS),
        "decks": tuple(range(1, 9)),
    }
    decks: int = 8
    cut: int = 0  # position of the cut card; 0 puts it at three quarters of the shoe
    burn: int = 1  # cards burned at the start of the shoe

    def build(self, world: SimWorld) -> tuple[ShoeModel, Firmware]:
        total = 52 * self.decks
        cut = self.cut or total * 3 // 4
        if not 0 <= self.burn < total or not 1 <= cut <= total:
            raise ConfigError(f"sim shoe: burn and cut must lie within the {total}-card shoe")
        spec = load_spec("shoe")
        model = ShoeModel(
            world.child("shoe"),
            decks=self.decks,
            cut=cut,
            burn=self.burn,
            interval=self.interval,
            identity=self.identity(spec),
        )
        return model, self.firmware(model, world, spec)


@dataclass(frozen=True, slots=True, kw_only=True)
class SimDiceConfig(_PeripheralConfig):
    """Keys of ``sim://dice`` / ``pty://dice``."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "fault": ("none", *LINK_FAULTS, *DiceModel.FAULTS),
        "dice": (2, 3),
    }
    dice: int = 2

    def build(self, world: SimWorld) -> tuple[DiceModel, Firmware]:
        spec = load_spec("dice")
        model = DiceModel(
            world.child("dice"),
            dice=self.dice,
            interval=self.interval,
            identity=self.identity(spec),
            confidence=spec.confidence,
        )
        return model, self.firmware(model, world, spec)


@dataclass(frozen=True, slots=True, kw_only=True)
class SimWheelConfig(_PeripheralConfig):
    """Keys of ``sim://wheel`` / ``pty://wheel``."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "fault": ("none", *LINK_FAULTS, *WheelModel.FAULTS),
        "zeros": (1, 2),
    }
    zeros: int = 2

    def build(self, world: SimWorld) -> tuple[WheelModel, Firmware]:
        spec = load_spec("wheel")
        model = WheelModel(
            world.child("wheel"),
            zeros=self.zeros,
            interval=self.interval,
            identity=self.identity(spec),
        )
        return model, self.firmware(model, world, spec)
