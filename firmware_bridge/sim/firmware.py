"""The device end of the framed protocol, as a simulated peripheral's firmware runs it.

:class:`Firmware` is sans-IO: a carrier (the in-process :class:`~firmware_bridge.sim.port.SimPort`
or the pty server) hands it the host's bytes with :meth:`receive` and collects what
it sends with :meth:`poll`. Behaviour (which events, which replies) comes from a
:class:`DeviceModel`; the firmware adds the link rules and the link faults:

- ``garbage``: noise bytes before the next event frame;
- ``bad_crc``: the next event frame's first transmission has a corrupted CRC;
- ``drop_ack``: the next ACK from the host is lost, and so is the firmware's next ACK
  to a host command (both sides must retransmit and suppress the duplicate);
- ``duplicate``: the next event frame is sent twice with the same sequence number;
- ``slow``: every frame leaves ``slow_delay`` seconds late (until healed);
- ``unplug``: the device vanishes for ``replug_after`` seconds (forever if 0).

Events are never dropped by a fault: an unacknowledged event is resent until the
host acknowledges it.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from dataclasses import dataclass
from typing import ClassVar, Protocol

from firmware_bridge.errors import ConfigError
from firmware_bridge.hal import DeviceEvent
from firmware_bridge.protocol.frame import Frame, FrameDecoder, encode_frame
from firmware_bridge.protocol.messages import (
    PROTOCOL_VERSION,
    ErrorCode,
    MsgType,
    Role,
    encode_event,
)

LINK_FAULTS = ("garbage", "bad_crc", "drop_ack", "duplicate", "slow", "unplug")


class DeviceModel(Protocol):
    """What a simulated peripheral does, apart from the link."""

    role: ClassVar[Role]
    FAULTS: ClassVar[tuple[str, ...]]
    identity: tuple[str, str, str]  # model, serial, firmware

    def handle(self, msg_type: int, payload: bytes) -> tuple[MsgType, bytes] | ErrorCode | None:
        """React to a host command: a reply frame, an error code for a NAK, or None."""
        ...

    def next_event(self, now: float) -> DeviceEvent | None:
        """The event due at ``now``, if any (consumes it)."""
        ...

    def next_due(self, now: float) -> float | None:
        """When the next event will be due, or None if none is pending."""
        ...

    def inject(self, fault: str) -> None:
        """Apply a model fault (jam, misread, invalid_face...)."""
        ...


@dataclass(slots=True)
class _InFlight:
    seq: int
    data: bytes
    sent_at: float


class Firmware:
    """Device-side link state machine around a :class:`DeviceModel`."""

    def __init__(
        self,
        model: DeviceModel,
        rng: random.Random,
        *,
        ack_timeout: float = 0.2,
        slow_delay: float = 0.5,
        replug_after: float = 0.0,
        garbage_bytes: tuple[int, int] = (8, 64),
    ) -> None:
        self.model = model
        self.rng = rng
        self.ack_timeout = ack_timeout
        self.slow_delay = slow_delay
        self.replug_after = replug_after
        self.garbage_bytes = garbage_bytes
        self.decoder = FrameDecoder()
        self.stats: Counter[str] = Counter()
        self.linked = False  # set by the host's HELLO: no events before a session
        self.unplugged_until: float | None = None
        self.slow = False
        self._pending: Counter[str] = Counter()  # one-shot link faults
        self._tx_seq = 0
        self._rx_last: int | None = None
        self._in_flight: _InFlight | None = None
        self._replies: deque[tuple[MsgType, bytes]] = deque()
        self._out = bytearray()
        self._release_at: float | None = None
        self.sent_events: list[DeviceEvent] = []  # ground truth, for tests

    # -- faults -----------------------------------------------------------------
    def inject(self, fault: str, now: float = 0.0) -> None:
        """Apply ``fault`` (a link fault or one of the model's); "none" heals."""
        if fault == "none":
            self.slow = False
            self._pending.clear()
            self.unplugged_until = None
            return
        if fault == "slow":
            self.slow = True
        elif fault == "unplug":
            self.unplugged_until = now + self.replug_after if self.replug_after > 0 else math.inf
            self.stats["unplugs"] += 1
        elif fault == "drop_ack":
            self._pending["drop_ack"] += 1
            self._pending["drop_my_ack"] += 1
        elif fault in LINK_FAULTS:
            self._pending[fault] += 1
        elif fault in self.model.FAULTS:
            self.model.inject(fault)
        else:
            known = ", ".join((*LINK_FAULTS, *self.model.FAULTS))
            raise ConfigError(f"unknown fault {fault!r} for this device (known: {known})")

    def present(self, now: float) -> bool:
        """False while unplugged."""
        if self.unplugged_until is None:
            return True
        if now >= self.unplugged_until:
            self.unplugged_until = None
            self.decoder.reset()
            return True
        return False

    def baud_changed(self, baud: int, now: float) -> None:
        """The framed peripherals ignore the line rate (a USB CDC-ACM link)."""

    # -- host -> device ---------------------------------------------------------
    def receive(self, data: bytes, now: float) -> None:
        """Process bytes from the host."""
        crc_before = self.decoder.stats["crc_errors"]
        frames = self.decoder.feed(data)
        if self.decoder.stats["crc_errors"] > crc_before:
            self._emit(Frame(seq=0, type=MsgType.NAK, payload=bytes((ErrorCode.BAD_CRC,))))
        for frame in frames:
            self._dispatch(frame, now)

    def _dispatch(self, frame: Frame, now: float) -> None:
        if frame.type == MsgType.ACK:
            if self._pending["drop_ack"]:
                self._pending["drop_ack"] -= 1
                self.stats["acks_dropped"] += 1
                return
            if self._in_flight is not None and frame.seq == self._in_flight.seq:
                self._in_flight = None
            return
        if frame.type == MsgType.NAK:
            if self._in_flight is not None:
                self._in_flight.sent_at = -math.inf  # resend at the next poll
            return
        if frame.seq == self._rx_last:
            self.stats["duplicates"] += 1
            self._emit(Frame(seq=frame.seq, type=MsgType.ACK))
            return
        result = self._handle(frame)
        if isinstance(result, ErrorCode):
            self._emit(Frame(seq=frame.seq, type=MsgType.NAK, payload=bytes((result,))))
            return
        self._rx_last = frame.seq
        if self._pending["drop_my_ack"]:
            self._pending["drop_my_ack"] -= 1
            self.stats["acks_dropped"] += 1  # done, but the host never hears so: it resends
        else:
            self._emit(Frame(seq=frame.seq, type=MsgType.ACK))
        if result is not None:
            self._replies.append(result)

    def _handle(self, frame: Frame) -> tuple[MsgType, bytes] | ErrorCode | None:
        if frame.type == MsgType.HELLO:
            if not frame.payload or frame.payload[0] != PROTOCOL_VERSION:
                return ErrorCode.VERSION
            self.linked = True
            return MsgType.HELLO_REPLY, bytes((PROTOCOL_VERSION, self.model.role))
        if frame.type == MsgType.IDENTIFY:
            return MsgType.IDENTITY, "\0".join(self.model.identity).encode()
        if frame.type == MsgType.HEALTH:
            return MsgType.HEALTH_REPLY, b"\x00ok"
        return self.model.handle(frame.type, frame.payload)

    # -- device -> host ---------------------------------------------------------
    def _emit(self, frame: Frame, *, corrupt: bool = False) -> None:
        data = encode_frame(frame)
        if corrupt:
            data = data[:-1] + bytes((data[-1] ^ 0xFF,))
        self._out += data

    def _send_reliable(self, msg_type: MsgType, payload: bytes, now: float, event: bool) -> None:
        seq = self._tx_seq
        self._tx_seq = (seq + 1) % 256
        frame = Frame(seq=seq, type=msg_type, payload=payload)
        good = encode_frame(frame)
        self._in_flight = _InFlight(seq=seq, data=good, sent_at=now)
        if event and self._pending["garbage"]:
            self._pending["garbage"] -= 1
            self._out += self.rng.randbytes(self.rng.randint(*self.garbage_bytes))
        if event and self._pending["bad_crc"]:
            self._pending["bad_crc"] -= 1
            self._emit(frame, corrupt=True)
            return
        self._out += good
        if event and self._pending["duplicate"]:
            self._pending["duplicate"] -= 1
            self._out += good

    def poll(self, now: float) -> bytes:
        """Bytes the device sends at ``now`` (acks, retransmissions, replies, due events)."""
        if not self.present(now):
            return b""
        if not (self.slow and self._out):
            self._generate(now)
        if self._out and self.slow:
            if self._release_at is None:
                self._release_at = now + self.slow_delay
            if now < self._release_at:
                return b""
            if self._in_flight is not None:
                self._in_flight.sent_at = now  # its ACK timer starts when it really leaves
        self._release_at = None
        out = bytes(self._out)
        self._out.clear()
        return out

    def _generate(self, now: float) -> None:
        flight = self._in_flight
        if flight is not None and now - flight.sent_at >= self.ack_timeout:
            self.stats["retransmits"] += 1
            flight.sent_at = now
            self._out += flight.data
        elif flight is None and self._replies:
            msg_type, payload = self._replies.popleft()
            self._send_reliable(msg_type, payload, now, event=False)
        elif flight is None and self.linked:
            event = self.model.next_event(now)
            if event is not None:
                msg_type, payload = encode_event(event)
                self.sent_events.append(event)
                self._send_reliable(msg_type, payload, now, event=True)

    def next_wake(self, now: float) -> float | None:
        """The earliest time :meth:`poll` may have something to send, or None."""
        if self.unplugged_until is not None:
            return self.unplugged_until if self.unplugged_until < math.inf else None
        if self._release_at is not None:
            return self._release_at
        if self._out or (self._replies and self._in_flight is None):
            return now
        if self._in_flight is not None:
            return self._in_flight.sent_at + self.ack_timeout
        if not self.linked:
            return None
        return self.model.next_due(now)
