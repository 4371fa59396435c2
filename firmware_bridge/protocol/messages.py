"""Message types, error codes, and the payload of every event (docs/protocol.md).

Events travel device -> host. :func:`decode_event` is strict: a payload that does
not describe a real card, roll or number becomes a :class:`~firmware_bridge.hal.DeviceFault`
(or, for dice, a :class:`~firmware_bridge.hal.NoRoll`), never a guessed outcome.

>>> t, p = encode_event(CardDrawn(rank="A", suit="s", position=1))
>>> decode_event(t, p, seq=4)
CardDrawn(seq=4, rank='A', suit='s', position=1)
>>> decode_event(MsgType.DICE, bytes([2, 3, 7, 100]), seq=5)
NoRoll(seq=5, reason='invalid-face')
"""

from __future__ import annotations

from enum import IntEnum

from firmware_bridge.hal import (
    BallLaunched,
    BurnCard,
    CardDrawn,
    CardJam,
    CutCardReached,
    DeviceEvent,
    DeviceFault,
    DiceRolled,
    DoorClosed,
    DoorOpened,
    Misread,
    NoRoll,
    NoSpin,
    RerollRequested,
    ShoeEmpty,
    Tilt,
    WinningNumber,
)

PROTOCOL_VERSION = 1


class MsgType(IntEnum):
    """Every message type. Host -> device below 0x80 except events; replies set bit 7."""

    ACK = 0x00
    NAK = 0x01
    HELLO = 0x02  # host: [version]            -> HELLO_REPLY
    IDENTIFY = 0x03  # host: []                 -> IDENTITY
    HEALTH = 0x04  # host: []                   -> HEALTH_REPLY
    ARM = 0x05  # host (shoe): []              -> ACK only
    COMPOSITION = 0x06  # host (shoe): []       -> COMPOSITION_REPLY
    REROLL = 0x07  # host (dice): []            -> ACK, then a RerollRequested event
    # device -> host replies
    HELLO_REPLY = 0x82  # [version, role]
    IDENTITY = 0x83  # model NUL serial NUL firmware (UTF-8)
    HEALTH_REPLY = 0x84  # [code] + UTF-8 text
    COMPOSITION_REPLY = 0x86  # decks, remaining(u16), dealt(u16)
    ERROR = 0x8F  # [ErrorCode] + UTF-8 text
    # device -> host events
    CARD = 0x20  # rank, suit (ASCII), position u16
    BURN = 0x21  # rank, suit, position u16 (rank/suit may be b"??")
    CUT_CARD = 0x22  # position u16
    SHOE_EMPTY = 0x23
    DOOR_OPEN = 0x24
    DOOR_CLOSED = 0x25
    JAM = 0x26
    MISREAD = 0x27  # position u16
    DICE = 0x30  # count, face * count, confidence (0..100)
    NO_ROLL = 0x31  # [NoRollReason]
    REROLL_REQUESTED = 0x32
    TILT = 0x33
    BALL_LAUNCHED = 0x40
    WINNING_NUMBER = 0x41  # [0..36, or 37 for "00"]
    NO_SPIN = 0x42  # [NoSpinReason]


RELIABLE_NONE = frozenset({MsgType.ACK, MsgType.NAK})  # the only unacknowledged types


class ErrorCode(IntEnum):
    """Codes carried by NAK and ERROR frames."""

    OK = 0
    BAD_CRC = 1
    BAD_LENGTH = 2
    UNKNOWN_TYPE = 3
    BAD_PAYLOAD = 4
    BUSY = 5
    VERSION = 6
    NOT_ARMED = 7
    HARDWARE = 8


class Role(IntEnum):
    """Role byte in HELLO_REPLY: lets the host refuse a wrong device."""

    SHOE = 1
    DICE = 2
    WHEEL = 3


NO_ROLL_REASONS = ("cocked", "off-table", "not-enough-dice", "no-throw", "obstructed")
NO_SPIN_REASONS = ("no-spin", "short-spin", "ball-off", "sensor")
RANKS = "23456789TJQKA"
SUITS = "cdhs"
WHEEL_NUMBERS = (*(str(i) for i in range(37)), "00")


def _u16(value: int) -> bytes:
    return value.to_bytes(2, "big")


