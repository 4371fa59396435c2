"""A simulated ChaosKey for pyusb: a real ``usb.backend.IBackend`` implementation.

Pass :class:`SimUsbBackend` as ``backend=`` to ``usb.core.find`` and pyusb's own
code runs unchanged (device and configuration descriptors, ``set_configuration``,
string descriptors over control transfers, bulk reads from the IN endpoint);
only the bytes come from a seeded :class:`~firmware_bridge.sim.trng.TrngModel`.

The device: VID:PID 1d50:60c6, one configuration, one vendor-specific interface
with bulk IN endpoints 0x85 ("cooked", whitened bytes) and 0x86 ("raw", 12-bit
noise samples in two little-endian bytes), 64-byte packets. Faults are those of
``sim://trng``; ``unplug`` makes the device vanish from enumeration and every
transfer fail with ENODEV, as libusb reports a removed device.
"""

from __future__ import annotations

import array
import errno
from dataclasses import dataclass, field
from typing import ClassVar

import usb.backend
import usb.core

from firmware_bridge.drivers.chaoskey import ChaosKey
from firmware_bridge.sim.trng import TrngFault, TrngModel, parse_fault
from firmware_bridge.sim.world import SimWorld
from firmware_bridge.transport.usb import find_usb

CHAOSKEY_VID = 0x1D50
CHAOSKEY_PID = 0x60C6
EP_COOKED = 0x85
EP_RAW = 0x86
PACKET = 64
_LANGID_EN_US = 0x0409
_STRINGS = {1: "altusmetrum.org", 2: "ChaosKey-hw-1.0-sw-1.9.3"}


@dataclass
class _Descriptor:
    """A bag of USB descriptor fields, as the pyusb backends return them."""

    fields: dict[str, object]
    extra_descriptors: list[int] = field(default_factory=list)

    def __getattr__(self, name: str) -> object:
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(name) from None


class _SimDevice:
    """Opaque device identity handed to pyusb."""

    def __init__(self, serial: str) -> None:
        self.serial = serial


