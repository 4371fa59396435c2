"""Three-card tables as data: ``paytables/*.toml``, loaded and validated.

Schema (``spec = 1``; every key required unless marked optional)::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                     # optional
    [rules]
    dealer_shows_card = true            # one dealer card exposed before play/fold (004)
    pair_plus_alone = false             # Pair Plus without an ante (001)
    positions = 6; seats = 6
    [bets.ante] / [bets.play]           # pays = "1:1"; minimum, maximum, increment (cents)
    [bets.pair-plus]                    # limits only: it pays by [pair_plus]
    [bets.six-card-bonus]               # optional, with [six_card_bonus]
    [pair_plus]                         # Category3 name (lower case) -> "n:d"
    [ante_bonus]                        # optional, Category3 name -> "n:d"
    [six_card_bonus]                    # optional, Category name -> "n:d"

The TOML readers are baccarat's (:mod:`games.baccarat.paytable`), as Casino War
uses them. Bad data raises :class:`~games.core.errors.PaytableError` naming the
file and key, and nothing is half-loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from types import MappingProxyType
from typing import Any, TypeVar

from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.tomlread import TomlTable, packaged, parse_limit, parse_ratio, parse_toml, rules_as
from games.poker.category import Category
from games.poker.three_card import Category3
from games.three_card.rules import ThreeCardRules

SPEC = 1
PACKAGED = ("three-card-poker", "tri-card-poker")
E = TypeVar("E", bound=IntEnum)


def _pay_table(data: object, enum: type[E], where: str) -> dict[E, Ratio]:
    if not isinstance(data, dict):
        raise PaytableError(f"{where} must be a table")
    out: dict[E, Ratio] = {}
    for name, text in data.items():
        try:
            key = enum[name.upper()]
        except KeyError:
            known = ", ".join(m.name.lower() for m in enum)
            raise PaytableError(f"{where}: unknown hand {name!r} (hands: {known})") from None
        ratio = parse_ratio(text, f"{where} {name}")
        if ratio.num == 0:
            raise PaytableError(f"{where} {name}: pays nothing")
        out[key] = ratio
    return out


def parse_table(data: Mapping[str, Any], where: str) -> Variant:
    """Validate a parsed pay-table mapping and build its variant."""
    top = TomlTable(
        data,
        where,
        {
            "spec",
            "id",
            "title",
            "source",
            "notes",
            "rules",
            "bets",
            "pair_plus",
            "ante_bonus",
            "six_card_bonus",
        },
    )
    top.require_spec(SPEC)
    notes = top.notes()
    r = TomlTable(
        top.get("rules", dict),
        f"{where}: [rules]",
        {"dealer_shows_card", "pair_plus_alone", "positions", "seats"},
    )
    positions, seats = r.get("positions", int), r.get("seats", int)
    if not 1 <= seats <= positions <= 7:
        raise PaytableError(f"{where}: [rules] need 1 <= seats <= positions <= 7")

    bets = top.get("bets", dict)
    six = top.get("six_card_bonus", dict, default={}, required=False)
    wanted = {"ante", "play", "pair-plus"} | ({"six-card-bonus"} if six else set())
    if set(bets) != wanted:
        raise PaytableError(f"{where}: bets must be exactly {sorted(wanted)}, got {sorted(bets)}")
    pays: dict[str, Ratio] = {}
    limits: dict[str, BetLimit] = {}
    for name in sorted(wanted):
        spot = bets[name]
        if not isinstance(spot, dict):
            raise PaytableError(f"{where}: [bets.{name}] must be a table")
        if name in ("ante", "play"):
            pays[name] = parse_ratio(spot.get("pays"), f"{where}: [bets.{name}]")
        elif "pays" in spot:
            raise PaytableError(f"{where}: [bets.{name}] pays by its own table, not 'pays'")
        limits[name] = parse_limit(spot, f"{where}: [bets.{name}]")
    if limits["play"].maximum < limits["ante"].maximum:
        raise PaytableError(f"{where}: [bets.play] must allow the largest ante")

    rules = ThreeCardRules(
        dealer_shows_card=r.get("dealer_shows_card", bool),
        pair_plus_alone=r.get("pair_plus_alone", bool),
        positions=positions,
        pays=MappingProxyType(pays),
        pair_plus=MappingProxyType(
            _pay_table(top.get("pair_plus", dict), Category3, f"{where}: [pair_plus]")
        ),
        ante_bonus=MappingProxyType(
            _pay_table(
                top.get("ante_bonus", dict, default={}, required=False),
                Category3,
                f"{where}: [ante_bonus]",
            )
        ),
        six_card_bonus=MappingProxyType(_pay_table(six, Category, f"{where}: [six_card_bonus]")),
    )
    if Category3.HIGH_CARD in rules.pair_plus:
        raise PaytableError(f"{where}: [pair_plus] cannot pay a high card")
    return Variant(
        id=top.get("id", str),
        family="three_card",
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(limits),
        rules=rules,
        seats=seats,
        notes=notes,
        decks=1,
        new_shoe_each_game=True,
    )


def loads(text: str, where: str = "<string>") -> Variant:
    """Parse and validate a three-card pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.three_card", name))


def rules_of(variant: Variant) -> ThreeCardRules:
    """The variant's rules, checked to be three-card's."""
    return rules_as(variant, ThreeCardRules, "three-card")
