"""The house rules a player reads at a table, per variant, from ``house_rules.toml``.

A variant's ``notes`` are its engineering record (which page says what, the readings of
doubtful lines); the rules panel shows this text instead, written for players. Read once,
validated when loaded (a start-up error names the file and key).

>>> rules_for("war-standard")[0]
'Six decks; aces are high and suits do not matter. The higher card wins 1 to 1.'
>>> rules_for("no-such-variant")
()
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from games.core.errors import PaytableError
from games.core.tomlread import TomlTable, parse_toml

WHERE = "kiosk_ui/web/house_rules.toml"


def parse_rules(data: dict[str, Any], where: str = WHERE) -> MappingProxyType[str, tuple[str, ...]]:
    """Variant id -> its lines of house rules; PaytableError on a malformed file."""
    top = TomlTable(data, where, {"spec", "rules"})
    if top.get("spec", int) != 1:
        raise PaytableError(f"{where}: spec must be 1")
    out: dict[str, tuple[str, ...]] = {}
    for variant, lines in top.get("rules", dict).items():
        if (
            not isinstance(lines, list)
            or not lines
            or not all(isinstance(x, str) and x for x in lines)
        ):
            raise PaytableError(f"{where}: [rules] {variant} must be a list of non-empty strings")
        out[variant] = tuple(lines)
    return MappingProxyType(out)


@cache
def _all() -> MappingProxyType[str, tuple[str, ...]]:
    text = resources.files("kiosk_ui.web").joinpath("house_rules.toml").read_text(encoding="utf-8")
    return parse_rules(parse_toml(text, WHERE))


def rules_for(variant: str) -> tuple[str, ...]:
    """The house rules of ``variant`` (empty for a variant without its text yet)."""
    return _all().get(variant, ())


def variants() -> frozenset[str]:
    """The variants the file writes rules for."""
    return frozenset(_all())
