"""URL scheme -> backend, imported lazily (python-can's interface registry).

Entries are ``(module, class)`` strings so that opening ``sim://trng`` never imports
pyusb, and ``croupier devices list`` stays quick. A backend class offers
``open(url, overrides) -> Device``; it validates its own typed config.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Protocol, cast

from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import Device
from firmware_bridge.url import DeviceUrl, parse_url

#: scheme -> (module, class) of its backend
SCHEMES: dict[str, tuple[str, str]] = {
    "sim": ("firmware_bridge.sim.backend", "SimBackend"),
    "pty": ("firmware_bridge.sim.pty_backend", "PtyBackend"),
    "serial": ("firmware_bridge.transport.serial_backend", "SerialBackend"),
    "usb": ("firmware_bridge.transport.usb_backend", "UsbBackend"),
    "replay": ("firmware_bridge.replay", "ReplayBackend"),
}

#: scheme -> whether its backend is a simulator (seeded or recorded outcomes that anyone
#: holding the URL can predict): such a device may never deal on a real-money table.
#: Every scheme of SCHEMES declares itself here; real hardware is only serial:// and usb://.
SIMULATOR: dict[str, bool] = {
    "sim": True,  # in-process simulators, outcomes from ``seed``
    "pty": True,  # the same simulators served on a pseudo-terminal
    "serial": False,
    "usb": False,
    "replay": True,  # a recorded session played back
}
assert SIMULATOR.keys() == SCHEMES.keys(), "every scheme must declare whether it simulates"


def is_simulator(url: str) -> bool:
    """True when ``url`` names a simulated device (an unknown scheme counts as one).

    >>> is_simulator("sim://shoe?seed=7"), is_simulator("serial:///dev/ttyACM0")
    (True, False)
    """
    return SIMULATOR.get(parse_url(url).scheme, True)


class Backend(Protocol):
    """What a scheme's backend class provides."""

    @classmethod
    def open(cls, url: DeviceUrl, overrides: Mapping[str, object]) -> Device: ...


def load_class(module: str, name: str) -> object:
    """Import ``module`` and return its attribute ``name`` (the lazy half of a registry)."""
    return getattr(importlib.import_module(module), name)


def backend_for(scheme: str) -> type[Backend]:
    """The backend class for ``scheme``, or ConfigError listing the known schemes."""
    try:
        module, name = SCHEMES[scheme]
    except KeyError:
        known = ", ".join(f"{s}://" for s in SCHEMES)
        raise ConfigError(f"unknown device URL scheme {scheme!r} (known: {known})") from None
    return cast("type[Backend]", load_class(module, name))


def open_device(url: str, **overrides: object) -> Device:
    """Open the device named by ``url``; keyword overrides win over query keys.

    >>> dev = open_device("sim://trng", seed=3)
    >>> dev.read(4) == open_device("sim://trng?seed=3").read(4)
    True
    """
    parsed = parse_url(url)
    return backend_for(parsed.scheme).open(parsed, overrides)
