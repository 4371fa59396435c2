"""The sic bo pay table, loaded from TOML and validated when loaded.

>>> t = load_paytable()
>>> str(t.totals[4]), str(t.single[3]), str(t.flat["triple"])
('50:1', '3:1', '150:1')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.tomlread import (
    check_spec,
    exact_keys,
    parse_toml,
    pay_ratio,
    read_limits,
)

SPEC = 1
FLAT_KEYS = ("small", "big", "odd", "even", "any-triple", "triple", "double", "combo")
TOTALS = tuple(range(4, 18))


@dataclass(frozen=True, slots=True, kw_only=True)
class SicBoPaytable:
    source: str
    standard: bool  # True: the standard named in the rules index, not the casino's page
    minimum: int
    maximum: int
    increment: int
    flat: Mapping[str, Ratio]
    single: Mapping[int, Ratio]  # by the count of dice showing the number (1-3)
    totals: Mapping[int, Ratio]


def parse_paytable(data: Mapping[str, Any], name: str = "sic bo pay table") -> SicBoPaytable:
    exact_keys(name, data, {"spec", "game", "source", "standard", "limits", "pays"})
    check_spec(name, data, SPEC, "sicbo")
    if not isinstance(data["source"], str) or not data["source"].strip():
        raise PaytableError(f"{name}: source must name where the pays come from")
    if not isinstance(data["standard"], bool):
        raise PaytableError(f"{name}: standard must be true or false")
    lim = read_limits(f"{name} [limits]", data["limits"])
    pays = exact_keys(f"{name} [pays]", data["pays"], {*FLAT_KEYS, "single", "total"})
    single = exact_keys(f"{name} [pays.single]", pays["single"], {"1", "2", "3"})
    totals = exact_keys(f"{name} [pays.total]", pays["total"], {str(t) for t in TOTALS})
    table = SicBoPaytable(
        source=data["source"],
        standard=data["standard"],
        minimum=lim["minimum"],
        maximum=lim["maximum"],
        increment=lim["increment"],
        flat={k: pay_ratio(f"{name} [pays] {k}", pays[k], "5:1") for k in FLAT_KEYS},
        single={
            int(k): pay_ratio(f"{name} [pays.single] {k}", v, "5:1") for k, v in single.items()
        },
        totals={int(k): pay_ratio(f"{name} [pays.total] {k}", v, "5:1") for k, v in totals.items()},
    )
    for t in TOTALS:
        if table.totals[t] != table.totals[21 - t]:
            raise PaytableError(f"{name} [pays.total]: {t} and {21 - t} must pay the same")
    return table


def load_paytable_text(text: str, name: str = "sic bo pay table") -> SicBoPaytable:
    return parse_paytable(parse_toml(text, name), name)


def load_paytable(resource: str = "macau.toml") -> SicBoPaytable:
    text = resources.files("games.sicbo").joinpath(resource).read_text(encoding="utf-8")
    return load_paytable_text(text, resource)
