"""Basic-strategy charts as data, and the one function that reads them.

A chart (``paytables/strategies/<name>.toml``, ``spec = 1``: a player's strategy, not a pay
table, kept apart in the family's one TOML folder) has rows for hard totals 4-21, soft
totals 12-21 and pairs A-T, each a row of ten codes for the dealer's up card 2..9, T, A.
:func:`choose` turns a code into the decision allowed now (``D`` doubles when doubling is
allowed and hits otherwise; ``Ds`` stands instead; ``R``/``Rs``/``Rp`` surrender when
allowed, else hit/stand/split). The same chart drives :func:`games.blackjack.autoplay`,
the NumPy simulator (through :meth:`Chart.code_tables`) and the recursive analysis, so the
simulated and the computed house edge are of one and the same strategy.

>>> chart = load_chart("s17-das")
>>> choose(chart, 16, False, None, 10, can_double=True, can_split=False, can_surrender=False)
'hit'
>>> choose(chart, 11, False, None, 6, can_double=True, can_split=False, can_surrender=False)
'double'
>>> choose(chart, 16, False, 8, 10, can_double=True, can_split=True, can_surrender=False)
'split'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from games.core.errors import PaytableError
from games.core.tomlread import parse_toml

CODES = ("H", "S", "D", "Ds", "P", "R", "Rs", "Rp")
PAIR_KEYS = {"A": 1, "T": 10, **{str(i): i for i in range(2, 10)}}


def chart_file(name: str) -> Traversable:
    """Where chart ``name`` ships: ``paytables/strategies/<name>.toml`` (``-`` as ``_``)."""
    folder = resources.files("games.blackjack") / "paytables" / "strategies"
    return folder / f"{name.replace('-', '_')}.toml"


def up_index(up_points: int) -> int:
    """Column of a dealer up card given its points (2..10 -> 0..8, ace -> 9)."""
    return 9 if up_points == 1 else up_points - 2


@dataclass(frozen=True, slots=True)
class Chart:
    name: str
    hard: dict[int, tuple[str, ...]]
    soft: dict[int, tuple[str, ...]]
    pairs: dict[int, tuple[str, ...]]  # card points (ace 1) -> row

    def code_tables(self) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
        """The chart as integer code indices (into :data:`CODES`): hard[22][10], soft[22][10],
        pairs[11][10], for the vectorised simulator (unused cells are stand)."""
        stand = CODES.index("S")
        hard = [[stand] * 10 for _ in range(22)]
        soft = [[stand] * 10 for _ in range(22)]
        pairs = [[stand] * 10 for _ in range(11)]
        for t, row in self.hard.items():
            hard[t] = [CODES.index(c) for c in row]
        for t, row in self.soft.items():
            soft[t] = [CODES.index(c) for c in row]
        for p, row in self.pairs.items():
            pairs[p] = [CODES.index(c) for c in row]
        return hard, soft, pairs


def _rows(raw: object, keys: dict[str, int], where: str) -> dict[int, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise PaytableError(f"{where}: must be a table")
    out: dict[int, tuple[str, ...]] = {}
    for key, value in raw.items():
        if key not in keys:
            raise PaytableError(f"{where}: unexpected row {key!r}")
        if not isinstance(value, str):
            raise PaytableError(f"{where}.{key}: must be a string of ten codes")
        codes = tuple(value.split())
        if len(codes) != 10 or any(c not in CODES for c in codes):
            raise PaytableError(f"{where}.{key}: need ten codes from {CODES}, got {value!r}")
        out[keys[key]] = codes
    missing = sorted(set(keys.values()) - set(out))
    if missing:
        raise PaytableError(f"{where}: missing rows {missing}")
    return out


@functools.cache
def load_chart(name: str) -> Chart:
    """Load and validate ``paytables/strategies/<name>.toml``."""
    path = chart_file(name)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PaytableError(f"strategy {name!r}: {exc}") from None
    data = parse_toml(text, f"strategy {name!r}")
    if data.get("spec") != 1:
        raise PaytableError(f"{path.name}: spec must be 1")
    return Chart(
        name=name,
        hard=_rows(data.get("hard"), {str(t): t for t in range(4, 22)}, f"{path.name}: hard"),
        soft=_rows(data.get("soft"), {str(t): t for t in range(12, 22)}, f"{path.name}: soft"),
        pairs=_rows(data.get("pairs"), PAIR_KEYS, f"{path.name}: pairs"),
    )


def resolve(code: str, *, can_double: bool, can_split: bool, can_surrender: bool) -> str:
    """The decision a chart code means when only some options are open."""
    if code == "P":
        return "split" if can_split else ""
    if code in ("R", "Rs", "Rp"):
        if can_surrender:
            return "surrender"
        return {"R": "hit", "Rs": "stand", "Rp": "split" if can_split else ""}[code]
    if code in ("D", "Ds"):
        if can_double:
            return "double"
        return "hit" if code == "D" else "stand"
    return "hit" if code == "H" else "stand"


def choose(
    chart: Chart,
    total: int,
    soft: bool,
    pair_points: int | None,
    up_points: int,
    *,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
) -> str:
    """The chart's decision for a hand (``pair_points``: the pair's points, if a pair)."""
    col = up_index(up_points)
    if pair_points is not None and can_split:
        got = resolve(
            chart.pairs[pair_points][col],
            can_double=can_double,
            can_split=True,
            can_surrender=can_surrender,
        )
        if got:
            return got
    if total >= 21:
        return "stand"
    row = chart.soft[total] if soft else chart.hard[max(total, 4)]
    return resolve(row[col], can_double=can_double, can_split=False, can_surrender=can_surrender)
