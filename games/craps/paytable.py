"""The craps pay table and table limits, loaded from TOML and validated when loaded.

The file (``paytables/pinnacle.toml``) is data: ``spec = 1``, the source page named, every pay a
``"num:den"`` string. Loading checks every key the rules need is present, nothing
unknown is there, every pay parses, and that the horn and world pays are exactly
the page's proposition pays less the other units (the reading of the rules index),
so a typo in one table cannot silently disagree with another.

>>> table = load_paytable()
>>> str(table.pay("place-win", 6))
'7:6'
>>> table.max_odds_multiple(lay=False, point=6)
5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.errors import PaytableError
from games.core.money import Ratio, Rounding
from games.core.tomlread import (
    check_spec,
    exact_keys,
    packaged,
    parse_toml,
    pay_ratio,
    read_int,
    read_limits,
)
from games.craps.bets import POINTS, PROPOSITIONS

SPEC = 1
_FLAT = ("pass", "dont-pass", "come", "dont-come", "big", *(k.value for k in PROPOSITIONS))
_BY_NUMBER: dict[str, tuple[int, ...]] = {
    "take-odds": POINTS,
    "lay-odds": POINTS,
    "place-win": POINTS,
    "place-lose": POINTS,
    "buy": POINTS,
    "lay": POINTS,
    "hard": (4, 6, 8, 10),
    "field": (2, 3, 4, 9, 10, 11, 12),
    "horn": (2, 3, 11, 12),
    "world": (2, 3, 7, 11, 12),
}
_PROP_FOR = {2: "crap-2", 3: "crap-3", 7: "any-7", 11: "any-11", 12: "crap-12"}


@dataclass(frozen=True, slots=True, kw_only=True)
class CrapsPaytable:
    """Pays, limits, odds multiples and commissions of one craps table."""

    source: str
    rounding: Rounding
    minimum: int
    maximum: int
    increment: int
    horn_increment: int
    world_increment: int
    take_max: Mapping[int, int]
    lay_max: int
    buy_bp_of_stake: int
    lay_bp_of_win: int
    flat: Mapping[str, Ratio]
    by_number: Mapping[str, Mapping[int, Ratio]]
    horn_units: int
    world_units: int

    def pay(self, table: str, number: int | None = None) -> Ratio:
        """The pay of ``table`` (a flat bet name, or a per-number table with ``number``)."""
        if number is None:
            return self.flat[table]
        return self.by_number[table][number]

    def max_odds_multiple(self, *, lay: bool, point: int) -> int:
        return self.lay_max if lay else self.take_max[point]


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise PaytableError(f"{where}: missing table [{key}]")
    return value


def parse_paytable(data: Mapping[str, Any], name: str = "craps pay table") -> CrapsPaytable:
    """Validate a parsed TOML document; :class:`PaytableError` names the first problem."""
    exact_keys(
        name,
        data,
        {"spec", "game", "source", "rounding", "limits", "odds", "commission", "pays"},
    )
    check_spec(name, data, SPEC, "craps")
    if not isinstance(data["source"], str) or not data["source"].strip():
        raise PaytableError(f"{name}: source must name the rules page")
    try:
        rounding = Rounding(data["rounding"])
    except ValueError:
        raise PaytableError(f"{name}: unknown rounding {data['rounding']!r}") from None

    lim = read_limits(
        f"{name} [limits]",
        _table(data, "limits", name),
        frozenset({"horn_increment", "world_increment"}),
    )

    odds = _table(data, "odds", name)
    exact_keys(f"{name} [odds]", odds, {"take_max_multiple", "lay_max_multiple"})
    take = odds["take_max_multiple"]
    if not isinstance(take, dict):
        raise PaytableError(f"{name} [odds]: take_max_multiple must be a table")
    exact_keys(f"{name} [odds] take_max_multiple", take, {str(p) for p in POINTS})
    take_max = {int(k): read_int(f"{name} [odds] {k}", v) for k, v in take.items()}

    comm = _table(data, "commission", name)
    exact_keys(f"{name} [commission]", comm, {"buy_bp_of_stake", "lay_bp_of_win"})

    pays = _table(data, "pays", name)
    exact_keys(f"{name} [pays]", pays, set(_FLAT) | set(_BY_NUMBER))
    flat = {k: pay_ratio(f"{name} [pays] {k}", pays[k], "7:6") for k in _FLAT}
    by_number: dict[str, dict[int, Ratio]] = {}
    units: dict[str, int] = {}
    for table, numbers in _BY_NUMBER.items():
        raw = _table(pays, table, f"{name} [pays]")
        expected = {str(n) for n in numbers} | ({"units"} if table in ("horn", "world") else set())
        exact_keys(f"{name} [pays.{table}]", raw, expected)
        if "units" in raw:
            units[table] = read_int(f"{name} [pays.{table}] units", raw["units"])
        by_number[table] = {
            n: pay_ratio(f"{name} [pays.{table}] {n}", raw[str(n)], "7:6") for n in numbers
        }
    for table in ("horn", "world"):
        others = units[table] - 1
        for n, got in by_number[table].items():
            prop = flat[_PROP_FOR[n]]
            if prop.den != 1 or got.den != 1 or got.num != prop.num - others:
                raise PaytableError(
                    f"{name} [pays.{table}] {n}: {got} disagrees with the proposition pay "
                    f"{prop} less the other {others} units"
                )
    return CrapsPaytable(
        source=data["source"],
        rounding=rounding,
        minimum=lim["minimum"],
        maximum=lim["maximum"],
        increment=lim["increment"],
        horn_increment=lim["horn_increment"],
        world_increment=lim["world_increment"],
        take_max=take_max,
        lay_max=read_int(f"{name} [odds] lay_max_multiple", odds["lay_max_multiple"]),
        buy_bp_of_stake=read_int(
            f"{name} buy_bp_of_stake", comm["buy_bp_of_stake"], positive=False
        ),
        lay_bp_of_win=read_int(f"{name} lay_bp_of_win", comm["lay_bp_of_win"], positive=False),
        flat=flat,
        by_number=by_number,
        horn_units=units["horn"],
        world_units=units["world"],
    )


def load_paytable_text(text: str, name: str = "craps pay table") -> CrapsPaytable:
    return parse_paytable(parse_toml(text, name), name)


def load_paytable(name: str = "pinnacle") -> CrapsPaytable:
    """Load ``paytables/<name>.toml``, shipped in this package."""
    text, where = packaged("games.craps", name)
    return load_paytable_text(text, where)
