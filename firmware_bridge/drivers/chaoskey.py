"""Altus Metrum ChaosKey (USB 1d50:60c6): random bytes from a bulk IN endpoint, via pyusb.

The ChaosKey has no serial port: it offers bulk IN endpoints, 0x85 for "cooked"
(whitened) bytes and 0x86 for raw 12-bit noise samples (two bytes, LSB first).
The driver reads whole 64-byte packets, maps pyusb timeouts to DeviceTimeout and
a vanished device (ENODEV/EIO/pipe errors) to DeviceDisconnected, and on the next
read re-finds the device with backoff.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import Any

import usb.core

from firmware_bridge.base import BaseDevice
from firmware_bridge.clock import Clock
from firmware_bridge.errors import (
    ConfigError,
    DeviceDisconnected,
    DeviceInitError,
    DeviceTimeout,
)
from firmware_bridge.hal import DeviceState

ENDPOINTS = {"cooked": 0x85, "raw": 0x86}
PACKET = 64


class ChaosKey(BaseDevice):
    """An :class:`~firmware_bridge.hal.EntropyDevice` on a ChaosKey."""

    role = "entropy"

    def __init__(
        self,
        url: str,
        finder: Callable[[], Any],
        clock: Clock,
        *,
        endpoint: str = "cooked",
        timeout: float = 1.0,
        reconnect_attempts: int = 5,
    ) -> None:
        super().__init__(url)
        if endpoint not in ENDPOINTS:
            raise ConfigError(f"{url}: endpoint must be one of {', '.join(ENDPOINTS)}")
        self.endpoint = ENDPOINTS[endpoint]
        self.clock = clock
        self.timeout = timeout
        self.reconnect_attempts = reconnect_attempts
        self._finder = finder
        self._dev: Any = None
        self._attach(finder())

    def _attach(self, dev: Any) -> None:
        self._dev = dev
        self.model = str(dev.product or "ChaosKey")
        self.serial_number = str(dev.serial_number or "")
        self.firmware = self.model.rsplit("-sw-", 1)[-1] if "-sw-" in self.model else ""

    def read(self, n: int, timeout: float | None = None) -> bytes:
        """Exactly ``n`` bytes, or DeviceTimeout / DeviceDisconnected (never short)."""
        self._check_open()
        if n < 0:
            raise ValueError(f"read size must be >= 0, got {n}")
        if self._dev is None:
            self._reconnect()
        limit = self.timeout if timeout is None else timeout
        packets = -(-n // PACKET)
        try:
            data = self._dev.read(
                self.endpoint, packets * PACKET, timeout=max(1, int(limit * 1000))
            )
        except usb.core.USBTimeoutError:
            self._record_fault("timeout", f"no data within {limit}s", DeviceState.DEGRADED)
            raise DeviceTimeout(f"{self.url}: {n} bytes not delivered within {limit}s") from None
        except usb.core.USBError as exc:
            if exc.errno in (errno.ENODEV, errno.EIO, errno.EPIPE, errno.ENOENT):
                self._record_fault("disconnected", str(exc), DeviceState.DISCONNECTED)
                self._dev = None
                raise DeviceDisconnected(f"{self.url}: device disconnected ({exc})") from None
            raise
        out = bytes(data)
        if len(out) < n:
            self._record_fault("short-read", f"{len(out)} of {n} bytes", DeviceState.DEGRADED)
            raise DeviceTimeout(f"{self.url}: short read ({len(out)} of {n} bytes)")
        self.counters["bytes_read"] += n
        return out[:n]

    def _reconnect(self) -> None:
        delay = 0.1
        for _ in range(self.reconnect_attempts):
            self.clock.sleep(delay)
            self.counters["reconnect_attempts"] += 1
            try:
                self._attach(self._finder())
            except DeviceInitError:
                delay = min(delay * 2, 2.0)
                continue
            self.counters["reconnects"] += 1
            self._state = DeviceState.DEGRADED
            return
        raise DeviceDisconnected(
            f"{self.url}: device gone; gave up after {self.reconnect_attempts} reconnect attempts"
        )

    def _close(self) -> None:
        if self._dev is not None:
            usb.util.dispose_resources(self._dev)
            self._dev = None
