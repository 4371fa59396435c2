"""Craps bet kinds and bet names: the one place a bet's text name is parsed.

A bet spot is named ``kind`` or ``kind-N``: ``"pass"``, ``"come"`` (in the come
box), ``"come-4"`` (a come bet that travelled to the 4), ``"come-odds-4"``,
``"place-win-6"``, ``"hard-8"``, ``"big-6"``, ``"crap-2"``.

>>> parse_bet("place-win-6")
BetKey(kind=<Kind.PLACE_WIN: 'place-win'>, number=6)
>>> str(BetKey(Kind.COME_ODDS, 4))
'come-odds-4'
>>> parse_bet("crap-2").kind
<Kind.CRAP_2: 'crap-2'>
>>> title(parse_bet("place-win-6")), title(key_of("horn"))
('place to win 6', 'horn')
>>> parse_bet("place-win-7")
Traceback (most recent call last):
...
games.core.errors.BetRefused: no such craps bet: 'place-win-7'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.core.errors import BetRefused

POINTS: tuple[int, ...] = (4, 5, 6, 8, 9, 10)
HARD_NUMBERS: tuple[int, ...] = (4, 6, 8, 10)
BIG_NUMBERS: tuple[int, ...] = (6, 8)


class Kind(StrEnum):
    PASS = "pass"
    DONT_PASS = "dont-pass"
    PASS_ODDS = "pass-odds"
    DONT_PASS_ODDS = "dont-pass-odds"
    COME = "come"
    DONT_COME = "dont-come"
    COME_ODDS = "come-odds"
    DONT_COME_ODDS = "dont-come-odds"
    PLACE_WIN = "place-win"
    PLACE_LOSE = "place-lose"
    BUY = "buy"
    LAY = "lay"
    HARD = "hard"
    BIG = "big"
    FIELD = "field"
    HORN = "horn"
    WORLD = "world"
    ANY_7 = "any-7"
    ANY_CRAPS = "any-craps"
    CRAP_2 = "crap-2"
    CRAP_3 = "crap-3"
    ANY_11 = "any-11"
    CRAP_12 = "crap-12"


#: kinds resolved by the very next roll
ONE_ROLL: frozenset[Kind] = frozenset(
    {
        Kind.FIELD,
        Kind.HORN,
        Kind.WORLD,
        Kind.ANY_7,
        Kind.ANY_CRAPS,
        Kind.CRAP_2,
        Kind.CRAP_3,
        Kind.ANY_11,
        Kind.CRAP_12,
    }
)
PROPOSITIONS: tuple[Kind, ...] = (
    Kind.ANY_7,
    Kind.ANY_CRAPS,
    Kind.CRAP_2,
    Kind.CRAP_3,
    Kind.ANY_11,
    Kind.CRAP_12,
)
#: the bet types the "Come Out Options" panel turns on or off, with the page's defaults
WORKING_DEFAULTS: dict[Kind, bool] = {
    Kind.COME_ODDS: False,
    Kind.DONT_COME_ODDS: True,
    Kind.PLACE_WIN: False,
    Kind.PLACE_LOSE: True,
    Kind.BUY: False,
    Kind.LAY: True,
    Kind.HARD: False,
    Kind.BIG: True,
}
ODDS_OF: dict[Kind, Kind] = {
    Kind.PASS_ODDS: Kind.PASS,
    Kind.DONT_PASS_ODDS: Kind.DONT_PASS,
    Kind.COME_ODDS: Kind.COME,
    Kind.DONT_COME_ODDS: Kind.DONT_COME,
}
LAY_ODDS: frozenset[Kind] = frozenset({Kind.DONT_PASS_ODDS, Kind.DONT_COME_ODDS})

_NUMBERS: dict[Kind, tuple[int, ...]] = {
    Kind.COME: POINTS,
    Kind.DONT_COME: POINTS,
    Kind.COME_ODDS: POINTS,
    Kind.DONT_COME_ODDS: POINTS,
    Kind.PLACE_WIN: POINTS,
    Kind.PLACE_LOSE: POINTS,
    Kind.BUY: POINTS,
    Kind.LAY: POINTS,
    Kind.HARD: HARD_NUMBERS,
    Kind.BIG: BIG_NUMBERS,
}
#: kinds that exist without a number
_PLAIN: frozenset[Kind] = frozenset(
    {Kind.PASS, Kind.DONT_PASS, Kind.PASS_ODDS, Kind.DONT_PASS_ODDS, Kind.COME, Kind.DONT_COME}
    | ONE_ROLL
)


@dataclass(frozen=True, slots=True)
class BetKey:
    """One bet spot: its kind and, where it has one, its number."""

    kind: Kind
    number: int | None = None

    def __str__(self) -> str:
        return self.kind.value if self.number is None else f"{self.kind.value}-{self.number}"


def parse_bet(name: str) -> BetKey:
    """The bet spot named ``name``; :class:`BetRefused` if there is no such spot."""
    try:
        kind = Kind(name)
    except ValueError:
        pass
    else:
        if kind in _PLAIN:
            return BetKey(kind)
        raise BetRefused(f"craps bet {name!r} needs a number, e.g. '{name}-6'")
    head, sep, tail = name.rpartition("-")
    if sep and tail.isdigit():
        try:
            kind = Kind(head)
        except ValueError:
            pass
        else:
            number = int(tail)
            if number in _NUMBERS.get(kind, ()):
                return BetKey(kind, number)
    raise BetRefused(f"no such craps bet: {name!r}")


def all_bet_names() -> tuple[str, ...]:
    """Every bet spot on the layout, in layout order."""
    names: list[str] = []
    for kind in Kind:
        if kind in _PLAIN:
            names.append(kind.value)
        names.extend(f"{kind.value}-{n}" for n in _NUMBERS.get(kind, ()))
    return tuple(names)


def working_type(kind: Kind) -> Kind | None:
    """The come-out option that governs ``kind``, or None if it is always working."""
    return kind if kind in WORKING_DEFAULTS else None


#: every spot on the layout, in layout order, as (name, key): parsed once
SPOTS: tuple[tuple[str, BetKey], ...] = tuple((n, parse_bet(n)) for n in all_bet_names())
_KEY_OF: dict[str, BetKey] = dict(SPOTS)


def key_of(name: str) -> BetKey:
    """The key of a spot name already on the table (a valid name; no parsing, no errors).

    The bet book stores spots by name; the rules read their kind and number from this.
    """
    return _KEY_OF[name]


_TITLE = {
    Kind.PASS: "pass line",
    Kind.DONT_PASS: "don't pass",
    Kind.PASS_ODDS: "pass line odds",
    Kind.DONT_PASS_ODDS: "don't pass odds",
    Kind.COME: "come",
    Kind.DONT_COME: "don't come",
    Kind.COME_ODDS: "come odds",
    Kind.DONT_COME_ODDS: "don't come odds",
    Kind.PLACE_WIN: "place to win",
    Kind.PLACE_LOSE: "place to lose",
    Kind.BUY: "buy",
    Kind.LAY: "lay",
    Kind.HARD: "hardway",
    Kind.BIG: "big 6/8",
}


def title(key: BetKey) -> str:
    """A bet spot as people say it: ``place to win 6``, ``come odds 4``, ``horn``."""
    base = _TITLE.get(key.kind, key.kind.value)
    return base if key.number is None else f"{base} {key.number}"
