"""The roulette pay table and wheels (``paytables/wheels.toml``), validated when loaded.

>>> t = load_tables()
>>> str(t.pays["split"]), [v.id for v in t.wheels]
('17:1', ['roulette-single-zero', 'roulette-double-zero', 'roulette-la-partage'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.errors import PaytableError
from games.core.money import Ratio
from games.core.spot_layout import SpotHeader, read_header
from games.core.tomlread import exact_keys, packaged, parse_toml, pay_ratio
from games.roulette.rules import Wheel

SPEC = 1
KINDS = (
    "straight", "split", "street", "trio", "corner", "first-four", "top-line", "line",
    "dozen", "column", "red", "black", "odd", "even", "low", "high",
)  # fmt: skip
#: how many numbers each kind covers (a fair pay is (37 - n)/n on a single-zero wheel)
COVERS = {
    "straight": 1, "split": 2, "street": 3, "trio": 3, "corner": 4, "first-four": 4,
    "top-line": 5, "line": 6, "dozen": 12, "column": 12,
    "red": 18, "black": 18, "odd": 18, "even": 18, "low": 18, "high": 18,
}  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class RouletteTables:
    """The file: its header, the pays every wheel shares, and the wheels."""

    header: SpotHeader
    pays: Mapping[str, Ratio]
    wheels: tuple[Wheel, ...]


def parse_tables(data: Mapping[str, Any], name: str = "roulette tables") -> RouletteTables:
    """Validate the parsed tables: header, pays (each leaving the house an edge), wheels."""
    keys = {"spec", "game", "source", "standard", "limits", "pays", "variants"}
    header = read_header(name, data, keys, SPEC, "roulette", "rules")
    raw_pays = exact_keys(f"{name} [pays]", data["pays"], set(KINDS))
    pays = {k: pay_ratio(f"{name} [pays] {k}", raw_pays[k]) for k in KINDS}
    for kind, ratio in pays.items():
        # a pay at or above the single-zero fair price (37 - n)/n would leave no house edge
        if ratio.num * COVERS[kind] >= (37 - COVERS[kind]) * ratio.den:
            raise PaytableError(f"{name} [pays] {kind}: {ratio} leaves the house no edge")
    variants = data["variants"]
    if not isinstance(variants, dict) or not variants:
        raise PaytableError(f"{name}: [variants] must list at least one wheel")
    wheels = []
    for vid, raw in variants.items():
        where = f"{name} [variants.{vid}]"
        v = exact_keys(where, raw, {"title", "zeros", "la_partage"})
        zeros = tuple(v["zeros"]) if isinstance(v["zeros"], list) else ()
        if zeros not in (("0",), ("0", "00")):
            raise PaytableError(f'{where}: zeros must be ["0"] or ["0", "00"]')
        if not isinstance(v["la_partage"], bool) or not isinstance(v["title"], str):
            raise PaytableError(f"{where}: title must be text and la_partage true or false")
        if v["la_partage"] and zeros != ("0",):
            raise PaytableError(f"{where}: la partage is a single-zero rule")
        wheels.append(Wheel(id=vid, title=v["title"], zeros=zeros, la_partage=v["la_partage"]))
    return RouletteTables(header=header, pays=pays, wheels=tuple(wheels))


def load_tables_text(text: str, name: str = "roulette tables") -> RouletteTables:
    """Parse and validate the roulette tables given as TOML text."""
    return parse_tables(parse_toml(text, name), name)


def load_tables(name: str = "wheels") -> RouletteTables:
    """Load ``paytables/<name>.toml`` shipped inside this package."""
    text, where = packaged("games.roulette", name)
    return load_tables_text(text, where)
