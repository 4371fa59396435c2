"""A layout of bet spots under one limit (roulette, sic bo): its pay-table header, its variant.

Roulette's wheels and sic bo's table are written the same way: a TOML file with
``spec``, ``game``, ``source``, ``standard`` (True: the standard named in the rules
index, not the casino's page) and one ``[limits]`` table that every spot of the layout
shares. :func:`read_header` validates that much (each family then reads its own pays);
:func:`spot_variant` turns a layout's spot names into the
:class:`~games.core.engine.Variant` with that limit on every spot.

>>> h = read_header("t", {"spec": 1, "game": "g", "source": "s", "standard": True,
...                       "limits": {"minimum": 100, "maximum": 500, "increment": 100}},
...                 {"spec", "game", "source", "standard", "limits"}, 1, "g", "rules")
>>> h.limit
BetLimit(minimum=100, maximum=500, increment=100)
>>> read_header("t", {"spec": 1, "game": "g", "source": " ", "standard": True, "limits": {}},
...             {"spec", "game", "source", "standard", "limits"}, 1, "g", "pays")
Traceback (most recent call last):
...
games.core.errors.PaytableError: t: source must name where the pays come from
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from games.core.engine import BetLimit, Variant
from games.core.errors import PaytableError
from games.core.tomlread import check_spec, exact_keys, read_limits

R = TypeVar("R")


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotHeader:
    """What every spot-layout pay table states before its pays."""

    source: str
    standard: bool  # True: the standard named in the rules index, not the casino's page
    limit: BetLimit  # every spot's limit


def read_header(
    name: str,
    data: Mapping[str, Any],
    keys: set[str],
    spec: int,
    game: str,
    what: str,
) -> SpotHeader:
    """Check the file holds exactly ``keys`` and read its header (``what``: "rules", "pays")."""
    exact_keys(name, data, keys)
    check_spec(name, data, spec, game)
    if not isinstance(data["source"], str) or not data["source"].strip():
        raise PaytableError(f"{name}: source must name where the {what} come from")
    if not isinstance(data["standard"], bool):
        raise PaytableError(f"{name}: standard must be true or false")
    lim = read_limits(f"{name} [limits]", data["limits"])
    return SpotHeader(
        source=data["source"],
        standard=data["standard"],
        limit=BetLimit(minimum=lim["minimum"], maximum=lim["maximum"], increment=lim["increment"]),
    )


def spot_variant(
    *,
    id: str,
    family: str,
    title: str,
    header: SpotHeader,
    spots: Iterable[str],
    rules: R,
    note: str,
    zeros: int = 0,
) -> Variant[R]:
    """The variant of a layout whose every spot (bet name) has the header's limit."""
    return Variant(
        id=id,
        family=family,
        title=title,
        source=header.source,
        limits={spot: header.limit for spot in spots},
        rules=rules,
        zeros=zeros,
        notes=(note,),
    )


__all__ = ["SpotHeader", "read_header", "spot_variant"]
