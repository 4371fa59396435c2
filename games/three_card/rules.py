"""The rules of a three-card table as one frozen dataclass, and the hand facts they use.

Three Card Poker (California page 004) and Tri-Card Poker (online page 001)
differ only in data: whether one dealer card is shown before the decision,
whether Pair Plus may be bet alone, the ante bonus table (Tri-Card), the 6 Card
Bonus table (004). The play bet (the page 001 "raise") always equals the ante.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games.core.cards import parse_cards
from games.core.money import Ratio
from games.poker.category import Category
from games.poker.three_card import Category3, rank3

#: the lowest qualifying dealer hand on both pages: queen high (Q-3-2 of mixed suits)
QUEEN_HIGH = rank3(parse_cards("Qh 3d 2c"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreeCardRules:
    """One three-card table."""

    dealer_shows_card: bool  # 004: the dealer's first card is exposed before play/fold
    pair_plus_alone: bool  # 001: Pair Plus may be bet without an ante
    qualifier: int = QUEEN_HIGH  # lowest qualifying dealer rank3
    positions: int = 6
    pays: Mapping[str, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    pair_plus: Mapping[Category3, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    ante_bonus: Mapping[Category3, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    six_card_bonus: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def bets(self) -> tuple[str, ...]:
        """The bets a player places before the deal (``play`` comes with the decision)."""
        out = ["ante", "pair-plus"]
        if self.six_card_bonus:
            out.append("six-card-bonus")
        return tuple(out)
