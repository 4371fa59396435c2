"""Card shoe driver: cards, cut card, burn, door, jam, misread; arm and composition."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge.drivers.peripheral import FramedPeripheral
from firmware_bridge.errors import ProtocolError
from firmware_bridge.protocol.messages import MsgType, Role


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeComposition:
    """What the shoe reports about itself: decks loaded, cards left and dealt."""

    decks: int
    remaining: int
    dealt: int


class ShoeDriver(FramedPeripheral):
    """A :class:`~firmware_bridge.hal.CardShoe` over the framed protocol."""

    role = "shoe"
    device_role: ClassVar[Role] = Role.SHOE

    def arm(self, cards: int = 0) -> None:
        """Let the shoe deliver the next hand: ``cards`` cards, or until re-armed if 0."""
        if not 0 <= cards <= 0xFFFF:
            raise ValueError(f"cards must be 0..65535, got {cards}")
        self._command(MsgType.ARM, cards.to_bytes(2, "big") if cards else b"", reply=None)

    def composition(self) -> ShoeComposition:
        """Decks, cards remaining and cards dealt, as the shoe counts them."""
        payload = self._command(MsgType.COMPOSITION, b"", reply=MsgType.COMPOSITION_REPLY)
        if payload is None or len(payload) != 5:
            raise ProtocolError(f"{self.url}: malformed composition reply")
        return ShoeComposition(
            decks=payload[0],
            remaining=int.from_bytes(payload[1:3], "big"),
            dealt=int.from_bytes(payload[3:5], "big"),
        )
