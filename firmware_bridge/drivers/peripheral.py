"""Base driver for the framed-protocol peripherals (shoe, dice reader, wheel reader).

The driver owns a :class:`~firmware_bridge.protocol.link.Link` on a port obtained
from an *opener* (a callable returning a fresh open port), so that after an unplug
it can reconnect with exponential backoff and carry on with the same sequence
state: an event resent after the reconnect is recognised as a duplicate.

Faults become typed events and status, never outcomes: a lost link yields a
``DeviceFault(code="disconnected")`` event, a bad payload a ``DeviceFault`` (or
``NoRoll`` for dice), and ``status()`` shows state, last fault and counters.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge.base import BaseDevice
from firmware_bridge.clock import Clock
from firmware_bridge.errors import (
    DeviceDisconnected,
    DeviceError,
    DeviceInitError,
    DeviceTimeout,
    ProtocolError,
    WrongDevice,
)
from firmware_bridge.hal import DeviceEvent, DeviceFault, DeviceState, DeviceStatus, NoRoll
from firmware_bridge.protocol.link import Link, Port
from firmware_bridge.protocol.messages import PROTOCOL_VERSION, MsgType, Role, decode_event

PortOpener = Callable[[], Port]


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkSettings:
    """Timing of one peripheral link (from the backend's URL config)."""

    timeout: float = 1.0  # default wait for next_event and for replies
    ack_timeout: float = 0.25
    max_retries: int = 3
    reconnect_attempts: int = 5
    backoff_initial: float = 0.1
    backoff_max: float = 2.0


class FramedPeripheral(BaseDevice):
    """Shared behaviour of every framed-protocol peripheral driver."""

    device_role: ClassVar[Role]

    def __init__(
        self, url: str, opener: PortOpener, clock: Clock, settings: LinkSettings | None = None
    ) -> None:
        super().__init__(url)
        self.settings = settings or LinkSettings()
        self.clock = clock
        self._opener = opener
        self.link = Link(
            opener(),
            clock,
            name=url,
            ack_timeout=self.settings.ack_timeout,
            max_retries=self.settings.max_retries,
        )
        self._up = True
        try:
            self._handshake()
        except BaseException:
            self.link.port.close()
            raise

    # -- session ------------------------------------------------------------------
    def _handshake(self) -> None:
        """HELLO (version and role check), then IDENTIFY."""
        timeout = self.settings.timeout
        try:
            hello = self.link.request(
                MsgType.HELLO, bytes((PROTOCOL_VERSION,)), MsgType.HELLO_REPLY, timeout
            )
        except ProtocolError as exc:
            raise WrongDevice(f"{self.url}: handshake refused ({exc})") from None
        except DeviceTimeout:
            seen = self.link.decoder.stats
            if seen["noise_bytes"] > 256 and seen["noise_bytes"] > 100 * (seen["frames"] + 1):
                raise WrongDevice(
                    f"{self.url}: the device sends data but no protocol frames "
                    "(wrong port, or wrong model=?)"
                ) from None
            raise
        if len(hello.payload) != 2 or hello.payload[0] != PROTOCOL_VERSION:
            raise WrongDevice(f"{self.url}: unsupported protocol version {hello.payload.hex()}")
        if hello.payload[1] != self.device_role:
            raise WrongDevice(
                f"{self.url}: device reports role {hello.payload[1]}, expected "
                f"{self.device_role.name.lower()}"
            )
        ident = self.link.request(MsgType.IDENTIFY, b"", MsgType.IDENTITY, timeout)
        parts = ident.payload.decode("utf-8", "replace").split("\0")
        if len(parts) != 3:
            raise WrongDevice(f"{self.url}: malformed identity {ident.payload!r}")
        self.model, self.serial_number, self.firmware = parts

    def health(self) -> str:
        """The device's own health report (HEALTH query)."""
        frame = self._command(MsgType.HEALTH, b"", reply=MsgType.HEALTH_REPLY)
        if not frame:
            raise ProtocolError(f"{self.url}: empty health reply")
        code, text = frame[0], frame[1:].decode("utf-8", "replace")
        return text if code == 0 else f"fault {code}: {text}"

    def _command(self, msg_type: MsgType, payload: bytes, reply: MsgType | None) -> bytes | None:
        """Send a command (and wait for its reply); a lost link raises DeviceDisconnected."""
        self._check_open()
        if not self._up:
            self._reconnect()
        try:
            if reply is None:
                self.link.send(msg_type, payload)
                return None
            return self.link.request(msg_type, payload, reply, self.settings.timeout).payload
        except DeviceDisconnected as exc:
            self._lost(str(exc))
            raise
        except DeviceTimeout as exc:
            self._record_fault("timeout", str(exc), DeviceState.DEGRADED)
            raise
        except ProtocolError as exc:
            self._record_fault("refused", str(exc), DeviceState.DEGRADED)
            raise

    # -- events --------------------------------------------------------------------
    def next_event(self, timeout: float | None = None) -> DeviceEvent | None:
        """The next event in device order, or None if none arrived in ``timeout``.

        A lost link returns ``DeviceFault(code="disconnected")`` once; the next call
        reconnects (with backoff) or raises DeviceDisconnected when attempts run out.
        """
        self._check_open()
        if not self._up:
            self._reconnect()
        wait = self.settings.timeout if timeout is None else timeout
        deadline = self.clock.now() + wait
        while True:
            remaining = deadline - self.clock.now()
            try:
                frame = self.link.receive(max(remaining, 0.0))
            except DeviceDisconnected as exc:
                self._lost(str(exc))
                return DeviceFault(code="disconnected", message=str(exc))
            if frame is None:
                return None
            event = decode_event(frame.type, frame.payload, seq=frame.seq)
            if event is None:
                self.counters["unexpected_frames"] += 1
                continue
            event = self._check(event)
            self._account(event)
            return event

    def _check(self, event: DeviceEvent) -> DeviceEvent:
        """Role-specific validation; subclasses turn impossible outcomes into faults."""
        return event

    def _account(self, event: DeviceEvent) -> None:
        self.counters[f"events.{type(event).__name__}"] += 1
        if isinstance(event, DeviceFault):
            self._record_fault(event.code, event.message, DeviceState.DEGRADED)
        elif isinstance(event, NoRoll) and event.reason in ("invalid-face", "bad-roll-frame"):
            self._record_fault(event.reason, "reader sent an impossible roll", DeviceState.DEGRADED)

    # -- link loss and reconnect ----------------------------------------------------
    def _lost(self, message: str) -> None:
        self._up = False
        self._record_fault("disconnected", message, DeviceState.DISCONNECTED)
        with contextlib.suppress(OSError, DeviceError):
            self.link.port.close()

    def _reconnect(self) -> None:
        s = self.settings
        delay = s.backoff_initial
        for _ in range(s.reconnect_attempts):
            self.clock.sleep(delay)
            self.counters["reconnect_attempts"] += 1
            try:
                self.link.attach(self._opener())
                self._handshake()
            except (DeviceInitError, DeviceDisconnected, ProtocolError, TimeoutError):
                delay = min(delay * 2, s.backoff_max)
                continue
            self._up = True
            self.counters["reconnects"] += 1
            self._state = DeviceState.DEGRADED
            return
        raise DeviceDisconnected(
            f"{self.url}: device gone; gave up after {s.reconnect_attempts} reconnect attempts"
        )

    def status(self) -> DeviceStatus:
        base = super().status()
        counters = dict(base.counters)
        counters.update({f"link.{k}": v for k, v in self.link.stats.items()})
        counters.update({f"decoder.{k}": v for k, v in self.link.decoder.stats.items()})
        return DeviceStatus(
            url=base.url,
            role=base.role,
            state=base.state,
            model=base.model,
            serial_number=base.serial_number,
            firmware=base.firmware,
            last_fault=base.last_fault,
            counters=counters,
        )

    def _close(self) -> None:
        self.link.port.close()
