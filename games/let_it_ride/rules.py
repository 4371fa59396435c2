"""The rules of a Let'Em Ride table (page 001) as one frozen dataclass.

The page's game is Let It Ride played upward: one bet (the ``ante``), then
twice the choice to ``raise`` by the same amount or ``continue``. That is Let It
Ride's three equal bets with two pull-backs, seen from the other side: a raise
is a bet let ride, a continue a bet pulled back, so the strategy and the edge
per unit are the same. The pay table (standard or alternate) pays every bet
still up on the final five cards: a pair of tens or better wins.

The tables are data, ``paytables/*.toml``, loaded and validated here (:func:`loads`,
:func:`load_packaged`). Schema (``spec = 1``)::

    spec = 1
    id, title, source = "..."; notes = ["..."]
    [rules]  seats = 1..7
    [bets.ante]         limits (cents); each raise equals the ante
    [bets.raise]        limits (must allow the largest ante)
    [bets.progressive]  optional, with [jackpot]: minimum = maximum = the fixed stake
    [pays]              category -> "n:d" (pair = a pair of tens or better); all of pair..royal
    [jackpot]           games.core.progressive.parse_jackpot

Bad data raises :class:`~games.core.errors.PaytableError` naming file and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from games.core.cards import parse_cards
from games.core.engine import Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.poker_paytable import one_deck_variant, parse_pays, read_header, read_limits
from games.core.progressive import JackpotTable, parse_jackpot
from games.core.tomlread import TomlTable, packaged, parse_toml
from games.poker.category import Category
from games.poker.rank5 import rank5

PACKAGED = ("lets-em-ride", "lets-em-ride-alternate")

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
        """Bets placed before the deal (the raises come with the decisions)."""
        return ("ante", "progressive") if self.jackpot else ("ante",)


def parse_table(data: Mapping[str, Any], where: str) -> Variant[RideRules]:
    """Validate a parsed pay-table mapping and build its variant."""
    top, notes = read_header(data, where, {"rules", "bets", "pays", "jackpot"})
    r = TomlTable(top.get("rules", dict), f"{where}: [rules]", {"seats"})
    seats = r.get("seats", int)
    if not 1 <= seats <= 7:
        raise PaytableError(f"{where}: [rules] seats must be 1..7")
    jp_data = top.get("jackpot", dict, default=None, required=False)
    jackpot = parse_jackpot(jp_data, f"{where}: [jackpot]") if jp_data else None
    bets = top.get("bets", dict)
    wanted = {"ante", "raise"} | ({"progressive"} if jackpot else set())
    limits = read_limits(bets, wanted, where)
    if any("pays" in bets[b] for b in wanted):
        raise PaytableError(f"{where}: bets pay by [pays], not by a 'pays' key")
    if limits["raise"].maximum < limits["ante"].maximum:
        raise PaytableError(f"{where}: [bets.raise] must allow the largest ante")
    if (
        jackpot
        and not limits["progressive"].minimum == limits["progressive"].maximum == jackpot.stake
    ):
        raise PaytableError(f"{where}: [bets.progressive] must be exactly the jackpot stake")
    pays = parse_pays(top.get("pays", dict), f"{where}: [pays]")
    missing = [
        c.label for c in Category if Category.PAIR <= c <= Category.ROYAL_FLUSH and c not in pays
    ]
    if missing or Category.HIGH_CARD in pays:
        raise PaytableError(f"{where}: [pays] needs exactly pair..royal_flush (missing {missing})")
    limits["raise-1"] = limits["raise-2"] = limits.pop("raise")
    rules = RideRules(pays=MappingProxyType(pays), jackpot=jackpot)
    return one_deck_variant(
        top, notes, family="let_it_ride", limits=limits, rules=rules, seats=seats, jackpot=jackpot
    )


def loads(text: str, where: str = "<string>") -> Variant[RideRules]:
    """Parse and validate a Let'Em Ride pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant[RideRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.let_it_ride", name))
