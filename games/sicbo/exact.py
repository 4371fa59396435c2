"""Exact sic bo math: every bet's edge by enumeration over the 216 ordered rolls of three dice.

>>> from games.sicbo.paytable import load_paytable
>>> edges(load_paytable().rules)["small"]
Fraction(1, 36)
"""

from __future__ import annotations

from fractions import Fraction

from games.core.engine import Variant
from games.core.figures import HouseEdge
from games.sicbo.bets import all_bet_names, payout
from games.sicbo.rules import SicBoRules

ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
)


def net(name: str, dice: tuple[int, int, int], t: SicBoRules) -> Fraction:
    """Net result per unit staked on ``name`` for one roll."""
    ratio = payout(name, dice, t)
    return Fraction(-1) if ratio is None else Fraction(ratio.num, ratio.den)


def edges(t: SicBoRules) -> dict[str, Fraction]:
    """House edge per unit wagered of every bet (positive favours the house)."""
    return {
        name: -sum((net(name, d, t) for d in ROLLS), Fraction(0)) / len(ROLLS)
        for name in all_bet_names()
    }


def house_edge(variant: Variant[SicBoRules]) -> dict[str, HouseEdge]:
    """Every bet's exact edge, as the catalog reports it."""
    method = "exact: enumeration of the 216 ordered rolls (fractions.Fraction)"
    return {
        name: HouseEdge(edge=e, exact=True, method=method)
        for name, e in edges(variant.rules).items()
    }