class SimUsbBackend(usb.backend.IBackend):  # type: ignore[misc]
    """One simulated ChaosKey on a simulated bus."""

    def __init__(self, world: SimWorld, *, serial: str = "SIM0001", fault: str = "none") -> None:
        self.world = world
        self.model = TrngModel(world)
        self.raw_model = TrngModel(SimWorld(world.seed + 1, world.clock))
        self.device = _SimDevice(serial)
        self.serial = serial
        self.present = True
        self.configured = 0
        self.unplug_after: int | None = None
        self.transfers = 0
        self.inject(fault)

    # -- faults -----------------------------------------------------------------
    def inject(self, fault: str) -> None:
        """``none`` heals and replugs; ``unplug`` removes the device now."""
        f = parse_fault(fault)
        self.model.fault = (
            f if f in (TrngFault.STUCK, TrngFault.BIASED, TrngFault.GARBAGE) else (TrngFault.NONE)
        )
        self.slow = f is TrngFault.SLOW
        if f is TrngFault.UNPLUG:
            self.present = False
        elif f is TrngFault.NONE:
            self.present = True

    def _gone(self) -> usb.core.USBError:
        return usb.core.USBError("No such device (it may have been disconnected)", -4, errno.ENODEV)

    # -- enumeration and descriptors ------------------------------------------------
    def enumerate_devices(self) -> list[_SimDevice]:
        return [self.device] if self.present else []

    def get_device_descriptor(self, dev: _SimDevice) -> _Descriptor:
        return _Descriptor(
            {
                "bLength": 18,
                "bDescriptorType": 1,
                "bcdUSB": 0x0200,
                "bDeviceClass": 0,
                "bDeviceSubClass": 0,
                "bDeviceProtocol": 0,
                "bMaxPacketSize0": PACKET,
                "idVendor": CHAOSKEY_VID,
                "idProduct": CHAOSKEY_PID,
                "bcdDevice": 0x0100,
                "iManufacturer": 1,
                "iProduct": 2,
                "iSerialNumber": 3,
                "bNumConfigurations": 1,
                "address": 5,
                "bus": 1,
                "port_number": 1,
                "port_numbers": (1,),
                "speed": 2,  # full speed
            }
        )

    def get_configuration_descriptor(self, dev: _SimDevice, config: int) -> _Descriptor:
        if config != 0:
            raise IndexError(config)
        return _Descriptor(
            {
                "bLength": 9,
                "bDescriptorType": 2,
                "wTotalLength": 9 + 9 + 7 + 7,
                "bNumInterfaces": 1,
                "bConfigurationValue": 1,
                "iConfiguration": 0,
                "bmAttributes": 0x80,
                "bMaxPower": 50,
            }
        )

    def get_interface_descriptor(
        self, dev: _SimDevice, intf: int, alt: int, config: int
    ) -> _Descriptor:
        if (intf, alt, config) != (0, 0, 0):
            raise IndexError(intf)
        return _Descriptor(
            {
                "bLength": 9,
                "bDescriptorType": 4,
                "bInterfaceNumber": 0,
                "bAlternateSetting": 0,
                "bNumEndpoints": 2,
                "bInterfaceClass": 0xFF,
                "bInterfaceSubClass": 0,
                "bInterfaceProtocol": 0,
                "iInterface": 0,
            }
        )

    def get_endpoint_descriptor(
        self, dev: _SimDevice, ep: int, intf: int, alt: int, config: int
    ) -> _Descriptor:
        if ep not in (0, 1) or (intf, alt, config) != (0, 0, 0):
            raise IndexError(ep)
        return _Descriptor(
            {
                "bLength": 7,
                "bDescriptorType": 5,
                "bEndpointAddress": (EP_COOKED, EP_RAW)[ep],
                "bmAttributes": 0x02,  # bulk
                "wMaxPacketSize": PACKET,
                "bInterval": 0,
                "bRefresh": 0,
                "bSynchAddress": 0,
            }
        )

    # -- handles and configuration -------------------------------------------------
    def open_device(self, dev: _SimDevice) -> _SimDevice:
        if not self.present:
            raise self._gone()
        return dev

    def close_device(self, dev_handle: _SimDevice) -> None:
        pass

    def set_configuration(self, dev_handle: _SimDevice, config_value: int) -> None:
        if not self.present:
            raise self._gone()
        self.configured = config_value

    def get_configuration(self, dev_handle: _SimDevice) -> int:
        return self.configured

    def claim_interface(self, dev_handle: _SimDevice, intf: int) -> None:
        if not self.present:
            raise self._gone()

    def release_interface(self, dev_handle: _SimDevice, intf: int) -> None:
        pass

    def is_kernel_driver_active(self, dev_handle: _SimDevice, intf: int) -> bool:
        return False

    # -- transfers ---------------------------------------------------------------------
    def ctrl_transfer(
        self,
        dev_handle: _SimDevice,
        bmRequestType: int,
        bRequest: int,
        wValue: int,
        wIndex: int,
        data: array.array[int],
        timeout: int,
    ) -> int:
        if not self.present:
            raise self._gone()
        if bmRequestType != 0x80 or bRequest != 6 or wValue >> 8 != 3:  # GET_DESCRIPTOR(STRING)
            raise usb.core.USBError("Pipe error", -9, errno.EPIPE)
        index = wValue & 0xFF
        if index == 0:
            body = _LANGID_EN_US.to_bytes(2, "little")
        else:
            text = {**_STRINGS, 3: self.serial}.get(index)
            if text is None:
                raise usb.core.USBError("Pipe error", -9, errno.EPIPE)
            body = text.encode("utf-16-le")
        desc = bytes((len(body) + 2, 3)) + body
        n = min(len(desc), len(data))
        data[:n] = array.array("B", desc[:n])
        return n

    def bulk_read(
        self, dev_handle: _SimDevice, ep: int, intf: int, buff: array.array[int], timeout: int
    ) -> int:
        if not self.present:
            raise self._gone()
        if not self.configured:
            raise usb.core.USBError("Input/Output Error", -1, errno.EIO)
        if self.slow:
            raise usb.core.USBTimeoutError("Operation timed out", -7, errno.ETIMEDOUT)
        self.transfers += 1
        n = len(buff)
        if ep == EP_COOKED:
            data = self.model.produce(n)
        elif ep == EP_RAW:
            raw = self.raw_model.produce(n)
            data = bytes(b if i % 2 == 0 else b & 0x0F for i, b in enumerate(raw))
        else:
            raise usb.core.USBError("Pipe error", -9, errno.EPIPE)
        buff[:n] = array.array("B", data)
        return n


@dataclass(frozen=True, slots=True, kw_only=True)
class SimChaosKeyConfig:
    """Query keys of ``sim://chaoskey``: the real ChaosKey driver on the simulated bus."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]] = {
        "fault": tuple(f.value for f in TrngFault),
        "endpoint": ("cooked", "raw"),
    }
    seed: int = 0
    fault: str = "none"
    endpoint: str = "cooked"
    serial: str = "SIM0001"
    timeout: float = 1.0
    reconnect_attempts: int = 5


class SimChaosKey(ChaosKey):
    """``sim://chaoskey``: :class:`ChaosKey` through pyusb with :class:`SimUsbBackend`."""

    Config = SimChaosKeyConfig

    def __init__(self, url: str, config: SimChaosKeyConfig) -> None:
        world = SimWorld(config.seed)
        self.bus = SimUsbBackend(world, serial=config.serial)
        bus = self.bus
        super().__init__(
            url,
            lambda: find_usb(CHAOSKEY_VID, CHAOSKEY_PID, backend=bus),
            world.clock,
            endpoint=config.endpoint,
            timeout=config.timeout,
            reconnect_attempts=config.reconnect_attempts,
        )
        bus.inject(config.fault)

    def inject(self, fault: str) -> None:
        """Inject a TRNG fault into the simulated ChaosKey."""
        self.bus.inject(fault)
