"""The "What just happened?" record: every roll and what it did to every bet.

The page's report lists the bets "that won, lost, or were removed on this roll",
with win amounts (never return amounts). A :class:`RollReport` holds one roll;
each :class:`Resolution` one bet it touched. Both are frozen and turn into plain
JSON for the screen and the game history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolution:
    """One bet the roll touched. ``win`` is the page's win amount: net to the player,
    after commission (negative for a loss, 0 for a push or a returned bet)."""

    seat: int
    bet: str
    stake: int
    result: str  # "win", "lose", "push", "returned", "moved"
    win: int = 0
    commission: int = 0
    moved_to: str = ""
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bet": self.bet,
            "stake": self.stake,
            "result": self.result,
            "win": self.win,
            "commission": self.commission,
            "moved_to": self.moved_to,
            "why": self.why,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RollReport:
    """One roll: the dice, the table point before and after, and every resolution."""

    roll: int  # 1 for the game's first roll
    dice: tuple[int, int]
    come_out: bool  # a table point come-out roll (no table point before it)
    point_before: int | None
    point_after: int | None
    resolved: tuple[Resolution, ...]
    bets_remaining: int  # cents still on the table after the roll (all seats)

    @property
    def total(self) -> int:
        return self.dice[0] + self.dice[1]

    def for_seat(self, seat: int) -> tuple[Resolution, ...]:
        return tuple(r for r in self.resolved if r.seat == seat)

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        rows = self.resolved if seat is None else self.for_seat(seat)
        return {
            "roll": self.roll,
            "dice": list(self.dice),
            "total": self.total,
            "come_out": self.come_out,
            "point_before": self.point_before,
            "point_after": self.point_after,
            "resolved": [r.to_json() for r in rows],
            "bets_remaining": self.bets_remaining,
        }
