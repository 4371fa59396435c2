"""Casino War tables as data: ``paytables/*.toml``, loaded and validated.

The schema mirrors baccarat's (:mod:`games.baccarat.paytable`); the readers are
:mod:`games.core.tomlread`'s, the rules a :class:`~games.war.rules.WarRules`::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                 # optional
    [rules]
    decks = 6                       # 1..8
    new_shoe_each_game = false
    burn_cards = 3                  # burned before the war cards
    tie_after_war_bonus = "0:1"     # pay on the original bet when the war cards tie
    positions = 7
    seats = 7
    [bets.main] / [bets.tie] / [bets.raise]
    pays = "1:1"; minimum, maximum, increment = cents
    [declared_rtp_bp]               # optional

Bad data raises :class:`~games.core.errors.PaytableError` naming file and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.tomlread import TomlTable, packaged, parse_limit, parse_ratio, parse_toml
from games.war.rules import BETS, WarRules

SPEC = 1
MAX_DECKS = 8


def parse_table(data: Mapping[str, Any], where: str) -> Variant[WarRules]:
    """Validate a parsed pay-table mapping and build its variant."""
    top = TomlTable(
        data,
        where,
        {"spec", "id", "title", "source", "notes", "rules", "bets", "declared_rtp_bp"},
    )
    top.require_spec(SPEC)
    notes = top.notes()
    r = TomlTable(
        top.get("rules", dict),
        f"{where}: [rules]",
        {"decks", "new_shoe_each_game", "burn_cards", "tie_after_war_bonus", "positions", "seats"},
    )
    decks = r.get("decks", int)
    if not 1 <= decks <= MAX_DECKS:
        raise PaytableError(f"{where}: [rules] decks must be 1..{MAX_DECKS}, got {decks}")
    burn = r.get("burn_cards", int)
    if not 0 <= burn <= 10:
        raise PaytableError(f"{where}: [rules] burn_cards must be 0..10, got {burn}")
    positions, seats = r.get("positions", int), r.get("seats", int)
    if positions < 1 or seats < 1 or seats > positions:
        raise PaytableError(f"{where}: [rules] need 1 <= seats <= positions")
    if 52 * decks < 2 * (seats + 1) + burn:
        raise PaytableError(f"{where}: [rules] the shoe is too small for {seats} seats")
    bonus = parse_ratio(r.get("tie_after_war_bonus", str), f"{where}: [rules] tie_after_war_bonus")

    bets = top.get("bets", dict)
    if set(bets) != set(BETS):
        raise PaytableError(f"{where}: bets must be exactly {list(BETS)}, got {sorted(bets)}")
    pays: dict[str, Ratio] = {}
    limits: dict[str, BetLimit] = {}
    for name in BETS:
        spot = bets[name]
        if not isinstance(spot, dict):
            raise PaytableError(f"{where}: [bets.{name}] must be a table")
        pays[name] = parse_ratio(spot.get("pays"), f"{where}: [bets.{name}]")
        if pays[name].num == 0:
            raise PaytableError(f"{where}: [bets.{name}] pays nothing on a win")
        limits[name] = parse_limit(spot, f"{where}: [bets.{name}]")
    if limits["raise"].maximum < limits["main"].maximum:
        raise PaytableError(f"{where}: [bets.raise] must allow the largest main bet")

    declared = top.declared_rtp_bp(pays)

    rules = WarRules(
        decks=decks,
        new_shoe_each_game=r.get("new_shoe_each_game", bool),
        burn_cards=burn,
        tie_after_war_bonus=bonus,
        positions=positions,
        pays=MappingProxyType(pays),
        declared_rtp_bp=MappingProxyType(declared),
    )
    return Variant(
        id=top.get("id", str),
        family="war",
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(limits),
        rules=rules,
        seats=seats,
        notes=notes,
        decks=decks,
        new_shoe_each_game=rules.new_shoe_each_game,
    )


def loads(text: str, where: str = "<string>") -> Variant[WarRules]:
    """Parse and validate a war pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant[WarRules]:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.war", name))
