"""Open a serial port with pyserial, turning OS failures into the device-layer errors.

A missing port becomes :class:`DeviceNotFound`, a refused one
:class:`DevicePermissionError` (with the usual fix: the ``dialout`` group), anything
else :class:`DeviceInitError`, each as one clear line for the technician.
"""

from __future__ import annotations

import errno

import serial

from firmware_bridge.errors import (
    DeviceInitError,
    DeviceNotFound,
    DevicePermissionError,
    WrongDevice,
)


def open_serial(path: str, *, baudrate: int = 115200, timeout: float = 1.0) -> serial.Serial:
    """An open ``serial.Serial`` on ``path`` (8N1, no flow control)."""
    try:
        return serial.Serial(path, baudrate=baudrate, timeout=timeout, write_timeout=timeout)
    except serial.SerialException as exc:
        code = getattr(exc, "errno", None)
        if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
            raise DeviceNotFound(f"no serial port at {path}") from None
        if code in (errno.EACCES, errno.EPERM):
            raise DevicePermissionError(
                f"permission denied on {path} (is the user in the 'dialout' group?)"
            ) from None
        if "Inappropriate ioctl" in str(exc):
            raise WrongDevice(f"{path} is not a serial port") from None
        raise DeviceInitError(f"cannot open {path}: {exc}") from None
    except ValueError as exc:
        raise DeviceInitError(f"cannot open {path}: {exc}") from None
