"""A simulated CDC-ACM serial TRNG (TrueRNG, TrueRNGpro, OneRNG) for a pty.

:class:`SerialTrngFirmware` is the device side: it answers the real mode mechanisms
(the TrueRNGpro baud-rate knock seen through the pty's line settings; OneRNG's
``cmd?`` text commands) and streams :class:`~firmware_bridge.sim.trng.TrngModel`
bytes, with the TRNG faults of ``sim://trng`` (stuck, biased, garbage, slow, unplug).
:class:`PtyTrng` is ``pty://trng``: the real :class:`SerialTrng` driver on it.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge.clock import RealClock
from firmware_bridge.config import positive
from firmware_bridge.drivers.serial_trng import KINDS, KNOCK, PRO_MODE_BAUDS, SerialTrng
from firmware_bridge.errors import ConfigError
from firmware_bridge.sim.pty_backend import serve
from firmware_bridge.sim.trng import TrngFault, TrngModel, parse_fault
from firmware_bridge.sim.world import SimWorld
from firmware_bridge.transport.serial import open_serial

_BINARY_PRO_MODES = {"normal", "rng1white", "rng2white", "raw_bin", "unwhitened"}
_CHUNK = 4096


class SerialTrngFirmware:
    """Device side of a serial TRNG, driven by the pty server."""

    def __init__(
        self,
        world: SimWorld,
        *,
        kind: str,
        start_mode: str = "normal",
        fault: str = "none",
        unplug_after: int = 1 << 20,
        slow_rate: int = 64,
        replug_after: float = 0.5,
    ) -> None:
        self.kind = kind
        self.model = TrngModel(world)
        self.mode = start_mode
        self.streaming = kind != "onerng"  # OneRNG waits for cmdO
        self.onerng_source = b"0"
        self.slow_rate = slow_rate
        self.replug_after = replug_after
        self.unplug_after = unplug_after
        self._unplug_at: int | None = None
        self._unplugged_until: float | None = None
        self._slow = False
        self._bauds: list[int] = []
        self._cmd = bytearray()
        self._last_poll: float | None = None
        if parse_fault(fault) is TrngFault.UNPLUG:
            self.inject("none")
            self._unplug_at = unplug_after  # from the URL: after some bytes
        else:
            self.inject(fault)

    def inject(self, fault: str, now: float = 0.0) -> None:
        """Change the fault now; ``unplug`` pulls the cable at once.

        An unplug does not wait for the host to read what is queued: like a USB
        device pulled out, the line hangs up now (the pty server closes it on its
        next step), whether or not the host was reading.
        """
        f = parse_fault(fault)
        self._slow = f is TrngFault.SLOW
        self._unplug_at = None
        self.model.fault = (
            f if f in (TrngFault.STUCK, TrngFault.BIASED, TrngFault.GARBAGE) else (TrngFault.NONE)
        )
        if f is TrngFault.NONE:
            self._unplugged_until = None
        if f is TrngFault.UNPLUG:
            self._unplugged_until = now + self.replug_after if self.replug_after > 0 else math.inf

    def present(self, now: float) -> bool:
        if self._unplugged_until is None:
            return True
        if now >= self._unplugged_until:
            self._unplugged_until = None
            return True
        return False

    def baud_changed(self, baud: int, now: float) -> None:
        """TrueRNGpro: three knocks (110, 300, 110) then the mode's baud rate."""
        self._bauds = [*self._bauds[-3:], baud]
        knocked = tuple(self._bauds[:3]) == KNOCK and len(self._bauds) == 4
        if self.kind.startswith("truerngpro") and knocked:
            for mode, rate in PRO_MODE_BAUDS.items():
                if rate == baud:
                    self.mode = mode
            self._bauds = []

    def receive(self, data: bytes, now: float) -> None:
        """OneRNG text commands; other models ignore what the host writes."""
        if self.kind != "onerng":
            return
        self._cmd += data
        while (i := self._cmd.find(b"cmd")) >= 0 and len(self._cmd) >= i + 4:
            op = bytes(self._cmd[i + 3 : i + 4])
            del self._cmd[: i + 4]
            if op == b"O":
                self.streaming = True
            elif op == b"o":
                self.streaming = False
            elif op in b"01234567":
                self.onerng_source = op
        if len(self._cmd) > 64:
            del self._cmd[:-4]

    def poll(self, now: float) -> bytes:
        last, self._last_poll = self._last_poll, now
        if not self.streaming or not self.present(now):
            return b""
        n = _CHUNK
        if self._slow:
            n = int((now - (last if last is not None else now)) * self.slow_rate)
        if self._unplug_at is not None:
            n = min(n, self._unplug_at - self.model.produced)
            if n <= 0:
                self._unplugged_until = (
                    now + self.replug_after if self.replug_after > 0 else math.inf
                )
                self._unplug_at = None
                return b""
        if n <= 0:
            return b""
        data = self.model.produce(n)
        if self.kind.startswith("truerngpro") and self.mode not in _BINARY_PRO_MODES:
            return b"".join(b"%04d\n" % (b * 16) for b in data[: n // 5 or 1])
        if self.kind == "onerng" and self.onerng_source in (b"4", b"7"):
            return bytes(n)  # noise gathering off
        return data

    def next_wake(self, now: float) -> float | None:
        return now if self.streaming else None


@dataclass(frozen=True, slots=True, kw_only=True)
class PtyTrngConfig:
    """Query keys of ``pty://trng``."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "model": tuple(KINDS),
        "fault": tuple(f.value for f in TrngFault),
    }
    seed: int = 0
    model: str = "truerng"
    mode: str = ""  # the mode the driver selects (default: the model's normal mode)
    start_mode: str = "psdebug"  # the simulated TrueRNGpro's mode before the knock
    fault: str = "none"
    unplug_after: int = 65536
    slow_rate: int = 64
    replug_after: float = 0.5
    timeout: float = 1.0

    def __post_init__(self) -> None:
        positive("pty://trng", "timeout", self.timeout)
        if self.start_mode not in PRO_MODE_BAUDS:
            raise ConfigError(f"pty://trng: start_mode must be one of {', '.join(PRO_MODE_BAUDS)}")


class PtyTrng(SerialTrng):
    """``pty://trng``: the serial TRNG driver on a simulated device behind a pty."""

    Config = PtyTrngConfig

    def __init__(self, url: str, config: PtyTrngConfig) -> None:
        self.sim = SerialTrngFirmware(
            SimWorld(config.seed, RealClock()),
            kind=config.model,
            start_mode=config.start_mode,
            fault=config.fault,
            unplug_after=config.unplug_after,
            slow_rate=config.slow_rate,
            replug_after=config.replug_after,
        )
        self.server, self._tmpdir = serve(self.sim, "trng")
        path = self.server.path
        try:
            super().__init__(
                url,
                lambda baud: open_serial(path, baudrate=baud),
                RealClock(),
                kind=config.model,
                mode=config.mode,
                timeout=config.timeout,
            )
        except BaseException:
            self._stop_server()
            raise
        self.serial_number = f"SIM-{config.seed}"

    def inject(self, fault: str) -> None:
        """Inject a TRNG fault into the simulated device."""
        self.server.inject(fault)

    def _stop_server(self) -> None:
        self.server.stop()
        shutil.rmtree(self._tmpdir, ignore_errors=True)

    def _close(self) -> None:
        super()._close()
        self._stop_server()
