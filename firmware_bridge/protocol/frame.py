"""Frames: encoding, CRC, and a streaming decoder that resynchronises on noise.

Wire format (docs/protocol.md)::

    SOF(0xA5) | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC16 (big-endian)

The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0;
check value 0x29B1 over ``b"123456789"``), computed over LEN, SEQ, TYPE and PAYLOAD.
The standard library's ``binascii.crc_hqx`` is exactly this CRC given init 0xFFFF.

>>> crc16(b"123456789") == 0x29B1
True
>>> d = FrameDecoder()
>>> d.feed(b"noise" + encode_frame(Frame(seq=1, type=0x20, payload=b"As")))
[Frame(seq=1, type=32, payload=b'As')]
>>> d.stats["noise_bytes"]
5
"""

from __future__ import annotations

import binascii
from collections import Counter
from dataclasses import dataclass

SOF = 0xA5
HEADER = 4  # SOF, LEN, SEQ, TYPE
OVERHEAD = HEADER + 2
MAX_PAYLOAD = 255
CRC_INIT = 0xFFFF


def crc16(data: bytes, crc: int = CRC_INIT) -> int:
    """CRC-16/CCITT-FALSE of ``data``."""
    return binascii.crc_hqx(data, crc)


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded (or to-be-encoded) frame."""

    seq: int
    type: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.seq <= 255 or not 0 <= self.type <= 255:
            raise ValueError(f"seq and type must be bytes, got seq={self.seq} type={self.type}")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes exceeds {MAX_PAYLOAD}")


def encode_frame(frame: Frame) -> bytes:
    """The bytes of ``frame`` on the wire."""
    body = bytes((len(frame.payload), frame.seq, frame.type)) + frame.payload
    return bytes((SOF,)) + body + crc16(body).to_bytes(2, "big")


class FrameDecoder:
    """Turns an arbitrary byte stream into valid frames, in order.

    Bytes before a start byte are counted as noise and dropped. A candidate frame
    whose CRC fails costs only its start byte: decoding resumes at the next byte,
    so a frame hidden behind a false start is still found. Nothing that fails
    the CRC is ever returned.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.stats: Counter[str] = Counter()

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a frame."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget any partial frame (after a reconnect)."""
        self._buf.clear()

    def feed(self, data: bytes) -> list[Frame]:
        """Add ``data``; return every complete, CRC-valid frame now available."""
        buf = self._buf
        buf += data
        frames: list[Frame] = []
        pos = 0
        n = len(buf)
        while True:
            start = buf.find(SOF, pos)
            if start < 0:
                self.stats["noise_bytes"] += n - pos
                pos = n
                break
            self.stats["noise_bytes"] += start - pos
            pos = start
            if n - pos < HEADER:
                break
            length = buf[pos + 1]
            end = pos + OVERHEAD + length
            if end > n:
                break
            body = bytes(buf[pos + 1 : end - 2])
            if crc16(body) == int.from_bytes(buf[end - 2 : end], "big"):
                frames.append(Frame(seq=body[1], type=body[2], payload=body[3:]))
                self.stats["frames"] += 1
                pos = end
            else:
                self.stats["crc_errors"] += 1
                pos += 1
        del buf[:pos]
        return frames
