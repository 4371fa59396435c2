"""``pty://KIND?...``: a simulator served on a real pseudo-terminal, opened with pyserial.

The device returned is the hardware driver on a real ``serial.Serial``; it also
owns the :class:`~firmware_bridge.sim.pty_server.PtyServer` (stopped on close) and
offers ``inject(fault)``. The serving thread uses the real clock. The pty is reached
through a symlink in a private temporary directory, so an unplug/replug keeps the
name the driver reconnects to.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol

from firmware_bridge.base import BaseDevice
from firmware_bridge.clock import RealClock
from firmware_bridge.config import build_config
from firmware_bridge.drivers.dice import DiceDriver
from firmware_bridge.drivers.peripheral import PortOpener
from firmware_bridge.drivers.shoe import ShoeDriver
from firmware_bridge.drivers.wheel import WheelDriver
from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import Device
from firmware_bridge.sim.configs import SimDiceConfig, SimShoeConfig, SimWheelConfig
from firmware_bridge.sim.pty_server import PtyServer, Served
from firmware_bridge.sim.world import SimWorld
from firmware_bridge.transport.serial import open_serial
from firmware_bridge.url import DeviceUrl


class _Served(BaseDevice):
    """Owns the pty server of a pty:// device: start, injection and shutdown."""

    server: PtyServer
    _tmpdir: Path

    def _serve_and_connect(
        self, firmware: Served, name: str, connect: Callable[[PortOpener], None], fault: str
    ) -> None:
        """Serve ``firmware`` on a pty, run the driver's ``connect`` through pyserial,
        and inject ``fault`` once connected; the server is stopped if connecting fails."""
        self.server, self._tmpdir = serve(firmware, name)
        path = self.server.path
        try:
            connect(lambda: open_serial(path))
        except BaseException:
            self._stop_server()
            raise
        if fault != "none":
            self.inject(fault)

    def inject(self, fault: str) -> None:
        """Inject ``fault`` into the simulator behind the pty."""
        self.server.inject(fault)

    def _stop_server(self) -> None:
        self.server.stop()
        shutil.rmtree(self._tmpdir, ignore_errors=True)

    def _close(self) -> None:
        super()._close()
        self._stop_server()


def serve(device: Served, name: str) -> tuple[PtyServer, Path]:
    """Start ``device`` on a pty reached through ``<tmpdir>/<name>``."""
    tmpdir = Path(tempfile.mkdtemp(prefix="croupier-pty-"))
    server = PtyServer(device, link_path=tmpdir / name)
    server.start()
    return server, tmpdir


class PtyShoe(_Served, ShoeDriver):
    """The shoe driver talking to a simulated shoe through a pty."""

    Config = SimShoeConfig

    def __init__(self, url: str, config: SimShoeConfig) -> None:
        self.shoe, fw = config.build(SimWorld(config.seed, RealClock()))

        def connect(opener: PortOpener) -> None:
            ShoeDriver.__init__(self, url, opener, RealClock(), config.link_settings())

        self._serve_and_connect(fw, "shoe", connect, config.fault)


class PtyDice(_Served, DiceDriver):
    """The dice driver talking to a simulated dice reader through a pty."""

    Config = SimDiceConfig

    def __init__(self, url: str, config: SimDiceConfig) -> None:
        self.reader, fw = config.build(SimWorld(config.seed, RealClock()))

        def connect(opener: PortOpener) -> None:
            DiceDriver.__init__(
                self, url, opener, RealClock(), config.link_settings(), dice=config.dice
            )

        self._serve_and_connect(fw, "dice", connect, config.fault)


class PtyWheel(_Served, WheelDriver):
    """The wheel driver talking to a simulated wheel reader through a pty."""

    Config = SimWheelConfig

    def __init__(self, url: str, config: SimWheelConfig) -> None:
        self.wheel, fw = config.build(SimWorld(config.seed, RealClock()))

        def connect(opener: PortOpener) -> None:
            WheelDriver.__init__(
                self, url, opener, RealClock(), config.link_settings(), zeros=config.zeros
            )

        self._serve_and_connect(fw, "wheel", connect, config.fault)


class _PtyClass(Protocol):
    Config: type

    def __call__(self, url: str, config: object) -> BaseDevice: ...


KINDS: dict[str, tuple[str, str]] = {
    "trng": ("firmware_bridge.sim.serial_trng", "PtyTrng"),
    "shoe": ("firmware_bridge.sim.pty_backend", "PtyShoe"),
    "dice": ("firmware_bridge.sim.pty_backend", "PtyDice"),
    "wheel": ("firmware_bridge.sim.pty_backend", "PtyWheel"),
}


class PtyBackend:
    """Open a pty-served simulator."""

    @classmethod
    def open(cls, url: DeviceUrl, overrides: Mapping[str, object]) -> Device:
        from firmware_bridge.sim.backend import sim_class

        kind = url.target.strip("/")
        dev_cls = sim_class("pty", kind, KINDS)
        if not hasattr(dev_cls, "Config"):
            raise ConfigError(f"pty://{kind}: not servable on a pty")
        config: object = build_config(
            dev_cls.Config, f"pty://{kind}", {}, {**url.query, **overrides}
        )
        return dev_cls(url.text, config)
