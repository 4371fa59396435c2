"""The rules of a Caribbean Stud table as one frozen dataclass.

Caribbean Stud Poker (page 001), the Pinnacle "Stud Poker" (page 000, contents
list only: README gap 4 makes it Caribbean Stud with the Oasis jackpot bet) and
Oasis Poker (page 000: bought draws; tables from README gap 3) differ only in
data: the draw prices, whether a dealer card is shown, and the jackpot.
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

#: the lowest qualifying dealer hand on every page: ace/king (A-K-4-3-2 of mixed suits)
ACE_KING = rank5(parse_cards("Ah Kd 4c 3s 2h"))


@dataclass(frozen=True, slots=True, kw_only=True)
class StudRules:
    """One Caribbean Stud family table."""

    dealer_shows_card: bool  # the dealer's first card is dealt face up
    call_multiple: int = 2  # the call (raise) bet is this many antes
    ante_pays: Ratio = field(default_factory=lambda: Ratio(1, 1))
    #: call bet pays by the player's category; HIGH_CARD is the winning ace/king
    call_pays: Mapping[Category, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    #: Oasis: cards replaced -> price in antes (empty: no draws)
    draw_costs: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    #: draw sizes that call automatically (Oasis: replacing all five)
    auto_call_draws: frozenset[int] = frozenset()
    jackpot: JackpotTable | None = None
    qualifier: int = ACE_KING

    @property
    def bets(self) -> tuple[str, ...]:
        """Bets placed before the deal (``call`` and ``draw`` come with decisions)."""
        return ("ante", "jackpot") if self.jackpot else ("ante",)
