"""Let'Em Ride tables as data: ``paytables/*.toml``, loaded and validated.

Schema (``spec = 1``)::

    spec = 1
    id, title, source = "..."; notes = ["..."]
    [rules]  seats = 1..7
    [bets.ante]         limits (cents); each raise equals the ante
    [bets.raise]        limits (must allow the largest ante)
    [bets.progressive]  optional, with [jackpot]: minimum = maximum = the fixed stake
    [pays]              category -> "n:d" (pair = a pair of tens or better); all of pair..royal
    [jackpot]           games.caribbean_stud.progressive.parse_jackpot

Bad data raises :class:`~games.core.errors.PaytableError` naming file and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from games.caribbean_stud.paytable import parse_pays, read_header, read_limits
from games.caribbean_stud.progressive import parse_jackpot
from games.core.engine import Variant
from games.core.errors import PaytableError
from games.core.tomlread import TomlTable, packaged, parse_toml, rules_as
from games.let_it_ride.rules import RideRules
from games.poker.category import Category

PACKAGED = ("lets-em-ride", "lets-em-ride-alternate")


def parse_table(data: Mapping[str, Any], where: str) -> Variant:
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
    return Variant(
        id=top.get("id", str),
        family="let_it_ride",
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(limits),
        rules=RideRules(pays=MappingProxyType(pays), jackpot=jackpot),
        seats=seats,
        notes=tuple(notes),
        decks=1,
        new_shoe_each_game=True,
        jackpots=MappingProxyType({jackpot.meter: jackpot.reset} if jackpot else {}),
    )


def loads(text: str, where: str = "<string>") -> Variant:
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant:
    return loads(*packaged("games.let_it_ride", name))


def rules_of(variant: Variant) -> RideRules:
    return rules_as(variant, RideRules, "Let'Em Ride")
