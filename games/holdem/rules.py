"""The rules of a house-banked hold'em table as one frozen dataclass.

Two games share the dealing (two hole cards each, five community cards, best
five of seven) and differ in data:

* ``casino``: Pinnacle Hold'em (page 000, Casino Hold'em; pay tables from
  README gap 2): ante, one call at ``call_multiple`` x the ante after the flop,
  dealer qualifies with a pair of 4s, the ante paid by its own table, the AA
  bonus on the first five cards (forfeited on a fold).
* ``ultimate``: Ultimate Texas Hold'em (page 004): ante = blind, one play bet of
  4x/3x before the flop, 2x on the flop or 1x on the river (else fold); dealer
  qualifies with a pair; blind and trips tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games.core.cards import parse_cards
from games.core.money import Ratio
from games.poker.category import Category
from games.poker.rank5 import rank5

PAIR_OF_FOURS = rank5(parse_cards("4c 4d 5h 3s 2c"))
ANY_PAIR = rank5(parse_cards("2c 2d 5h 4s 3c"))
#: UTH play-bet sizes in antes by street
PLAY_MULTIPLES: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {"preflop": (4, 3), "flop": (2,), "river": (1,)}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemRules:
    """One hold'em table."""

    style: str  # "casino" or "ultimate"
    qualifier: int
    call_multiple: int = 2  # casino: the call bet in antes
    #: casino: the ante's pay when the player wins (by category), or the dealer does not qualify
    ante_pays: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    #: casino: the AA bonus on the first five cards, and its pair-of-aces line
    bonus: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    bonus_pair_of_aces: Ratio | None = None
    #: ultimate: the blind (paid on a winning straight or better) and trips tables
    blind: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    trips: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def bets(self) -> tuple[str, ...]:
        """Bets placed before the deal."""
        return ("ante", "bonus") if self.style == "casino" else ("ante", "blind", "trips")
