"""Behaviour of the simulated peripherals: what a shoe, a dice reader and a wheel report.

Each model draws from its own seeded ``random.Random`` (from :class:`SimWorld`) and
produces :mod:`firmware_bridge.hal` events when they fall due; the firmware
(:mod:`firmware_bridge.sim.firmware`) turns them into frames.
"""

from __future__ import annotations

import random
from collections import deque
from typing import ClassVar

from firmware_bridge.hal import (
    BallLaunched,
    BurnCard,
    CardDrawn,
    CardJam,
    CutCardReached,
    DeviceEvent,
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
from firmware_bridge.protocol.messages import RANKS, SUITS, ErrorCode, MsgType, Role


class _Paced:
    """Events fall due every ``interval`` seconds; injected events jump the queue."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._due = 0.0
        self._queue: deque[DeviceEvent] = deque()

    def _ready(self, now: float) -> bool:
        return now >= self._due

    def _took(self, now: float) -> None:
        self._due = now + self.interval


class ShoeModel(_Paced):
    """An ``decks``-deck shoe, shuffled by the seed, dealing while armed."""

    role: ClassVar[Role] = Role.SHOE
    FAULTS: ClassVar[tuple[str, ...]] = ("jam", "misread", "door")

    def __init__(
        self,
        rng: random.Random,
        *,
        decks: int,
        cut: int,
        burn: int,
        interval: float,
        identity: tuple[str, str, str],
    ) -> None:
        super().__init__(interval)
        self.decks = decks
        self.cards = [r + s for _ in range(decks) for s in SUITS for r in RANKS]
        rng.shuffle(self.cards)
        self.cut = cut
        self.burn = burn
        self.position = 0  # cards taken out so far
        self.armed = 0  # cards the current arm allows; -1 = no limit
        self.identity = identity
        self._misread_next = False
        self._cut_sent = False
        self._empty_sent = False

    def handle(self, msg_type: int, payload: bytes) -> tuple[MsgType, bytes] | ErrorCode | None:
        if msg_type == MsgType.ARM:
            if len(payload) not in (0, 2):
                return ErrorCode.BAD_PAYLOAD
            count = int.from_bytes(payload, "big") if payload else 0
            self.armed = count if count else -1
            return None
        if msg_type == MsgType.COMPOSITION:
            remaining = len(self.cards) - self.position
            return MsgType.COMPOSITION_REPLY, bytes((self.decks,)) + remaining.to_bytes(
                2, "big"
            ) + self.position.to_bytes(2, "big")
        return ErrorCode.UNKNOWN_TYPE

    def inject(self, fault: str) -> None:
        if fault == "jam":
            self._queue.append(CardJam())
        elif fault == "door":
            self._queue.extend((DoorOpened(), DoorClosed()))
        elif fault == "misread":
            self._misread_next = True

    def next_due(self, now: float) -> float | None:
        if self._queue:
            return now
        if self.armed == 0 or self._empty_sent:
            return None
        return max(now, self._due)

    def next_event(self, now: float) -> DeviceEvent | None:
        if self._queue:
            return self._queue.popleft()
        if self.armed == 0 or self._empty_sent or not self._ready(now):
            return None
        if self.position >= len(self.cards):
            self._empty_sent = True
            return ShoeEmpty()
        pos = self.position + 1
        if pos == self.cut and not self._cut_sent:
            self._cut_sent = True
            return CutCardReached(position=pos)
        card = self.cards[self.position]
        self.position = pos
        self._took(now)
        if self.armed > 0:
            self.armed -= 1
        if pos <= self.burn:
            return BurnCard(position=pos, rank=card[0], suit=card[1])
        if self._misread_next:
            self._misread_next = False
            return Misread(position=pos)
        return CardDrawn(rank=card[0], suit=card[1], position=pos)


class DiceModel(_Paced):
    """A 2- or 3-dice reader, rolling every ``interval`` seconds once a session is up."""

    role: ClassVar[Role] = Role.DICE
    FAULTS: ClassVar[tuple[str, ...]] = ("invalid_face", "cocked", "tilt")

    def __init__(
        self,
        rng: random.Random,
        *,
        dice: int,
        interval: float,
        identity: tuple[str, str, str],
        confidence: tuple[int, int] = (90, 100),
    ) -> None:
        super().__init__(interval)
        self.rng = rng
        self.dice = dice
        self.identity = identity
        self.confidence = confidence
        self.rolls: list[tuple[int, ...]] = []  # every valid roll reported: ground truth
        self._invalid_next = False

    def handle(self, msg_type: int, payload: bytes) -> tuple[MsgType, bytes] | ErrorCode | None:
        if msg_type == MsgType.REROLL:
            self._queue.append(RerollRequested())
            return None
        return ErrorCode.UNKNOWN_TYPE

    def inject(self, fault: str) -> None:
        if fault == "invalid_face":
            self._invalid_next = True
        elif fault == "cocked":
            self._queue.extend((NoRoll(reason="cocked"), RerollRequested()))
        elif fault == "tilt":
            self._queue.append(Tilt())

    def next_due(self, now: float) -> float | None:
        return now if self._queue else max(now, self._due)

    def next_event(self, now: float) -> DeviceEvent | None:
        if self._queue:
            return self._queue.popleft()
        if not self._ready(now):
            return None
        self._took(now)
        faces = tuple(self.rng.randint(1, 6) for _ in range(self.dice))
        if self._invalid_next:
            self._invalid_next = False
            return DiceRolled(faces=(7, *faces[1:]), confidence=100)
        self.rolls.append(faces)
        return DiceRolled(faces=faces, confidence=self.rng.randint(*self.confidence))


class WheelModel(_Paced):
    """A roulette wheel reader: ball launched, then the winning number, every spin."""

    role: ClassVar[Role] = Role.WHEEL
    FAULTS: ClassVar[tuple[str, ...]] = ("no_spin",)

    def __init__(
        self, rng: random.Random, *, zeros: int, interval: float, identity: tuple[str, str, str]
    ) -> None:
        super().__init__(interval)
        self.rng = rng
        self.zeros = zeros
        self.pockets = [str(i) for i in range(37)] + (["00"] if zeros == 2 else [])
        self.identity = identity
        self.numbers: list[str] = []  # ground truth
        self._no_spin_next = False
        self._launched = False

    def handle(self, msg_type: int, payload: bytes) -> tuple[MsgType, bytes] | ErrorCode | None:
        return ErrorCode.UNKNOWN_TYPE

    def inject(self, fault: str) -> None:
        if fault == "no_spin":
            self._no_spin_next = True

    def next_due(self, now: float) -> float | None:
        return now if self._queue else max(now, self._due)

    def next_event(self, now: float) -> DeviceEvent | None:
        if self._queue:
            return self._queue.popleft()
        if not self._ready(now):
            return None
        self._took(now)
        if not self._launched:
            self._launched = True
            return BallLaunched()
        self._launched = False
        if self._no_spin_next:
            self._no_spin_next = False
            return NoSpin(reason="short-spin")
        number = self.rng.choice(self.pockets)
        self.numbers.append(number)
        return WinningNumber(number=number)
