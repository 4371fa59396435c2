"""European Slot Poker's state kept from hand to hand: one machine per credit value and
coins bet (page 001: "The deck state is maintained for each player per credit value,
number of credits bet"), each with its deck, its Fruit Bonus collection and its Cherry
Bonus meter.

The per-player table gives each player their own games, so the carry of a player's last
game is that player's; the runtime logs it in the next game's start record, which is how
a crash resumes every deck exactly (the log is signed).

>>> c = FruitCarry({"25x10": Machine(deck=(1, 2, 3, 4, 5, 6, 7, 8), collected=("plum",), cherry=3)})
>>> FruitCarry.decode(c.encode()) == c
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.video_poker.rules import SYMBOLS


def machine_key(denomination: int, coins: int) -> str:
    """The key of one machine state: ``"25x10"`` is 10 coins of 25 cents."""
    return f"{denomination}x{coins}"


@dataclass(frozen=True, slots=True)
class Machine:
    """One machine's state between hands: the cards left (counts in symbol order), the
    fruits collected towards the Fruit Bonus and the two-cherry hands on the meter."""

    deck: tuple[int, ...]
    collected: tuple[str, ...] = ()
    cherry: int = 0

    def encode(self) -> dict[str, Any]:
        return {"deck": list(self.deck), "collected": list(self.collected), "cherry": self.cherry}

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> Machine:
        deck = tuple(int(n) for n in data["deck"])
        collected = tuple(str(s) for s in data.get("collected", ()))
        if len(deck) != len(SYMBOLS) or min(deck) < 0 or not set(collected) <= set(SYMBOLS):
            raise ValueError(f"not a European Slot Poker machine state: {dict(data)!r}")
        return cls(deck=deck, collected=collected, cherry=int(data.get("cherry", 0)))


@dataclass(frozen=True, slots=True)
class FruitCarry:
    """Every machine state of one player, by :func:`machine_key`."""

    machines: Mapping[str, Machine] = field(default_factory=dict)

    def encode(self) -> dict[str, Any]:
        return {"machines": {k: m.encode() for k, m in sorted(self.machines.items())}}

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> FruitCarry:
        raw = data.get("machines", {})
        return cls({str(k): Machine.decode(v) for k, v in raw.items()})


__all__ = ["FruitCarry", "Machine", "machine_key"]
