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
from typing import NamedTuple

SOF = 0xA5
HEADER = 4  # SOF, LEN, SEQ, TYPE
OVERHEAD = HEADER + 2
MAX_PAYLOAD = 255
CRC_INIT = 0xFFFF


def crc16(data: bytes, crc: int = CRC_INIT) -> int:
    """CRC-16/CCITT-FALSE of ``data``."""
    return binascii.crc_hqx(data, crc)


class Frame(NamedTuple):
    """One decoded (or to-be-encoded) frame. A tuple: cheap to build on the decode path."""

    seq: int
    type: int
    payload: bytes = b""


def encode_frame(frame: Frame) -> bytes:
    """The bytes of ``frame`` on the wire; ValueError if a field does not fit."""
    if not 0 <= frame.seq <= 255 or not 0 <= frame.type <= 255:
        raise ValueError(f"seq and type must be bytes, got seq={frame.seq} type={frame.type}")
    if len(frame.payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(frame.payload)} bytes exceeds {MAX_PAYLOAD}")
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
        crc = binascii.crc_hqx
        pos = 0
        n = len(buf)
        noise = crc_errors = 0
        while True:
            start = buf.find(SOF, pos)
            if start < 0:
                noise += n - pos
                pos = n
                break
            noise += start - pos
            pos = start
            if n - pos < HEADER:
                break
            end = pos + OVERHEAD + buf[pos + 1]
            if end > n:
                # Incomplete. If a complete valid frame starts later in what we hold,
                # this start byte was noise: skip to it rather than wait for bytes
                # that may never come (bounded latency after a false start).
                later = self._complete_frame_after(pos, n)
                if later < 0:
                    break
                noise += later - pos
                crc_errors += 1
                pos = later
                continue
            if crc(buf[pos + 1 : end - 2], CRC_INIT) == (buf[end - 2] << 8 | buf[end - 1]):
                frames.append(Frame(buf[pos + 2], buf[pos + 3], bytes(buf[pos + 4 : end - 2])))
                pos = end
            else:
                crc_errors += 1
                pos += 1
        del buf[:pos]
        stats = self.stats
        stats["frames"] += len(frames)
        stats["noise_bytes"] += noise
        if crc_errors:
            stats["crc_errors"] += crc_errors
        return frames

    def _complete_frame_after(self, pos: int, n: int) -> int:
        """Start of the first complete, CRC-valid frame after ``pos``, or -1."""
        buf = self._buf
        nxt = buf.find(SOF, pos + 1)
        while nxt >= 0 and nxt + OVERHEAD <= n:
            end = nxt + OVERHEAD + buf[nxt + 1]
            if end <= n and binascii.crc_hqx(buf[nxt + 1 : end - 2], CRC_INIT) == (
                buf[end - 2] << 8 | buf[end - 1]
            ):
                return nxt
            nxt = buf.find(SOF, nxt + 1)
        return -1
