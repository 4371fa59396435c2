"""Reading pay-table TOML: typed values out of parsed tables, each error naming file and key.

Every family loads its tables from TOML and validates them when loaded
(STYLE.md F); these are the readers they had each copied. All raise
:class:`~games.core.errors.PaytableError` with a one-line message that starts
with ``where`` (the file, then the table or key).

Two reading styles exist, both kept because players' error messages and tests
read them: :class:`TomlTable` (``get`` by key and type, with the allowed keys
named up front; baccarat, war, three card, ...) and the function style
(:func:`exact_keys`, :func:`pay_ratio`, :func:`read_int`; roulette, sic bo,
craps).

>>> parse_ratio("8:1", "x"), pay_ratio("x", "35:1")
(Ratio(num=8, den=1), Ratio(num=35, den=1))
>>> t = TomlTable(parse_toml("decks = 6", "t.toml"), "t.toml", {"decks"})
>>> t.get("decks", int)
6
>>> exact_keys("t.toml [limits]", {"minimum": 1}, {"minimum", "maximum"})
Traceback (most recent call last):
...
games.core.errors.PaytableError: t.toml [limits]: missing ['maximum']
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping
from importlib import resources
from typing import Any

from games.core.engine import BetLimit
from games.core.errors import PaytableError
from games.core.money import Ratio


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes ``"<where>: not valid TOML: ..."``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PaytableError(f"{where}: not valid TOML: {exc}") from None


def packaged(package: str, name: str) -> tuple[str, str]:
    """The text of ``paytables/<name>.toml`` shipped in ``package``, and its path for errors.

    >>> text, where = packaged("games.war", "standard")
    >>> where, "spec = 1" in text
    ('games/war/paytables/standard.toml', True)
    """
    path = resources.files(package).joinpath("paytables").joinpath(f"{name}.toml")
    return path.read_text(encoding="utf-8"), f"{package.replace('.', '/')}/paytables/{name}.toml"


# --- the TomlTable style ------------------------------------------------------------


def parse_ratio(text: object, where: str) -> Ratio:
    """``"8:1"`` -> ``Ratio(8, 1)``; PaytableError on anything else."""
    if not isinstance(text, str) or text.count(":") != 1:
        raise PaytableError(f"{where}: pays must be a string like '8:1', got {text!r}")
    num_s, den_s = text.split(":")
    if not (num_s.strip().isdigit() and den_s.strip().isdigit()):
        raise PaytableError(f"{where}: pays must be two whole numbers like '8:1', got {text!r}")
    num, den = int(num_s), int(den_s)
    if den == 0:
        raise PaytableError(f"{where}: pays has a zero denominator: {text!r}")
    return Ratio(num, den)


class TomlTable:
    """Reads typed values out of a parsed TOML mapping, naming the key on error."""

    def __init__(self, data: Mapping[str, Any], where: str, allowed: set[str]) -> None:
        unknown = set(data) - allowed
        if unknown:
            raise PaytableError(f"{where}: unknown keys {sorted(unknown)}")
        self.data, self.where = data, where

    def get(self, key: str, kind: type, default: Any = None, required: bool = True) -> Any:
        if key not in self.data:
            if required:
                raise PaytableError(f"{self.where}: missing key {key!r}")
            return default
        value = self.data[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise PaytableError(f"{self.where}: {key} must be an integer, got {value!r}")
        if not isinstance(value, kind):
            raise PaytableError(f"{self.where}: {key} must be {kind.__name__}, got {value!r}")
        return value

    def require_spec(self, spec: int) -> None:
        """The file's ``spec`` key is the version this loader reads."""
        got = self.get("spec", int)
        if got != spec:
            raise PaytableError(f"{self.where}: spec {got} is not supported (expected {spec})")

    def notes(self) -> tuple[str, ...]:
        """The optional ``notes`` list of strings."""
        notes = self.get("notes", list, default=[], required=False)
        if not all(isinstance(n, str) for n in notes):
            raise PaytableError(f"{self.where}: notes must be strings")
        return tuple(notes)

    def declared_rtp_bp(self, bets: Collection[str]) -> dict[str, int]:
        """The optional ``[declared_rtp_bp]`` table: bet -> return to player, 1..10000 bp.

        Certification recomputes each figure and fails on a mismatch.
        """
        where = self.where
        declared: dict[str, int] = {}
        for name, value in self.get("declared_rtp_bp", dict, default={}, required=False).items():
            if name not in bets or isinstance(value, bool) or not isinstance(value, int):
                raise PaytableError(f"{where}: [declared_rtp_bp] {name} = {value!r} is not valid")
            if not 0 < value <= 10_000:
                raise PaytableError(f"{where}: [declared_rtp_bp] {name} must be 1..10000")
            declared[name] = value
        return declared


