"""Simulated hardware TRNG: a seeded byte stream with injectable faults.

:class:`TrngModel` is the "silicon": it produces the bytes a TrueRNG-class device
would stream, and is shared by the in-process ``sim://trng`` device
(:class:`SimTrng`, below) and the pty server that speaks the serial TRNG's bytes.

The stream depends only on the seed, never on how it is chunked: ``read(10)`` then
``read(20)`` returns the same 30 bytes as ``read(30)``.

Faults (``fault=`` in the URL, or ``inject()`` at run time), all documented in
docs/devices.md:

- ``stuck``: every byte is 0x00 (a latched output stage);
- ``biased``: about 90 % of bytes are 0x55 (a failing noise source);
- ``garbage``: the ASCII text ``ERR\\r\\n`` repeated (a device stuck in a command mode);
- ``slow``: output limited to ``slow_rate`` bytes/s, so a large read times out;
- ``unplug``: the device disappears after ``unplug_after`` bytes in total.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from firmware_bridge.base import BaseDevice
from firmware_bridge.config import positive
from firmware_bridge.errors import ConfigError, DeviceDisconnected, DeviceTimeout
from firmware_bridge.hal import DeviceState
from firmware_bridge.sim.world import SimWorld


class TrngFault(StrEnum):
    """Faults a simulated TRNG can show."""

    NONE = "none"
    STUCK = "stuck"
    BIASED = "biased"
    GARBAGE = "garbage"
    SLOW = "slow"
    UNPLUG = "unplug"


STUCK_BYTE = 0x00
BIAS_BYTE = 0x55
BIAS_THRESHOLD = 230  # raw bytes below this become BIAS_BYTE: 230/256 ≈ 90 %
GARBAGE_TEXT = b"ERR\r\n"
_BLOCK = 256


def parse_fault(value: str) -> TrngFault:
    """The TrngFault named ``value``, or ConfigError listing the valid names."""
    try:
        return TrngFault(value)
    except ValueError:
        names = ", ".join(f.value for f in TrngFault)
        raise ConfigError(f"unknown TRNG fault {value!r} (expected one of: {names})") from None


class TrngModel:
    """The byte source of a simulated TRNG, chunking-independent and seeded."""

    def __init__(self, world: SimWorld, *, fault: TrngFault = TrngFault.NONE) -> None:
        self._rng = world.child("trng")
        self._buf = bytearray()
        self.fault = fault
        self.produced = 0

    def _refill(self, n: int) -> None:
        while len(self._buf) < n:
            self._buf += self._rng.randbytes(_BLOCK)

    def produce(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream, shaped by the current fault."""
        self._refill(n)
        raw = bytes(self._buf[:n])
        del self._buf[:n]
        start = self.produced
        self.produced += n
        if self.fault is TrngFault.STUCK:
            return bytes([STUCK_BYTE]) * n
        if self.fault is TrngFault.BIASED:
            return bytes(BIAS_BYTE if b < BIAS_THRESHOLD else b for b in raw)
        if self.fault is TrngFault.GARBAGE:
            k = len(GARBAGE_TEXT)
            return bytes(GARBAGE_TEXT[(start + i) % k] for i in range(n))
        return raw


@dataclass(frozen=True, slots=True, kw_only=True)
class SimTrngConfig:
    """Query keys of ``sim://trng`` (see docs/devices.md)."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {"fault": tuple(f.value for f in TrngFault)}

    seed: int = 0
    fault: str = "none"
    unplug_after: int = 4096  # bytes delivered before an ``unplug`` fault bites
    slow_rate: int = 64  # bytes/s while the ``slow`` fault is active
    timeout: float = 1.0  # seconds a read may take before DeviceTimeout

    def __post_init__(self) -> None:
        positive("sim://trng", "slow_rate", self.slow_rate)
        positive("sim://trng", "timeout", self.timeout)
        if self.unplug_after < 0:
            raise ConfigError("sim://trng: unplug_after must be >= 0")


class SimTrng(BaseDevice):
    """In-process simulated TRNG implementing :class:`~firmware_bridge.hal.EntropyDevice`.

    >>> from firmware_bridge import open_device
    >>> with open_device("sim://trng?seed=7") as dev:
    ...     len(dev.read(16))
    16
    """

    role = "entropy"
    Config = SimTrngConfig

    def __init__(self, url: str, config: SimTrngConfig, world: SimWorld | None = None) -> None:
        super().__init__(url)
        self.config = config
        self.world = world if world is not None else SimWorld(config.seed)
        self.model = "sim-trng"
        self.serial_number = f"SIM-{config.seed}"
        self.firmware = "sim-1"
        self._model = TrngModel(self.world)
        self._unplug_at: int | None = None
        self._slow = False
        self.inject(config.fault)
        if self.fault is TrngFault.UNPLUG:
            self._unplug_at = config.unplug_after  # from the URL: unplug after some bytes

    @property
    def fault(self) -> TrngFault:
        """The fault currently injected (``TrngFault.NONE`` when healthy)."""
        if self._unplug_at is not None:
            return TrngFault.UNPLUG
        if self._slow:
            return TrngFault.SLOW
        return self._model.fault

    def inject(self, fault: str | TrngFault | None) -> None:
        """Switch to ``fault`` now; ``None``/``"none"`` heals every fault (and replugs).

        An injected ``unplug`` bites on the next read; ``fault=unplug`` in the URL
        bites after ``unplug_after`` bytes.
        """
        f = parse_fault("none" if fault is None else str(fault))
        self._slow = f is TrngFault.SLOW
        self._unplug_at = None
        self._model.fault = TrngFault.NONE
        if f is TrngFault.UNPLUG:
            self._unplug_at = self._model.produced
        elif f in (TrngFault.STUCK, TrngFault.BIASED, TrngFault.GARBAGE):
            self._model.fault = f
        if f is TrngFault.NONE and self._state is DeviceState.DISCONNECTED:
            self._state = DeviceState.OK
            self.counters["reconnects"] += 1

    def read(self, n: int, timeout: float | None = None) -> bytes:
        """Exactly ``n`` bytes, or DeviceTimeout / DeviceDisconnected (never a short read)."""
        self._check_open()
        if n < 0:
            raise ValueError(f"read size must be >= 0, got {n}")
        limit = self.config.timeout if timeout is None else timeout
        if self._state is DeviceState.DISCONNECTED:
            raise DeviceDisconnected(f"{self.url}: device disconnected")
        if self._unplug_at is not None and self._model.produced + n > self._unplug_at:
            self._record_fault("unplug", "device disconnected", DeviceState.DISCONNECTED)
            raise DeviceDisconnected(f"{self.url}: device disconnected")
        if self._slow:
            needed = n / self.config.slow_rate
            if needed > limit:
                self.world.clock.sleep(limit)
                self._record_fault("timeout", f"no {n} bytes within {limit}s", DeviceState.DEGRADED)
                raise DeviceTimeout(f"{self.url}: {n} bytes not delivered within {limit}s")
            self.world.clock.sleep(needed)
        data = self._model.produce(n)
        self.counters["bytes_read"] += n
        return data
