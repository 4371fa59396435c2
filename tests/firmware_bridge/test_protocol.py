"""Framed protocol: CRC known answers, encode/decode round trip, and a decoder that
never crashes and never yields a bad frame, whatever bytes it is fed (hypothesis)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.hal import CardDrawn, DeviceFault, DiceRolled, NoRoll, WinningNumber
from firmware_bridge.protocol.frame import Frame, FrameDecoder, crc16, encode_frame
from firmware_bridge.protocol.messages import MsgType, decode_event, encode_event

DATA = Path(__file__).parent.parent / "data" / "firmware_bridge"
# CI machines are shared and noisy: no per-example deadline, no "too slow" health check.
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

frames = st.builds(
    Frame,
    seq=st.integers(0, 255),
    type=st.integers(0, 255),
    payload=st.binary(max_size=255),
)


@pytest.mark.parametrize("case", json.loads((DATA / "crc16.json").read_text()))
def test_crc_check_values(case: dict[str, object]) -> None:
    init = case["init"]
    assert isinstance(init, int)
    assert crc16(str(case["input_ascii"]).encode(), init) == case["check"]


def test_wire_layout() -> None:
    wire = encode_frame(Frame(seq=7, type=0x20, payload=b"As\x00\x01"))
    assert wire[:4] == bytes((0xA5, 4, 7, 0x20))
    assert wire[4:8] == b"As\x00\x01"
    assert int.from_bytes(wire[-2:], "big") == crc16(wire[1:-2])


@relaxed
@given(st.lists(frames, max_size=8))
def test_round_trip(fs: list[Frame]) -> None:
    assert FrameDecoder().feed(b"".join(encode_frame(f) for f in fs)) == fs


@relaxed
@given(st.lists(frames, max_size=6), st.data())
def test_round_trip_any_chunking(fs: list[Frame], data: st.DataObject) -> None:
    wire = b"".join(encode_frame(f) for f in fs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=10)))
    decoder = FrameDecoder()
    out: list[Frame] = []
    prev = 0
    for cut in [*cuts, len(wire)]:
        out += decoder.feed(wire[prev:cut])
        prev = cut
    assert out == fs


def _valid(frame: Frame) -> bool:
    wire = encode_frame(frame)
    return crc16(wire[1:-2]) == int.from_bytes(wire[-2:], "big")


@settings(relaxed, max_examples=300)
@given(
    st.lists(st.one_of(st.binary(max_size=80), frames.map(encode_frame)), max_size=12), st.data()
)
def test_noise_truncation_splices_never_crash_or_yield_bad_frames(
    parts: list[bytes], data: st.DataObject
) -> None:
    """Frames mixed with noise, then truncated and spliced at random points."""
    stream = b"".join(parts)
    if stream:
        a = data.draw(st.integers(0, len(stream)))
        b = data.draw(st.integers(0, len(stream)))
        stream = stream[:a] + stream[b:]  # a splice (or a truncation when b is the end)
    decoder = FrameDecoder()
    out = decoder.feed(stream)
    for frame in out:
        assert _valid(frame)
    assert decoder.pending <= len(stream)


@relaxed
@given(st.lists(frames, min_size=1, max_size=5), st.binary(min_size=1, max_size=50))
def test_resynchronises_after_noise(fs: list[Frame], noise: bytes) -> None:
    """Noise that contains no start byte is dropped, and every frame after it is found."""
    noise = noise.replace(b"\xa5", b"")
    wire = noise + b"".join(encode_frame(f) for f in fs)
    assert FrameDecoder().feed(wire) == fs


def test_corrupted_frame_is_dropped_and_the_next_one_found() -> None:
    good = encode_frame(Frame(seq=1, type=0x20, payload=b"Kh\x00\x05"))
    bad = bytearray(good)
    bad[5] ^= 0x01
    decoder = FrameDecoder()
    assert decoder.feed(bytes(bad) + good) == [Frame(seq=1, type=0x20, payload=b"Kh\x00\x05")]
    assert decoder.stats["crc_errors"] >= 1


@pytest.mark.parametrize(
    "event",
    [
        CardDrawn(rank="T", suit="h", position=416),
        DiceRolled(faces=(6, 6, 1), confidence=97),
        WinningNumber(number="00"),
        WinningNumber(number="0"),
        NoRoll(reason="cocked"),
    ],
)
def test_event_round_trip(event: object) -> None:
    msg_type, payload = encode_event(event)  # type: ignore[arg-type]
    assert decode_event(msg_type, payload, seq=0) == event


@pytest.mark.parametrize(
    ("msg_type", "payload", "expected"),
    [
        (MsgType.DICE, bytes((2, 0, 3, 100)), NoRoll(reason="invalid-face")),
        (MsgType.DICE, bytes((2, 7, 3, 100)), NoRoll(reason="invalid-face")),
        (MsgType.DICE, bytes((2, 1, 3, 101)), NoRoll(reason="invalid-face")),
        (MsgType.DICE, bytes((4, 1, 1, 1, 1, 100)), NoRoll(reason="bad-roll-frame")),
        (MsgType.DICE, b"", NoRoll(reason="bad-roll-frame")),
    ],
)
def test_impossible_rolls_are_never_rolls(msg_type: int, payload: bytes, expected: object) -> None:
    assert decode_event(msg_type, payload, seq=0) == expected


@pytest.mark.parametrize("payload", [b"Zs\x00\x01", b"Ax\x00\x01", b"As\x00\x00", b"As\x00", b""])
def test_unreadable_cards_are_faults_not_cards(payload: bytes) -> None:
    event = decode_event(MsgType.CARD, payload, seq=3)
    assert isinstance(event, DeviceFault)
    assert event.code == "bad-payload"


def test_bad_wheel_number_is_a_fault() -> None:
    assert isinstance(decode_event(MsgType.WINNING_NUMBER, b"\x26", seq=0), DeviceFault)


@relaxed
@given(st.binary(max_size=40), st.lists(frames, min_size=1, max_size=4))
def test_false_start_never_holds_back_a_complete_frame(noise: bytes, fs: list[Frame]) -> None:
    """Noise ending in a start byte with a large length must not make the decoder wait
    for bytes that may never come while complete frames sit in its buffer."""
    wire = noise + b"\xa5\xff" + b"".join(encode_frame(f) for f in fs)
    out = FrameDecoder().feed(wire)
    assert out[-len(fs) :] == fs
