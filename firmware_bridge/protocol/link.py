"""The host end of the framed protocol: reliable send, ACK/NAK, duplicate suppression.

:class:`Link` wraps an already-open port (a ``serial.Serial``, or the in-process
:class:`~firmware_bridge.sim.port.SimPort`) and a clock. Every frame except ACK and
NAK is acknowledged. Sending is stop-and-wait: one frame in flight, resent after
``ack_timeout`` or at once on a NAK for a bad CRC, at most ``max_retries`` times.
A received frame whose sequence number equals the last one delivered is a
retransmission: it is acknowledged again but not delivered twice.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Protocol

import serial

from firmware_bridge.clock import Clock
from firmware_bridge.errors import DeviceDisconnected, DeviceTimeout, ProtocolError
from firmware_bridge.protocol.frame import Frame, FrameDecoder, encode_frame
from firmware_bridge.protocol.messages import ErrorCode, MsgType

POLL = 0.05  # longest single wait on the port; callers loop to their own deadline


class Port(Protocol):
    """The part of ``serial.Serial`` the link uses."""

    @property
    def timeout(self) -> float | None: ...

    @timeout.setter
    def timeout(self, value: float | None) -> None: ...

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


class Link:
    """Reliable framed messaging over ``port``; owns the sequence state of both directions."""

    def __init__(
        self,
        port: Port,
        clock: Clock,
        *,
        name: str = "device",
        ack_timeout: float = 0.25,
        max_retries: int = 3,
    ) -> None:
        self.port = port
        self.clock = clock
        self.name = name
        self.ack_timeout = ack_timeout
        self.max_retries = max_retries
        self.decoder = FrameDecoder()
        self.stats: Counter[str] = Counter()
        self.inbox: deque[Frame] = deque()
        self._tx_seq = 0
        self._rx_last: int | None = None
        self._acked: set[int] = set()
        self._nak: tuple[int, int] | None = None  # (seq, code) of the last NAK

    def attach(self, port: Port) -> None:
        """Continue on a new port after a reconnect; sequence state is kept."""
        self.port = port
        self.decoder.reset()

    # -- low level --------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        try:
            self.port.write(data)
        except (serial.SerialException, OSError) as exc:
            raise DeviceDisconnected(f"{self.name}: write failed ({exc})") from None

    def _pump(self, wait: float) -> None:
        """Read what arrives within ``wait`` seconds and dispatch every frame in it."""
        try:
            poll = max(round(min(wait, POLL), 3), 0.001) if wait > 0 else 0.0
            if self.port.timeout != poll:  # pyserial reconfigures the tty on every change
                self.port.timeout = poll
            data = self.port.read(max(1, self.port.in_waiting))
        except (serial.SerialException, OSError) as exc:
            raise DeviceDisconnected(f"{self.name}: read failed ({exc})") from None
        if not data:
            return
        self.stats["bytes_in"] += len(data)
        crc_before = self.decoder.stats["crc_errors"]
        frames = self.decoder.feed(data)
        if self.decoder.stats["crc_errors"] > crc_before:
            self.stats["crc_errors"] += self.decoder.stats["crc_errors"] - crc_before
            self._write(encode_frame(Frame(seq=0, type=MsgType.NAK, payload=b"\x01")))
            self.stats["naks_sent"] += 1
        for frame in frames:
            self._dispatch(frame)

    def _dispatch(self, frame: Frame) -> None:
        if frame.type == MsgType.ACK:
            self._acked.add(frame.seq)
            return
        if frame.type == MsgType.NAK:
            code = frame.payload[0] if frame.payload else ErrorCode.BAD_CRC
            self._nak = (frame.seq, code)
            self.stats["naks_received"] += 1
            return
        self._write(encode_frame(Frame(seq=frame.seq, type=MsgType.ACK)))
        if frame.type == MsgType.HELLO_REPLY:
            self._rx_last = None  # a new session: the device may have restarted its numbering
        if frame.seq == self._rx_last:
            self.stats["duplicates"] += 1
            return
        self._rx_last = frame.seq
        self.stats["frames_in"] += 1
        self.inbox.append(frame)

    # -- API ----------------------------------------------------------------------
    def send(self, msg_type: MsgType, payload: bytes = b"") -> None:
        """Send one frame reliably; raise DeviceTimeout or ProtocolError if refused."""
        seq = self._tx_seq
        self._tx_seq = (seq + 1) % 256
        data = encode_frame(Frame(seq=seq, type=msg_type, payload=payload))
        self._acked.discard(seq)
        for attempt in range(self.max_retries + 1):
            if attempt:
                self.stats["retransmits"] += 1
            self._nak = None
            self._write(data)
            deadline = self.clock.now() + self.ack_timeout
            while (remaining := deadline - self.clock.now()) > 0:
                self._pump(remaining)
                if seq in self._acked:
                    self._acked.discard(seq)
                    return
                nak = self._take_nak()
                if nak is not None:
                    nak_seq, code = nak
                    if code != ErrorCode.BAD_CRC and nak_seq == seq:
                        raise ProtocolError(
                            f"{self.name}: {msg_type.name} refused ({_code_name(code)})"
                        )
                    break  # corrupted on the way: resend now
        raise DeviceTimeout(
            f"{self.name}: no ACK for {msg_type.name} after {self.max_retries + 1} tries"
        )

    def _take_nak(self) -> tuple[int, int] | None:
        nak, self._nak = self._nak, None
        return nak

    def receive(self, timeout: float, want: MsgType | None = None) -> Frame | None:
        """The next delivered frame (of type ``want`` if given) within ``timeout``, or None."""
        deadline = self.clock.now() + timeout
        while True:
            for frame in self.inbox:
                if want is None or frame.type == want:
                    self.inbox.remove(frame)
                    return frame
            remaining = deadline - self.clock.now()
            if remaining <= 0:
                return None
            self._pump(remaining)

    def request(self, msg_type: MsgType, payload: bytes, reply: MsgType, timeout: float) -> Frame:
        """Send a command and wait for its reply frame (events meanwhile stay queued)."""
        self.send(msg_type, payload)
        frame = self.receive(timeout, want=reply)
        if frame is None:
            raise DeviceTimeout(f"{self.name}: no {reply.name} within {timeout}s")
        return frame


def _code_name(code: int) -> str:
    try:
        return ErrorCode(code).name.lower()
    except ValueError:
        return f"error code {code}"