def parse_limit(bet: Mapping[str, Any], where: str) -> BetLimit:
    """A ``[bets.<name>]`` table's ``minimum``/``maximum``/``increment`` as a BetLimit."""
    t = TomlTable(bet, where, {"pays", "minimum", "maximum", "increment", "source"})
    minimum = t.get("minimum", int)
    maximum = t.get("maximum", int)
    increment = t.get("increment", int)
    if increment <= 0:
        raise PaytableError(f"{where}: increment must be positive")
    if minimum <= 0 or maximum < minimum:
        raise PaytableError(f"{where}: need 0 < minimum <= maximum, got {minimum}..{maximum}")
    if minimum % increment or maximum % increment:
        raise PaytableError(f"{where}: minimum and maximum must be multiples of the increment")
    t.get("source", str, required=False)
    return BetLimit(minimum=minimum, maximum=maximum, increment=increment)


# --- the function style -------------------------------------------------------------


def exact_keys(where: str, table: Any, expected: set[str]) -> Mapping[str, Any]:
    """``table`` itself, once it is a table holding exactly the ``expected`` keys."""
    if not isinstance(table, dict):
        raise PaytableError(f"{where}: expected a table")
    if missing := expected - set(table):
        raise PaytableError(f"{where}: missing {sorted(missing)}")
    if unknown := set(table) - expected:
        raise PaytableError(f"{where}: unknown keys {sorted(unknown)}")
    return table


def check_spec(where: str, data: Mapping[str, Any], spec: int, game: str) -> None:
    """The file's ``spec`` is the version this loader reads and its ``game`` is ``game``."""
    if data["spec"] != spec:
        raise PaytableError(f"{where}: spec must be {spec}, got {data['spec']!r}")
    if data["game"] != game:
        raise PaytableError(f"{where}: game must be {game!r}, got {data['game']!r}")


def read_limits(where: str, table: Any, extra: frozenset[str] = frozenset()) -> dict[str, int]:
    """A ``[limits]`` table: ``minimum``, ``maximum``, ``increment`` (and ``extra`` keys),
    all positive integers, the minimum not above the maximum."""
    keys = {"minimum", "maximum", "increment", *extra}
    lim = {k: read_int(f"{where} {k}", v) for k, v in exact_keys(where, table, keys).items()}
    if lim["minimum"] > lim["maximum"]:
        raise PaytableError(f"{where}: minimum above maximum")
    return lim


def pay_ratio(where: str, text: Any, example: str = "35:1") -> Ratio:
    """``"num:den"`` text as a Ratio; the message shows ``example`` of the right form."""
    if not isinstance(text, str):
        raise PaytableError(f"{where}: pay must be a 'num:den' string, got {text!r}")
    num, sep, den = text.partition(":")
    if not (sep and num.strip().isdigit() and den.strip().isdigit()):
        raise PaytableError(f"{where}: pay must look like {example!r}, got {text!r}")
    try:
        return Ratio(int(num), int(den))
    except ValueError as exc:
        raise PaytableError(f"{where}: {exc}") from None


def read_int(where: str, value: Any, *, positive: bool = True) -> int:
    """An integer (not a bool), above zero unless ``positive`` is False."""
    if isinstance(value, bool) or not isinstance(value, int) or (positive and value <= 0):
        raise PaytableError(f"{where}: expected a positive integer, got {value!r}")
    return value


__all__ = [
    "TomlTable",
    "check_spec",
    "exact_keys",
    "packaged",
    "parse_limit",
    "parse_ratio",
    "parse_toml",
    "pay_ratio",
    "read_int",
    "read_limits",
]
