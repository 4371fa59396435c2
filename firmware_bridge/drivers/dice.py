"""Dice reader driver (2 dice for craps, 3 for sic bo): rolls, no-rolls, re-roll, tilt."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from firmware_bridge.clock import Clock
from firmware_bridge.drivers.peripheral import FramedPeripheral, LinkSettings
from firmware_bridge.hal import DeviceEvent, DiceRolled, NoRoll
from firmware_bridge.protocol.link import Port
from firmware_bridge.protocol.messages import MsgType, Role


class DiceDriver(FramedPeripheral):
    """A :class:`~firmware_bridge.hal.DiceReader`; a roll of the wrong size is a NoRoll."""

    role = "dice"
    device_role: ClassVar[Role] = Role.DICE

    def __init__(
        self,
        url: str,
        opener: Callable[[], Port],
        clock: Clock,
        settings: LinkSettings | None = None,
        *,
        dice: int = 2,
    ) -> None:
        if dice not in (2, 3):
            raise ValueError(f"dice must be 2 or 3, got {dice}")
        self.dice = dice
        super().__init__(url, opener, clock, settings)

    def request_reroll(self) -> None:
        """Ask the reader to call for a re-roll (it answers with RerollRequested)."""
        self._command(MsgType.REROLL, b"", reply=None)

    def _check(self, event: DeviceEvent) -> DeviceEvent:
        if isinstance(event, DiceRolled) and len(event.faces) != self.dice:
            return NoRoll(seq=event.seq, reason="not-enough-dice")
        return event
