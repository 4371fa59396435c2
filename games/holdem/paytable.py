"""Hold'em tables as data: ``paytables/*.toml``, loaded and validated.

Schema (``spec = 1``)::

    spec = 1
    id, title, source = "..."; notes = ["..."]
    [rules]  style = "casino" | "ultimate"; seats = 1..7; call_multiple = 2 (casino)
    [bets.<name>]   limits in cents: casino ante, call, bonus; ultimate ante, blind, play, trips
    casino:   [ante_pays] every category -> "n:d"; [bonus] category -> "n:d";
              bonus_pair_of_aces = "n:d" (in [bonus_extra])
    ultimate: [blind] category -> "n:d" (straight and up); [trips] (three of a kind and up)

Bad data raises :class:`~games.core.errors.PaytableError` naming file and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from games.caribbean_stud.paytable import parse_pays, read_header, read_limits
from games.core.engine import Variant
from games.core.errors import PaytableError
from games.core.tomlread import TomlTable, packaged, parse_ratio, parse_toml, rules_as
from games.holdem.rules import ANY_PAIR, PAIR_OF_FOURS, HoldemRules
from games.poker.category import Category

PACKAGED = ("pinnacle-holdem", "ultimate-texas-holdem")
BETS = {"casino": {"ante", "call", "bonus"}, "ultimate": {"ante", "blind", "play", "trips"}}


def parse_table(data: Mapping[str, Any], where: str) -> Variant:
    top, notes = read_header(
        data, where, {"rules", "bets", "ante_pays", "bonus", "bonus_extra", "blind", "trips"}
    )
    r = TomlTable(top.get("rules", dict), f"{where}: [rules]", {"style", "seats", "call_multiple"})
    style, seats = r.get("style", str), r.get("seats", int)
    if style not in BETS:
        raise PaytableError(f"{where}: [rules] style must be 'casino' or 'ultimate', got {style!r}")
    if not 1 <= seats <= 7:
        raise PaytableError(f"{where}: [rules] seats must be 1..7")
    bets = top.get("bets", dict)
    limits = read_limits(bets, BETS[style], where)
    if any("pays" in bets[b] for b in bets):
        raise PaytableError(f"{where}: bets pay by their own tables, not by a 'pays' key")
    if style == "casino":
        multiple = r.get("call_multiple", int)
        if not 1 <= multiple <= 10:
            raise PaytableError(f"{where}: [rules] call_multiple must be 1..10")
        if limits["call"].maximum < multiple * limits["ante"].maximum:
            raise PaytableError(f"{where}: [bets.call] must allow {multiple} x the largest ante")
        ante = parse_pays(top.get("ante_pays", dict), f"{where}: [ante_pays]")
        missing = [c.label for c in Category if c <= Category.ROYAL_FLUSH and c not in ante]
        if missing:
            raise PaytableError(f"{where}: [ante_pays] has no pay for {', '.join(missing)}")
        extra = TomlTable(
            top.get("bonus_extra", dict, default={}, required=False),
            f"{where}: [bonus_extra]",
            {"pair_of_aces"},
        )
        aces = extra.get("pair_of_aces", str, default=None, required=False)
        rules = HoldemRules(
            style=style,
            qualifier=PAIR_OF_FOURS,
            call_multiple=multiple,
            ante_pays=MappingProxyType(ante),
            bonus=MappingProxyType(parse_pays(top.get("bonus", dict), f"{where}: [bonus]")),
            bonus_pair_of_aces=parse_ratio(aces, f"{where}: [bonus_extra]") if aces else None,
        )
    else:
        if limits["play"].maximum < 4 * limits["ante"].maximum:
            raise PaytableError(f"{where}: [bets.play] must allow 4 x the largest ante")
        blind = parse_pays(top.get("blind", dict), f"{where}: [blind]")
        trips = parse_pays(top.get("trips", dict), f"{where}: [trips]")
        if min(blind) < Category.STRAIGHT or min(trips) < Category.THREE_OF_A_KIND:
            raise PaytableError(f"{where}: [blind] pays from a straight, [trips] from trips")
        rules = HoldemRules(
            style=style,
            qualifier=ANY_PAIR,
            blind=MappingProxyType(blind),
            trips=MappingProxyType(trips),
        )
    return Variant(
        id=top.get("id", str),
        family="holdem",
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(limits),
        rules=rules,
        seats=seats,
        notes=tuple(notes),
        decks=1,
        new_shoe_each_game=True,
    )


def loads(text: str, where: str = "<string>") -> Variant:
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant:
    return loads(*packaged("games.holdem", name))


def rules_of(variant: Variant) -> HoldemRules:
    return rules_as(variant, HoldemRules, "hold'em")