def encode_event(event: DeviceEvent) -> tuple[MsgType, bytes]:
    """Type and payload carrying ``event`` (used by the simulators)."""
    match event:
        case CardDrawn(rank=r, suit=s, position=p):
            return MsgType.CARD, (r + s).encode("ascii") + _u16(p)
        case BurnCard(rank=r, suit=s, position=p):
            return MsgType.BURN, ((r + s) or "??").encode("ascii") + _u16(p)
        case CutCardReached(position=p):
            return MsgType.CUT_CARD, _u16(p)
        case ShoeEmpty():
            return MsgType.SHOE_EMPTY, b""
        case DoorOpened():
            return MsgType.DOOR_OPEN, b""
        case DoorClosed():
            return MsgType.DOOR_CLOSED, b""
        case CardJam():
            return MsgType.JAM, b""
        case Misread(position=p):
            return MsgType.MISREAD, _u16(p)
        case DiceRolled(faces=f, confidence=c):
            return MsgType.DICE, bytes((len(f), *f, c))
        case NoRoll(reason=r):
            return MsgType.NO_ROLL, bytes((NO_ROLL_REASONS.index(r),))
        case RerollRequested():
            return MsgType.REROLL_REQUESTED, b""
        case Tilt():
            return MsgType.TILT, b""
        case BallLaunched():
            return MsgType.BALL_LAUNCHED, b""
        case WinningNumber(number=n):
            return MsgType.WINNING_NUMBER, bytes((WHEEL_NUMBERS.index(n),))
        case NoSpin(reason=r):
            return MsgType.NO_SPIN, bytes((NO_SPIN_REASONS.index(r),))
    raise ValueError(f"no wire form for {event!r}")


def _bad(seq: int, what: str, payload: bytes) -> DeviceFault:
    return DeviceFault(seq=seq, code="bad-payload", message=f"{what}: {payload.hex() or 'empty'}")


def _card(payload: bytes) -> tuple[str, str, int] | None:
    if len(payload) != 4:
        return None
    rank, suit = chr(payload[0]), chr(payload[1])
    pos = int.from_bytes(payload[2:], "big")
    if rank not in RANKS or suit not in SUITS or pos < 1:
        return None
    return rank, suit, pos


def _position(payload: bytes) -> int | None:
    if len(payload) != 2:
        return None
    pos = int.from_bytes(payload, "big")
    return pos if pos >= 1 else None


def decode_event(msg_type: int, payload: bytes, *, seq: int) -> DeviceEvent | None:
    """The event a frame carries; None if ``msg_type`` is not an event type."""
    simple: dict[int, type[DeviceEvent]] = {
        MsgType.SHOE_EMPTY: ShoeEmpty,
        MsgType.DOOR_OPEN: DoorOpened,
        MsgType.DOOR_CLOSED: DoorClosed,
        MsgType.JAM: CardJam,
        MsgType.REROLL_REQUESTED: RerollRequested,
        MsgType.TILT: Tilt,
        MsgType.BALL_LAUNCHED: BallLaunched,
    }
    if msg_type in simple:
        return (
            simple[msg_type](seq=seq) if not payload else _bad(seq, "unexpected payload", payload)
        )
    if msg_type == MsgType.CARD:
        card = _card(payload)
        if card is None:
            return _bad(seq, "unreadable card", payload)
        return CardDrawn(seq=seq, rank=card[0], suit=card[1], position=card[2])
    if msg_type == MsgType.BURN:
        pos = _position(payload[2:]) if len(payload) == 4 else None
        if pos is None:
            return _bad(seq, "bad burn card", payload)
        card = _card(payload)
        rank, suit = (card[0], card[1]) if card else ("", "")
        return BurnCard(seq=seq, rank=rank, suit=suit, position=pos)
    if msg_type in (MsgType.CUT_CARD, MsgType.MISREAD):
        pos = _position(payload)
        if pos is None:
            return _bad(seq, "bad position", payload)
        if msg_type == MsgType.CUT_CARD:
            return CutCardReached(seq=seq, position=pos)
        return Misread(seq=seq, position=pos)
    if msg_type == MsgType.DICE:
        if len(payload) < 2 or payload[0] not in (2, 3) or len(payload) != payload[0] + 2:
            return NoRoll(seq=seq, reason="bad-roll-frame")
        faces = tuple(payload[1:-1])
        confidence = payload[-1]
        if any(not 1 <= f <= 6 for f in faces) or confidence > 100:
            return NoRoll(seq=seq, reason="invalid-face")
        return DiceRolled(seq=seq, faces=faces, confidence=confidence)
    if msg_type == MsgType.NO_ROLL:
        if len(payload) != 1 or payload[0] >= len(NO_ROLL_REASONS):
            return NoRoll(seq=seq, reason="unknown")
        return NoRoll(seq=seq, reason=NO_ROLL_REASONS[payload[0]])
    if msg_type == MsgType.WINNING_NUMBER:
        if len(payload) != 1 or payload[0] >= len(WHEEL_NUMBERS):
            return _bad(seq, "bad winning number", payload)
        return WinningNumber(seq=seq, number=WHEEL_NUMBERS[payload[0]])
    if msg_type == MsgType.NO_SPIN:
        if len(payload) != 1 or payload[0] >= len(NO_SPIN_REASONS):
            return NoSpin(seq=seq, reason="unknown")
        return NoSpin(seq=seq, reason=NO_SPIN_REASONS[payload[0]])
    return None
