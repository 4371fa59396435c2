"""The rules of a Let'Em Ride table (page 001) as one frozen dataclass.

The page's game is Let It Ride played upward: one bet (the ``ante``), then
twice the choice to ``raise`` by the same amount or ``continue``. That is Let It
Ride's three equal bets with two pull-backs, seen from the other side: a raise
is a bet let ride, a continue a bet pulled back, so the strategy and the edge
per unit are the same. The pay table (standard or alternate) pays every bet
still up on the final five cards: a pair of tens or better wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games.caribbean_stud.progressive import JackpotTable
from games.core.cards import parse_cards
from games.core.money import Ratio
from games.poker.category import Category
from games.poker.rank5 import rank5

#: the lowest paying hand: a pair of tens (T-T-4-3-2)
TENS = rank5(parse_cards("Tc Td 4h 3s 2c"))
RAISES = ("raise-1", "raise-2")


@dataclass(frozen=True, slots=True, kw_only=True)
class RideRules:
    """One Let'Em Ride table."""

    pays: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    jackpot: JackpotTable | None = None
    lowest_win: int = TENS

    @property
    def bets(self) -> tuple[str, ...]:
        return ("ante", "progressive") if self.jackpot else ("ante",)
