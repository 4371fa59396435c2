"""CDC-ACM serial TRNGs that stream raw bytes: TrueRNG, TrueRNGpro (V1/V2), OneRNG.

Device facts (sources in docs/devices.md):

- TrueRNG v3 (ubld.it), USB 04D8:F5FE: streams whitened random bytes as soon as the
  port is open (DTR set); no modes.
- TrueRNGpro, USB 16D0:0AA0, and TrueRNGproV2, USB 04D8:EBB5: the mode is chosen by a
  baud-rate *knock*: open the port at 110, 300, 110 baud in turn, then at the baud
  of the wanted mode (300 = normal: both generators combined and whitened). Data
  arrive in 64-byte USB transfers; the baud rate does not change the output rate.
- OneRNG, USB 1D50:6086: text commands on the same line: ``cmd0`` .. ``cmd7`` pick the
  noise source and whitening (``cmd0``: avalanche, whitened), ``cmdO`` starts the
  stream, ``cmdo`` stops it, ``cmd4`` turns noise gathering off, ``cmdw`` flushes the
  entropy pool.

The driver takes a *port opener* (``baud -> open port``) rather than a path, so the
knock can reopen the port and tests can pass a pty.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import serial

from firmware_bridge.base import BaseDevice
from firmware_bridge.clock import Clock
from firmware_bridge.errors import (
    ConfigError,
    DeviceDisconnected,
    DeviceError,
    DeviceInitError,
    DeviceTimeout,
    WrongDevice,
)
from firmware_bridge.hal import DeviceState
from firmware_bridge.protocol.link import Port


@dataclass(frozen=True, slots=True, kw_only=True)
class TrngKind:
    """Identity and mode mechanism of one serial TRNG model."""

    name: str
    vid: int
    pid: int
    modes: tuple[str, ...]  # allowed ``mode=`` values; the first is the default


KNOCK = (110, 300, 110)
PRO_MODE_BAUDS = {
    "normal": 300,
    "psdebug": 1200,
    "rngdebug": 2400,
    "rng1white": 4800,
    "rng2white": 9600,
    "raw_bin": 19200,
    "raw_asc": 38400,
    "unwhitened": 57600,  # V2 only
    "normal_asc": 115200,  # V2 only
}
ONERNG_MODE_COMMANDS = {
    "avalanche_whitened": b"cmd0",
    "avalanche": b"cmd1",
    "avalanche_rf_whitened": b"cmd2",
    "avalanche_rf": b"cmd3",
    "rf_whitened": b"cmd5",
    "rf": b"cmd6",
}
KINDS: dict[str, TrngKind] = {
    "truerng": TrngKind(name="TrueRNG v3", vid=0x04D8, pid=0xF5FE, modes=("normal",)),
    "truerngpro": TrngKind(
        name="TrueRNGpro", vid=0x16D0, pid=0x0AA0, modes=tuple(PRO_MODE_BAUDS)[:7]
    ),
    "truerngprov2": TrngKind(
        name="TrueRNGproV2", vid=0x04D8, pid=0xEBB5, modes=tuple(PRO_MODE_BAUDS)
    ),
    "onerng": TrngKind(name="OneRNG", vid=0x1D50, pid=0x6086, modes=tuple(ONERNG_MODE_COMMANDS)),
}
ASCII_MODES = frozenset({"psdebug", "rngdebug", "raw_asc", "normal_asc"})
_ASCII_DEBUG = frozenset(b"0123456789abcdefABCDEFx ,\r\n")
KNOCK_TRIES = 3
KNOCK_SAMPLE = 256  # bytes read to confirm a binary mode (all-ASCII: 2^-256-ish by chance)
USB_TRANSFER = 64  # bytes per CDC-ACM bulk transfer on these devices

BaudOpener = Callable[[int], Port]


class SerialTrng(BaseDevice):
    """An :class:`~firmware_bridge.hal.EntropyDevice` on a CDC-ACM serial TRNG."""

    role = "entropy"

    def __init__(
        self,
        url: str,
        opener: BaudOpener,
        clock: Clock,
        *,
        kind: str,
        mode: str = "",
        timeout: float = 1.0,
        knock_pause: float = 0.05,
        reconnect_attempts: int = 5,
    ) -> None:
        super().__init__(url)
        if kind not in KINDS:
            raise ConfigError(f"{url}: unknown TRNG model {kind!r} (known: {', '.join(KINDS)})")
        self.kind = KINDS[kind]
        self.mode = mode or self.kind.modes[0]
        if self.mode not in self.kind.modes:
            raise ConfigError(
                f"{url}: mode {self.mode!r} not offered by {self.kind.name} "
                f"(modes: {', '.join(self.kind.modes)})"
            )
        self.model = self.kind.name
        self.firmware = ""
        self.clock = clock
        self.timeout = timeout
        self.knock_pause = knock_pause
        self.reconnect_attempts = reconnect_attempts
        self._opener = opener
        self._kind_key = kind
        self._port: Port | None = None
        self._port = self._open()

    # -- opening and mode selection ----------------------------------------------
    def _open(self) -> Port:
        if self._kind_key.startswith("truerngpro"):
            return self._knock()
        if self._kind_key == "onerng":
            port = self._opener(9600)
            self._write(port, ONERNG_MODE_COMMANDS[self.mode] + b"\n" + b"cmdO\n")
        else:
            port = self._opener(9600)
        return port

    def _knock(self) -> Port:
        """Select the mode by the baud-rate knock; check a binary mode really came up.

        The device sees each line-coding change; if one is missed (a busy hub, a slow
        host) the device stays in its old mode, which for the debug modes means ASCII
        text. A binary mode is therefore confirmed on a short sample, and the knock
        repeated (up to ``KNOCK_TRIES`` times) before giving up with WrongDevice.
        """
        for _ in range(KNOCK_TRIES):
            for baud in KNOCK:
                self._opener(baud).close()
                self.clock.sleep(self.knock_pause)
            port = self._opener(PRO_MODE_BAUDS[self.mode])
            self.clock.sleep(self.knock_pause)
            port.reset_input_buffer()  # drop what the old mode sent before the switch
            if self.mode in ASCII_MODES:
                return port
            port.timeout = self.timeout
            sample = port.read(KNOCK_SAMPLE)
            if len(sample) == KNOCK_SAMPLE and not set(sample) <= _ASCII_DEBUG:
                return port
            self.counters["knock_retries"] += 1
            port.close()
        raise WrongDevice(
            f"{self.url}: {self.kind.name} did not enter mode {self.mode!r} "
            f"after {KNOCK_TRIES} baud-rate knocks"
        )

    def _write(self, port: Port, data: bytes) -> None:
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            raise DeviceDisconnected(f"{self.url}: write failed ({exc})") from None

    # -- reading -------------------------------------------------------------------
    def read(self, n: int, timeout: float | None = None) -> bytes:
        """Exactly ``n`` raw bytes, or DeviceTimeout / DeviceDisconnected (never short)."""
        self._check_open()
        if n < 0:
            raise ValueError(f"read size must be >= 0, got {n}")
        port = self._port if self._port is not None else self._reconnect()
        limit = self.timeout if timeout is None else timeout
        try:
            if port.timeout != limit:  # pyserial reconfigures the tty on every change
                port.timeout = limit
            data = port.read(n)  # pyserial loops until n bytes or the timeout
        except (serial.SerialException, OSError) as exc:
            self._lost(str(exc))
            raise DeviceDisconnected(f"{self.url}: device disconnected ({exc})") from None
        if len(data) < n:
            self._record_fault(
                "timeout", f"{len(data)} of {n} bytes in {limit}s", DeviceState.DEGRADED
            )
            raise DeviceTimeout(f"{self.url}: {n} bytes not delivered within {limit}s")
        self.counters["bytes_read"] += n
        return bytes(data)

    def _lost(self, message: str) -> None:
        self._record_fault("disconnected", message, DeviceState.DISCONNECTED)
        if self._port is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                self._port.close()
        self._port = None

    def _reconnect(self) -> Port:
        delay = 0.1
        for _ in range(self.reconnect_attempts):
            self.clock.sleep(delay)
            self.counters["reconnect_attempts"] += 1
            try:
                self._port = self._open()
            except (DeviceInitError, DeviceDisconnected):
                delay = min(delay * 2, 2.0)
                continue
            self.counters["reconnects"] += 1
            self._state = DeviceState.DEGRADED
            return self._port
        raise DeviceDisconnected(
            f"{self.url}: device gone; gave up after {self.reconnect_attempts} reconnect attempts"
        )

    def _close(self) -> None:
        if self._port is None:
            return
        if self._kind_key == "onerng":  # stop the stream and clear the pool, as onerng.sh does
            with contextlib.suppress(DeviceError):
                self._write(self._port, b"cmdo\ncmd4\ncmdw\n")
        with contextlib.suppress(OSError, serial.SerialException):
            self._port.close()
        self._port = None
