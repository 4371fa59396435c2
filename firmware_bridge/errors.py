"""Errors raised by the device layer.

::

    DeviceError
     +-- DeviceInitError          could not open / identify the device (missing port,
     |    +-- DeviceNotFound      wrong device, permission denied)
     |    +-- DevicePermissionError
     |    +-- WrongDevice
     +-- DeviceTimeout            (also a TimeoutError) no answer in time
     +-- DeviceDisconnected       the port vanished (unplug)
     +-- FrameError               bytes that are not a valid frame (bad CRC, bad length)
     +-- ProtocolError            valid frames in a wrong order, NAK after retries, bad version
     +-- ConfigError              (also a ValueError) bad device URL or config file
          +-- SimulatorRefused    a simulated device configured for a real-money role
"""

from __future__ import annotations


class DeviceError(Exception):
    """Base of every device-layer error."""


class DeviceInitError(DeviceError):
    """The device could not be opened or identified."""


class DeviceNotFound(DeviceInitError):
    """No device at that address (missing port, USB id not present)."""


class DevicePermissionError(DeviceInitError, PermissionError):
    """The operating system refused access to the device."""


class WrongDevice(DeviceInitError):
    """Something answered, but not the device the URL asked for."""


class DeviceTimeout(DeviceError, TimeoutError):
    """The device did not answer in time."""


class DeviceDisconnected(DeviceError):
    """The device went away while in use."""


class FrameError(DeviceError):
    """Bytes that do not form a valid frame."""


class ProtocolError(DeviceError):
    """Valid frames that break the protocol (sequence, version, repeated NAK)."""


class ConfigError(DeviceError, ValueError):
    """A device URL or configuration file is invalid."""


class SimulatorRefused(ConfigError):
    """A simulated device (``sim://``, ``pty://``, ``replay://``) may not deal for money."""
