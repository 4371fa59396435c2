"""firmware_bridge: the device layer. Devices are opened by URL.

>>> from firmware_bridge import open_device
>>> with open_device("sim://trng?seed=7") as trng:
...     len(trng.read(32))
32

Schemes: ``sim://`` (in-process simulators), ``pty://`` (a simulator served on a
real pseudo-terminal, reached through pyserial), ``serial://`` (pyserial), ``usb://``
(pyusb). Query keys per backend are listed in docs/devices.md.
"""

from firmware_bridge.errors import (
    ConfigError,
    DeviceDisconnected,
    DeviceError,
    DeviceInitError,
    DeviceNotFound,
    DevicePermissionError,
    DeviceTimeout,
    FrameError,
    ProtocolError,
    SimulatorRefused,
    WrongDevice,
)
from firmware_bridge.hal import (
    CardShoe,
    Device,
    DeviceEvent,
    DeviceState,
    DeviceStatus,
    DiceReader,
    EntropyDevice,
    EventDevice,
    WheelReader,
)
from firmware_bridge.registry import ENTROPY_OPENER, SCHEMES, open_device

__all__ = [
    "ENTROPY_OPENER",
    "SCHEMES",
    "CardShoe",
    "ConfigError",
    "Device",
    "DeviceDisconnected",
    "DeviceError",
    "DeviceEvent",
    "DeviceInitError",
    "DeviceNotFound",
    "DevicePermissionError",
    "DeviceState",
    "DeviceStatus",
    "DeviceTimeout",
    "DiceReader",
    "EntropyDevice",
    "EventDevice",
    "FrameError",
    "ProtocolError",
    "SimulatorRefused",
    "WheelReader",
    "WrongDevice",
    "open_device",
]
