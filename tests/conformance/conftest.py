"""Every backend of a role, opened the same way, so one behaviour suite runs on all.

A fixture yields an :class:`Opened`: the device (through its public URL), a way to
inject a fault into whatever simulates it, and the simulator's own record of what
it reported (ground truth the test compares with). Backends:

- entropy: ``sim://trng``, ``pty://trng`` (TrueRNG, TrueRNGpro, OneRNG through pyserial),
  ``sim://chaoskey`` and ``usb://1d50:60c6`` (pyusb on the simulated bus);
- shoe / dice / wheel: ``sim://`` (in-process port), ``pty://`` and ``serial://`` (pyserial
  on a pty served by a simulator, the same path real hardware takes).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import open_device
from firmware_bridge.clock import RealClock
from firmware_bridge.hal import Device
from firmware_bridge.sim.configs import SimDiceConfig, SimShoeConfig, SimWheelConfig
from firmware_bridge.sim.pty_server import PtyServer
from firmware_bridge.sim.usb_backend import SimUsbBackend
from firmware_bridge.sim.world import SimWorld


@dataclass
class Opened:
    device: Any
    inject: Callable[[str], None]
    truth: Any = None  # the simulator's model (rolls, numbers, shoe order)


ENTROPY = ["sim-trng", "pty-truerng", "pty-truerngpro", "pty-onerng", "sim-chaoskey", "usb-sim"]
PERIPHERAL = ["sim", "pty", "serial"]


def open_entropy(name: str, query: str) -> Opened:
    if name == "usb-sim":
        bus = SimUsbBackend(SimWorld(3))
        return Opened(open_device(f"usb://1d50:60c6?{query}", backend=bus), bus.inject)
    url = {
        "sim-trng": "sim://trng?seed=3",
        "pty-truerng": "pty://trng?seed=3&model=truerng",
        "pty-truerngpro": "pty://trng?seed=3&model=truerngpro",
        "pty-onerng": "pty://trng?seed=3&model=onerng",
        "sim-chaoskey": "sim://chaoskey?seed=3",
    }[name]
    dev = open_device(f"{url}&{query}" if query else url)
    return Opened(dev, dev.inject)  # type: ignore[attr-defined]


@pytest.fixture(params=ENTROPY)
def entropy(request: pytest.FixtureRequest) -> Iterator[Callable[[str], Opened]]:
    opened: list[Device] = []

    def make(query: str = "") -> Opened:
        o = open_entropy(request.param, query)
        opened.append(o.device)
        return o

    yield make
    for dev in opened:
        dev.close()


_CONFIGS = {"shoe": SimShoeConfig, "dice": SimDiceConfig, "wheel": SimWheelConfig}
_TRUTH = {"shoe": "shoe", "dice": "reader", "wheel": "wheel"}


def open_peripheral(
    backend: str, kind: str, query: str, cleanup: list[Callable[[], None]]
) -> Opened:
    if backend in ("sim", "pty"):
        dev = open_device(f"{backend}://{kind}?{query}")
        cleanup.append(dev.close)
        return Opened(dev, dev.inject, getattr(dev, _TRUTH[kind]))  # type: ignore[attr-defined]
    # serial://: the hardware backend on a pty served by the simulator
    params = dict(p.split("=", 1) for p in query.split("&") if p)
    link_keys = {"timeout", "ack_timeout", "max_retries", "reconnect_attempts"}
    sim_params = {k: v for k, v in params.items() if k not in link_keys}
    from firmware_bridge.config import build_config

    config = build_config(_CONFIGS[kind], "test", {}, sim_params)  # type: ignore[type-var]
    model, fw = config.build(SimWorld(config.seed, RealClock()))
    tmp = Path(tempfile.mkdtemp(prefix="croupier-conf-"))
    server = PtyServer(fw, link_path=tmp / kind)
    server.start()
    cleanup.append(server.stop)
    extra = "".join(f"&{k}={v}" for k, v in params.items() if k in link_keys)
    extra += {"dice": f"&dice={config.dice}" if kind == "dice" else "", "wheel": ""}.get(kind, "")
    if kind == "wheel":
        extra += f"&zeros={config.zeros}"
    dev = open_device(f"serial://{server.path}?model={kind}{extra}")
    cleanup.insert(0, dev.close)
    return Opened(dev, server.inject, model)


@pytest.fixture(params=PERIPHERAL)
def peripheral(request: pytest.FixtureRequest) -> Iterator[Callable[[str, str], Opened]]:
    cleanup: list[Callable[[], None]] = []

    def make(kind: str, query: str = "") -> Opened:
        return open_peripheral(request.param, kind, query, cleanup)

    yield make
    for step in cleanup:
        step()
