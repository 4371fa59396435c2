"""URL scheme -> backend, imported lazily (python-can's interface registry).

Entries are ``(module, class)`` strings so that opening ``sim://trng`` never imports
pyusb, and ``croupier devices list`` stays quick. A backend class offers
``open(url, overrides) -> Device``; it validates its own typed config.

:data:`ENTROPY_OPENER` is this registry as a layer above is handed it: ``rng``'s
factory takes it (injected by the appliance and the CLIs), so rng neither imports
the device layer nor keeps its own list of simulated schemes.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Final, Protocol, cast

from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import Device, EntropyDevice
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


def _unknown_scheme(scheme: str) -> str:
    known = ", ".join(f"{s}://" for s in SCHEMES)
    return f"unknown device URL scheme {scheme!r} (known: {known})"


def backend_for(scheme: str) -> type[Backend]:
    """The backend class for ``scheme``, or ConfigError listing the known schemes."""
    try:
        module, name = SCHEMES[scheme]
    except KeyError:
        raise ConfigError(_unknown_scheme(scheme)) from None
    return cast("type[Backend]", load_class(module, name))


def open_device(url: str, **overrides: object) -> Device:
    """Open the device named by ``url``; keyword overrides win over query keys.

    >>> dev = open_device("sim://trng", seed=3)
    >>> dev.read(4) == open_device("sim://trng?seed=3").read(4)
    True
    """
    parsed = parse_url(url)
    return backend_for(parsed.scheme).open(parsed, overrides)


class EntropyOpener:
    """Opens entropy devices by URL and says which URLs simulate, for a layer that is handed it.

    ``rng.factory.open_rng(..., opener=ENTROPY_OPENER)`` reaches a hardware TRNG only
    through this object: the URL's backend, and whether it may serve a real-money
    table (:data:`SIMULATOR`), stay the device layer's knowledge.

    >>> ENTROPY_OPENER.is_simulator("sim://trng"), ENTROPY_OPENER.is_simulator("usb://chaoskey")
    (True, False)
    >>> len(ENTROPY_OPENER("sim://trng?seed=1").read(8))
    8
    """

    def __call__(self, url: str, /) -> EntropyDevice:
        """The entropy device at ``url``; ConfigError when the URL names another role."""
        device = open_device(url)
        if not isinstance(device, EntropyDevice):
            role = device.status().role
            device.close()
            raise ConfigError(f"{url} is a {role} device, not an entropy source")
        return device

    def is_simulator(self, url: str, /) -> bool:
        """True when ``url`` names a simulated device (never for play).

        Asked before anything is opened, so a URL that could never be opened fails here,
        loudly: ConfigError for a malformed URL or an unknown scheme.
        """
        scheme = parse_url(url).scheme
        if scheme not in SCHEMES:
            raise ConfigError(_unknown_scheme(scheme))
        return SIMULATOR[scheme]


#: the one opener a higher layer is given for entropy devices
ENTROPY_OPENER: Final = EntropyOpener()
