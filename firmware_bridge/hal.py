"""Hardware abstraction: the roles a device can play, and the events it reports.

Every backend (real serial or USB hardware, a simulator, a replay) implements one
of these protocols, so the rest of the appliance never knows which it has.
Events are frozen dataclasses; a driver never invents a card or a roll: if the
bytes are bad, it reports a fault event or raises, it does not guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol, Self, runtime_checkable


class DeviceState(StrEnum):
    """Operator-visible state of a device."""

    OK = "ok"
    DEGRADED = "degraded"  # working, but faults were seen recently
    DISCONNECTED = "disconnected"
    FAULT = "fault"  # needs a technician
    CLOSED = "closed"


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceStatus:
    """A snapshot of one device for the operator console and `croupier devices`."""

    url: str
    role: str  # "entropy", "shoe", "dice", "wheel"
    state: DeviceState
    model: str = ""
    serial_number: str = ""
    firmware: str = ""
    last_fault: str | None = None
    counters: dict[str, int] = field(default_factory=dict)


@runtime_checkable
class Device(Protocol):
    """What every device offers: identity, status, and an idempotent close."""

    url: str

    def status(self) -> DeviceStatus: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


@runtime_checkable
class EntropyDevice(Device, Protocol):
    """A hardware (or simulated) random number generator: raw, unconditioned bytes."""

    def read(self, n: int, timeout: float | None = None) -> bytes:
        """Return exactly ``n`` raw bytes or raise (DeviceTimeout, DeviceDisconnected)."""
        ...


# --- events -----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceEvent:
    """Base of every event a peripheral reports."""

    seq: int = 0  # device sequence number, for duplicate suppression and ordering


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceFault(DeviceEvent):
    """Any fault: code is stable (for logs and UI), message is for people."""

    code: str
    message: str


# Card shoe
@dataclass(frozen=True, slots=True, kw_only=True)
class CardDrawn(DeviceEvent):
    rank: str  # "2".."9", "T", "J", "Q", "K", "A"; "X" for a joker
    suit: str  # "c", "d", "h", "s"; "" for a joker
    position: int  # 1-based position of the card in the shoe


@dataclass(frozen=True, slots=True, kw_only=True)
class BurnCard(DeviceEvent):
    position: int
    rank: str = ""  # the shoe reads a burn card too; "" if the reader could not
    suit: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CutCardReached(DeviceEvent):
    position: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeEmpty(DeviceEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class DoorOpened(DeviceEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class DoorClosed(DeviceEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class CardJam(DeviceEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Misread(DeviceEvent):
    position: int


# Dice reader
@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRolled(DeviceEvent):
    faces: tuple[int, ...]
    confidence: int = 100  # percent; the reader's own confidence in the read


@dataclass(frozen=True, slots=True, kw_only=True)
class NoRoll(DeviceEvent):
    reason: str  # "cocked", "off-table", "not-enough-dice", ...


@dataclass(frozen=True, slots=True, kw_only=True)
class RerollRequested(DeviceEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Tilt(DeviceEvent):
    pass


# Roulette wheel reader
@dataclass(frozen=True, slots=True, kw_only=True)
class BallLaunched(DeviceEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class WinningNumber(DeviceEvent):
    number: str  # "0", "00", "1".."36"


@dataclass(frozen=True, slots=True, kw_only=True)
class NoSpin(DeviceEvent):
    reason: str


@runtime_checkable
class EventDevice(Device, Protocol):
    """A peripheral that reports events unsolicited (shoe, dice reader, wheel)."""

    def next_event(self, timeout: float | None = None) -> DeviceEvent | None:
        """Return the next event in order, or None if none arrived within ``timeout``."""
        ...


@runtime_checkable
class CardShoe(EventDevice, Protocol):
    def arm(self) -> None:
        """Enable the shoe to deliver the next hand's cards."""
        ...


@runtime_checkable
class DiceReader(EventDevice, Protocol):
    dice: int  # 2 for craps, 3 for sic bo


@runtime_checkable
class WheelReader(EventDevice, Protocol):
    zeros: int  # 1 (single zero) or 2 (double zero)
