"""The sic bo pay table, loaded from TOML and validated when loaded.

>>> t = load_paytable()
>>> str(t.totals[4]), str(t.single[3]), str(t.flat["triple"])
('50:1', '3:1', '150:1')
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from games.core.errors import PaytableError
from games.core.money import Ratio

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


def _ratio(where: str, text: Any) -> Ratio:
    num, sep, den = text.partition(":") if isinstance(text, str) else ("", "", "")
    if not (sep and num.strip().isdigit() and den.strip().isdigit()):
        raise PaytableError(f"{where}: pay must look like '5:1', got {text!r}")
    try:
        return Ratio(int(num), int(den))
    except ValueError as exc:
        raise PaytableError(f"{where}: {exc}") from None


def _keys(where: str, table: Any, expected: set[str]) -> Mapping[str, Any]:
    if not isinstance(table, dict):
        raise PaytableError(f"{where}: expected a table")
    if missing := expected - set(table):
        raise PaytableError(f"{where}: missing {sorted(missing)}")
    if unknown := set(table) - expected:
        raise PaytableError(f"{where}: unknown keys {sorted(unknown)}")
    return table


def _positive(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise PaytableError(f"{where}: expected a positive integer, got {value!r}")
    return value


def parse_paytable(data: Mapping[str, Any], name: str = "sic bo pay table") -> SicBoPaytable:
    _keys(name, data, {"spec", "game", "source", "standard", "limits", "pays"})
    if data["spec"] != SPEC:
        raise PaytableError(f"{name}: spec must be {SPEC}, got {data['spec']!r}")
    if data["game"] != "sicbo":
        raise PaytableError(f"{name}: game must be 'sicbo', got {data['game']!r}")
    if not isinstance(data["source"], str) or not data["source"].strip():
        raise PaytableError(f"{name}: source must name where the pays come from")
    if not isinstance(data["standard"], bool):
        raise PaytableError(f"{name}: standard must be true or false")
    limits = _keys(f"{name} [limits]", data["limits"], {"minimum", "maximum", "increment"})
    lim = {k: _positive(f"{name} [limits] {k}", v) for k, v in limits.items()}
    if lim["minimum"] > lim["maximum"]:
        raise PaytableError(f"{name} [limits]: minimum above maximum")
    pays = _keys(f"{name} [pays]", data["pays"], {*FLAT_KEYS, "single", "total"})
    single = _keys(f"{name} [pays.single]", pays["single"], {"1", "2", "3"})
    totals = _keys(f"{name} [pays.total]", pays["total"], {str(t) for t in TOTALS})
    table = SicBoPaytable(
        source=data["source"],
        standard=data["standard"],
        minimum=lim["minimum"],
        maximum=lim["maximum"],
        increment=lim["increment"],
        flat={k: _ratio(f"{name} [pays] {k}", pays[k]) for k in FLAT_KEYS},
        single={int(k): _ratio(f"{name} [pays.single] {k}", v) for k, v in single.items()},
        totals={int(k): _ratio(f"{name} [pays.total] {k}", v) for k, v in totals.items()},
    )
    for t in TOTALS:
        if table.totals[t] != table.totals[21 - t]:
            raise PaytableError(f"{name} [pays.total]: {t} and {21 - t} must pay the same")
    return table


def load_paytable_text(text: str, name: str = "sic bo pay table") -> SicBoPaytable:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PaytableError(f"{name}: not valid TOML: {exc}") from None
    return parse_paytable(data, name)


def load_paytable(resource: str = "macau.toml") -> SicBoPaytable:
    text = resources.files("games.sicbo").joinpath(resource).read_text(encoding="utf-8")
    return load_paytable_text(text, resource)
