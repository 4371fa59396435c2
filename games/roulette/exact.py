"""Exact roulette math: every bet's edge by enumeration over the wheel's pockets.

>>> from games.roulette import VARIANTS
>>> edges(VARIANTS[0].rules)["straight-17"]
Fraction(1, 37)
"""

from __future__ import annotations

from fractions import Fraction

from games.core.engine import Variant
from games.core.figures import HouseEdge
from games.roulette.layout import layout_for
from games.roulette.rules import RouletteRules, outcome


def edges(rules: RouletteRules) -> dict[str, Fraction]:
    """House edge per unit wagered of every bet on the wheel (positive favours the house)."""
    layout = layout_for(rules.wheel.zeros)
    n = len(layout.pockets)
    return {
        bet: -sum((outcome(layout, rules, bet, p)[1] for p in layout.pockets), Fraction(0)) / n
        for bet in layout.bets
    }


def house_edge(variant: Variant[RouletteRules]) -> dict[str, HouseEdge]:
    """Every bet's exact edge on the variant's wheel, as the catalog reports it."""
    method = "exact: enumeration of the wheel's pockets (fractions.Fraction)"
    return {
        name: HouseEdge(edge=e, exact=True, method=method)
        for name, e in edges(variant.rules).items()
    }
