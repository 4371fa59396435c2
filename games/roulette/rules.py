"""A roulette table's typed rules (its wheel and the pays), and what one spin does to one bet.

:class:`RouletteRules` is what :mod:`games.roulette.paytable` reads from
``paytables/wheels.toml`` for one table; :func:`outcome` is the standard rules as one
pure function, shared by the engine, the exact math and the simulator.

>>> from games.roulette.paytable import load_tables
>>> t = load_tables()
>>> rules = RouletteRules(wheel=t.wheels[2], pays=t.pays)
>>> outcome(Layout(("0",)), rules, "red", "0")
('lose', Fraction(-1, 2))
>>> outcome(Layout(("0",)), rules, "split-17-20", "20")
('win', Fraction(17, 1))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from games.core.money import Ratio
from games.roulette.layout import EVEN_MONEY, Layout


@dataclass(frozen=True, slots=True, kw_only=True)
class Wheel:
    id: str
    title: str
    zeros: tuple[str, ...]
    la_partage: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RouletteRules:
    """One table: its wheel and the shared pays."""

    wheel: Wheel
    pays: Mapping[str, Ratio]


def outcome(layout: Layout, rules: RouletteRules, bet: str, number: str) -> tuple[str, Fraction]:
    """(result, net per unit staked) of canonical bet ``bet`` when ``number`` wins.

    La partage: an even-money bet loses only half its stake when a zero wins.
    """
    if number in layout.bets[bet]:
        ratio = rules.pays[Layout.kind(bet)]
        return "win", Fraction(ratio.num, ratio.den)
    if rules.wheel.la_partage and number in layout.zeros and bet in EVEN_MONEY:
        return "lose", Fraction(-1, 2)
    return "lose", Fraction(-1)


__all__ = ["Layout", "RouletteRules", "Wheel", "outcome"]
