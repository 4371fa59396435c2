"""A Casino War table's typed rules, as its pay table (``paytables/*.toml``) sets them.

:mod:`games.war.paytable` reads and validates the TOML into a :class:`WarRules`; the
engine, the exact math and the simulator read only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games.core.money import Ratio

#: the bets a seat places itself (``raise`` is placed by the rules on going to war)
PLAYER_BETS = ("main", "tie")
BETS = ("main", "tie", "raise")


@dataclass(frozen=True, slots=True, kw_only=True)
class WarRules:
    """One Casino War table's rules."""

    decks: int
    new_shoe_each_game: bool
    burn_cards: int
    tie_after_war_bonus: Ratio
    positions: int
    pays: Mapping[str, Ratio] = field(default_factory=lambda: MappingProxyType({}))
    declared_rtp_bp: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
