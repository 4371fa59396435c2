"""The sic bo pay table (``paytables/macau.toml``), loaded from TOML and validated when loaded.

>>> t = load_paytable()
>>> str(t.rules.totals[4]), str(t.rules.single[3]), str(t.rules.flat["triple"])
('50:1', '3:1', '150:1')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.errors import PaytableError
from games.core.spot_layout import SpotHeader, read_header
from games.core.tomlread import exact_keys, packaged, parse_toml, pay_ratio
from games.sicbo.rules import FLAT_KEYS, TOTALS, SicBoRules

SPEC = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class SicBoPaytable:
    """The file: its header (source, standard, the one limit) and the table's rules."""

    header: SpotHeader
    rules: SicBoRules


def parse_paytable(data: Mapping[str, Any], name: str = "sic bo pay table") -> SicBoPaytable:
    """Validate the parsed pay table: header, flat pays, singles, totals (4 pays as 17...)."""
    keys = {"spec", "game", "source", "standard", "limits", "pays"}
    header = read_header(name, data, keys, SPEC, "sicbo", "pays")
    pays = exact_keys(f"{name} [pays]", data["pays"], {*FLAT_KEYS, "single", "total"})
    single = exact_keys(f"{name} [pays.single]", pays["single"], {"1", "2", "3"})
    totals = exact_keys(f"{name} [pays.total]", pays["total"], {str(t) for t in TOTALS})
    rules = SicBoRules(
        flat={k: pay_ratio(f"{name} [pays] {k}", pays[k], "5:1") for k in FLAT_KEYS},
        single={
            int(k): pay_ratio(f"{name} [pays.single] {k}", v, "5:1") for k, v in single.items()
        },
        totals={int(k): pay_ratio(f"{name} [pays.total] {k}", v, "5:1") for k, v in totals.items()},
    )
    for t in TOTALS:
        if rules.totals[t] != rules.totals[21 - t]:
            raise PaytableError(f"{name} [pays.total]: {t} and {21 - t} must pay the same")
    return SicBoPaytable(header=header, rules=rules)


def load_paytable_text(text: str, name: str = "sic bo pay table") -> SicBoPaytable:
    """Parse and validate a sic bo pay table given as TOML text."""
    return parse_paytable(parse_toml(text, name), name)


def load_paytable(name: str = "macau") -> SicBoPaytable:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    text, where = packaged("games.sicbo", name)
    return load_paytable_text(text, where)
