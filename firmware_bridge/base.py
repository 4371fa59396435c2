"""Common device bookkeeping: idempotent close, context manager, operator status.

Every concrete device (driver or simulator) derives from :class:`BaseDevice`, so the
operator console gets the same :class:`DeviceStatus` shape from all of them: state,
last fault, and counters (bytes read, frames, CRC errors, retries, reconnects...).
``close()`` runs the subclass's ``_close()`` once, however often it is called
(python-can's ``_is_shutdown`` idea).
"""

from __future__ import annotations

from collections import Counter
from typing import Self

from firmware_bridge.errors import DeviceError
from firmware_bridge.hal import DeviceState, DeviceStatus


class DeviceClosed(DeviceError):
    """The device was used after ``close()``."""


class BaseDevice:
    """Status, counters and lifecycle shared by every device."""

    role: str = ""

    def __init__(self, url: str) -> None:
        self.url = url
        self.model = ""
        self.serial_number = ""
        self.firmware = ""
        self._state = DeviceState.OK
        self._last_fault: str | None = None
        self._closed = False
        self.counters: Counter[str] = Counter()

    # -- status ---------------------------------------------------------------
    def status(self) -> DeviceStatus:
        """A snapshot for the operator console."""
        return DeviceStatus(
            url=self.url,
            role=self.role,
            state=DeviceState.CLOSED if self._closed else self._state,
            model=self.model,
            serial_number=self.serial_number,
            firmware=self.firmware,
            last_fault=self._last_fault,
            counters=dict(self.counters),
        )

    def _record_fault(self, code: str, message: str, state: DeviceState) -> None:
        """Count a fault and remember it as the last one the operator sees."""
        self.counters[f"fault.{code}"] += 1
        self._last_fault = f"{code}: {message}"
        self._state = state

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceClosed(f"{self.url}: device is closed")

    # -- lifecycle ------------------------------------------------------------
    def close(self) -> None:
        """Release the device; safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        self._close()

    def _close(self) -> None:
        """Subclass hook: release ports, threads, handles."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url!r} {self.status().state}>"
