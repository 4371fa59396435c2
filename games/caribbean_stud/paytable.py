"""Caribbean Stud family tables as data: ``paytables/*.toml``, loaded and validated.

Schema (``spec = 1``; every key required unless marked optional)::

    spec = 1
    id, title, source = "..."
    notes = ["..."]                      # optional: what is the page, what is the standard
    [rules]
    dealer_shows_card = true
    call_multiple = 2
    seats = 1                            # 1..7
    [bets.ante]    pays = "1:1"; minimum, maximum, increment (cents)
    [bets.call]    limits (must allow call_multiple x the largest ante)
    [bets.jackpot] optional, with [jackpot]; minimum = maximum = the fixed stake
    [call]                               # category name -> "n:d"; high_card = the ace/king
    [draw_costs]                         # optional (Oasis): "1".."5" -> price in antes
    auto_call_draws = [5]                # optional, with [draw_costs]
    [jackpot]                            # see games.caribbean_stud.progressive.parse_jackpot
    meter, stake, contribution, reset, always_contribute
    [jackpot.fixed]    category -> cents
    [jackpot.share_bp] category -> basis points of the meter

Bad data raises :class:`~games.core.errors.PaytableError` naming the file and key;
nothing is half-loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources as resources  # tests read the shipped files through it
from types import MappingProxyType
from typing import Any

from games.caribbean_stud.progressive import category_named, parse_jackpot
from games.caribbean_stud.rules import StudRules
from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.tomlread import TomlTable, packaged, parse_limit, parse_ratio, parse_toml, rules_as
from games.poker.category import Category

SPEC = 1
PACKAGED = ("caribbean-stud", "pinnacle-stud-poker", "oasis-poker")
FAMILY = "caribbean_stud"


def parse_pays(data: object, where: str) -> dict[Category, Ratio]:
    """A category -> ratio table (``pair = "1:1"``)."""
    if not isinstance(data, dict) or not data:
        raise PaytableError(f"{where} must be a non-empty table")
    out: dict[Category, Ratio] = {}
    for name, text in data.items():
        out[category_named(name, where)] = parse_ratio(text, f"{where} {name}")
    return out


def read_header(data: Mapping[str, Any], where: str, keys: set[str]) -> tuple[TomlTable, list[str]]:
    """The common top of every pay-table file: spec, id, title, source, notes."""
    top = TomlTable(data, where, {"spec", "id", "title", "source", "notes", *keys})
    top.require_spec(SPEC)
    return top, list(top.notes())


def read_limits(bets: object, wanted: set[str], where: str) -> dict[str, BetLimit]:
    """Limits for exactly the ``wanted`` bets (``pays`` keys are read by the caller)."""
    if not isinstance(bets, dict) or set(bets) != wanted:
        got = sorted(bets) if isinstance(bets, dict) else bets
        raise PaytableError(f"{where}: bets must be exactly {sorted(wanted)}, got {got}")
    out: dict[str, BetLimit] = {}
    for name in sorted(wanted):
        spot = bets[name]
        if not isinstance(spot, dict):
            raise PaytableError(f"{where}: [bets.{name}] must be a table")
        out[name] = parse_limit(spot, f"{where}: [bets.{name}]")
    return out


def parse_table(data: Mapping[str, Any], where: str) -> Variant:
    """Validate a parsed pay-table mapping and build its variant."""
    top, notes = read_header(data, where, {"rules", "bets", "call", "draw_costs", "jackpot"})
    r = TomlTable(
        top.get("rules", dict),
        f"{where}: [rules]",
        {"dealer_shows_card", "call_multiple", "seats", "auto_call_draws"},
    )
    seats, multiple = r.get("seats", int), r.get("call_multiple", int)
    if not 1 <= seats <= 7:
        raise PaytableError(f"{where}: [rules] seats must be 1..7")
    if not 1 <= multiple <= 10:
        raise PaytableError(f"{where}: [rules] call_multiple must be 1..10")
    jackpot_data = top.get("jackpot", dict, default=None, required=False)
    jackpot = parse_jackpot(jackpot_data, f"{where}: [jackpot]") if jackpot_data else None
    bets = top.get("bets", dict)
    limits = read_limits(bets, {"ante", "call"} | ({"jackpot"} if jackpot else set()), where)
    ante_pays = parse_ratio(bets["ante"].get("pays"), f"{where}: [bets.ante]")
    for name in ("call", "jackpot"):
        if name in bets and "pays" in bets[name]:
            raise PaytableError(f"{where}: [bets.{name}] pays by its own table, not 'pays'")
    if limits["call"].maximum < multiple * limits["ante"].maximum:
        raise PaytableError(f"{where}: [bets.call] must allow {multiple} x the largest ante")
    if jackpot and not limits["jackpot"].minimum == limits["jackpot"].maximum == jackpot.stake:
        raise PaytableError(f"{where}: [bets.jackpot] must be exactly the jackpot stake")
    call = parse_pays(top.get("call", dict), f"{where}: [call]")
    missing = [c.label for c in Category if c <= Category.ROYAL_FLUSH and c not in call]
    if missing:
        raise PaytableError(f"{where}: [call] has no pay for {', '.join(missing)}")
    costs_raw = top.get("draw_costs", dict, default={}, required=False)
    costs: dict[int, int] = {}
    for k, v in costs_raw.items():
        if k not in {"1", "2", "3", "4", "5"}:
            raise PaytableError(f"{where}: [draw_costs] keys are 1..5 cards, got {k!r}")
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10:
            raise PaytableError(f"{where}: [draw_costs] {k} must be 0..10 antes")
        costs[int(k)] = v
    auto = r.get("auto_call_draws", list, default=[], required=False)
    if any(a not in costs for a in auto):
        raise PaytableError(f"{where}: [rules] auto_call_draws must be sizes in [draw_costs]")
    rules = StudRules(
        dealer_shows_card=r.get("dealer_shows_card", bool),
        call_multiple=multiple,
        ante_pays=ante_pays,
        call_pays=MappingProxyType(call),
        draw_costs=MappingProxyType(costs),
        auto_call_draws=frozenset(auto),
        jackpot=jackpot,
    )
    return Variant(
        id=top.get("id", str),
        family=FAMILY,
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(limits),
        rules=rules,
        seats=seats,
        notes=tuple(notes),
        decks=1,
        new_shoe_each_game=True,
        jackpots=MappingProxyType({jackpot.meter: jackpot.reset} if jackpot else {}),
    )


def loads(text: str, where: str = "<string>") -> Variant:
    """Parse and validate a Caribbean Stud family pay table given as TOML text."""
    return parse_table(parse_toml(text, where), where)


def load_packaged(name: str) -> Variant:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    return loads(*packaged("games.caribbean_stud", name))


def rules_of(variant: Variant) -> StudRules:
    return rules_as(variant, StudRules, "Caribbean Stud family")
