"""The pay-table readers the house-banked poker families share.

Caribbean Stud, hold'em, Let'Em Ride and the three-card games read their tables the
same way: a header (``spec``, ``id``, ``title``, ``source``, ``notes``), one
``[bets.<name>]`` table of limits per bet, category -> ratio pay tables, and a
one-deck variant with its progressive meter, if any. Errors are
:class:`~games.core.errors.PaytableError` naming the file and key.

>>> from games.core.tomlread import parse_toml
>>> parse_pays(parse_toml('pair = "1:1"', "t.toml"), "t.toml [call]")
{<Category.PAIR: 1>: Ratio(num=1, den=1)}
>>> read_limits({"ante": {}}, {"ante", "call"}, "t.toml")
Traceback (most recent call last):
...
games.core.errors.PaytableError: t.toml: bets must be exactly ['ante', 'call'], got ['ante']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from games.core import collection
from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.progressive import JackpotTable, category_named
from games.core.tomlread import TomlTable, parse_limit, parse_ratio
from games.poker.category import Category

#: the pay-table format every poker family's files declare
SPEC = 1
R = TypeVar("R")


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
    top = TomlTable(data, where, {"spec", "id", "title", "source", "notes", "collection", *keys})
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


def one_deck_variant(
    top: TomlTable,
    notes: list[str] | tuple[str, ...],
    *,
    family: str,
    limits: Mapping[str, BetLimit],
    rules: R,
    seats: int,
    jackpot: JackpotTable[Any] | None = None,
) -> Variant[R]:
    """The variant of a table dealt from a fresh deck each game, feeding ``jackpot``'s meter."""
    return Variant(
        id=top.get("id", str),
        family=family,
        title=top.get("title", str),
        source=top.get("source", str),
        limits=MappingProxyType(dict(limits)),
        rules=rules,
        seats=seats,
        notes=tuple(notes),
        decks=1,
        new_shoe_each_game=True,
        jackpots=MappingProxyType({jackpot.meter: jackpot.reset} if jackpot else {}),
        collection=collection.read(top.data, top.where),
    )


__all__ = ["SPEC", "one_deck_variant", "parse_pays", "read_header", "read_limits"]
