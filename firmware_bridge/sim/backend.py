"""The ``sim://KIND?...`` backend: simulators running in this process.

Kinds are registered lazily like schemes. Each simulator class has a ``Config``
dataclass (its query keys) and is built as ``cls(url, config)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, cast

from firmware_bridge.config import build_config
from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import Device
from firmware_bridge.registry import load_class
from firmware_bridge.url import DeviceUrl

#: kind -> (module, class) of the in-process simulator
KINDS: dict[str, tuple[str, str]] = {
    "trng": ("firmware_bridge.sim.trng", "SimTrng"),
    "chaoskey": ("firmware_bridge.sim.usb_backend", "SimChaosKey"),
    "shoe": ("firmware_bridge.sim.inprocess", "SimShoe"),
    "dice": ("firmware_bridge.sim.inprocess", "SimDice"),
    "wheel": ("firmware_bridge.sim.inprocess", "SimWheel"),
}


class SimDeviceClass(Protocol):
    """A simulator class: its config type and its constructor."""

    Config: type

    def __call__(self, url: str, config: object) -> Device: ...


def sim_class(scheme: str, kind: str, kinds: Mapping[str, tuple[str, str]]) -> SimDeviceClass:
    """The simulator class for ``kind``, or ConfigError listing the kinds."""
    try:
        module, name = kinds[kind]
    except KeyError:
        known = ", ".join(kinds)
        raise ConfigError(f"{scheme}://{kind}: unknown simulator kind (known: {known})") from None
    return cast(SimDeviceClass, load_class(module, name))


class SimBackend:
    """Open an in-process simulator."""

    @classmethod
    def open(cls, url: DeviceUrl, overrides: Mapping[str, object]) -> Device:
        kind = url.target.strip("/")
        dev_cls = sim_class("sim", kind, KINDS)
        config: object = build_config(
            dev_cls.Config, f"sim://{kind}", {}, {**url.query, **overrides}
        )
        return dev_cls(url.text, config)
