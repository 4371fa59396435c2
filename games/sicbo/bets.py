"""Sic bo bet names and what three dice pay on each: the rules, as one pure function.

Names: ``small``, ``big``, ``odd``, ``even``, ``total-4`` .. ``total-17``,
``triple-1`` .. ``triple-6`` (a specific triple), ``any-triple``, ``double-1`` ..
``double-6`` (a specific double), ``combo-1-2`` .. ``combo-5-6`` (two different numbers,
smaller first), ``single-1`` .. ``single-6`` (a number on one, two or three dice).

>>> from games.sicbo.paytable import load_paytable
>>> t = load_paytable().rules
>>> str(payout("single-5", (5, 5, 2), t)), payout("small", (2, 2, 2), t)
('2:1', None)
"""

from __future__ import annotations

from games.core.errors import BetRefused
from games.core.money import Ratio
from games.sicbo.rules import TOTALS, SicBoRules

FACES = range(1, 7)


def all_bet_names() -> tuple[str, ...]:
    names = ["small", "big", "odd", "even"]
    names += [f"total-{t}" for t in TOTALS]
    names += [f"triple-{n}" for n in FACES] + ["any-triple"]
    names += [f"double-{n}" for n in FACES]
    names += [f"combo-{a}-{b}" for a in FACES for b in FACES if a < b]
    names += [f"single-{n}" for n in FACES]
    return tuple(names)


_NAMES = frozenset(all_bet_names())


def check_name(name: str) -> str:
    if name not in _NAMES:
        raise BetRefused(f"no such sic bo bet: {name!r}")
    return name


def payout(name: str, dice: tuple[int, int, int], t: SicBoRules) -> Ratio | None:
    """The win ratio of bet ``name`` on ``dice``, or None if it loses."""
    total = sum(dice)
    triple = dice[0] == dice[1] == dice[2]
    kind, _, rest = name.partition("-")
    if name in ("small", "big", "odd", "even"):
        if triple:
            return None
        hit = {
            "small": 4 <= total <= 10,
            "big": 11 <= total <= 17,
            "odd": total % 2 == 1,
            "even": total % 2 == 0,
        }[name]
        return t.flat[name] if hit else None
    if name == "any-triple":
        return t.flat["any-triple"] if triple else None
    if kind == "total":
        return t.totals[int(rest)] if total == int(rest) else None
    if kind == "triple":
        return t.flat["triple"] if triple and dice[0] == int(rest) else None
    if kind == "double":
        return t.flat["double"] if dice.count(int(rest)) >= 2 else None
    if kind == "combo":
        a, b = (int(x) for x in rest.split("-"))
        return t.flat["combo"] if a in dice and b in dice else None
    if kind == "single":
        count = dice.count(int(rest))
        return t.single[count] if count else None
    raise BetRefused(f"no such sic bo bet: {name!r}")
