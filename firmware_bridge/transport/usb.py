"""Find and open a USB device with pyusb, turning failures into device-layer errors.

``backend`` is pyusb's own seam: ``None`` lets pyusb pick libusb; tests pass the
simulated :class:`~firmware_bridge.sim.usb_backend.SimUsbBackend`.
"""

from __future__ import annotations

import errno
from typing import Any

import usb.core

from firmware_bridge.errors import DeviceInitError, DeviceNotFound, DevicePermissionError


def find_usb(vid: int, pid: int, *, serial: str = "", backend: object = None) -> Any:
    """The configured ``usb.core.Device`` with these ids (and serial, if given)."""
    where = f"usb://{vid:04x}:{pid:04x}" + (f" serial {serial}" if serial else "")
    try:
        if serial:
            dev = usb.core.find(
                idVendor=vid,
                idProduct=pid,
                backend=backend,
                custom_match=lambda d: d.serial_number == serial,
            )
        else:
            dev = usb.core.find(idVendor=vid, idProduct=pid, backend=backend)
    except usb.core.NoBackendError:
        raise DeviceInitError(f"{where}: no USB backend (is libusb-1.0 installed?)") from None
    except usb.core.USBError as exc:
        raise usb_init_error(where, exc) from None
    if dev is None:
        raise DeviceNotFound(f"{where}: no such USB device attached")
    try:
        dev.set_configuration()
    except usb.core.USBError as exc:
        raise usb_init_error(where, exc) from None
    return dev


def usb_init_error(where: str, exc: usb.core.USBError) -> DeviceInitError:
    """The device-layer error for a USBError met while opening."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return DevicePermissionError(f"{where}: permission denied (install the udev rule)")
    if exc.errno in (errno.ENODEV, errno.ENOENT):
        return DeviceNotFound(f"{where}: device went away while opening")
    return DeviceInitError(f"{where}: {exc}")
