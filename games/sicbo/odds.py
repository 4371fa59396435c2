"""Exact sic bo math: every bet's edge by enumeration over the 216 ordered rolls of three dice.

>>> from games.sicbo.paytable import load_paytable
>>> edges(load_paytable())["small"]
Fraction(1, 36)
"""

from __future__ import annotations

from fractions import Fraction

from games.sicbo.bets import all_bet_names, payout
from games.sicbo.paytable import SicBoPaytable

ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
)


def net(name: str, dice: tuple[int, int, int], t: SicBoPaytable) -> Fraction:
    """Net result per unit staked on ``name`` for one roll."""
    ratio = payout(name, dice, t)
    return Fraction(-1) if ratio is None else Fraction(ratio.num, ratio.den)


def edges(t: SicBoPaytable) -> dict[str, Fraction]:
    """House edge per unit wagered of every bet (positive favours the house)."""
    return {
        name: -sum((net(name, d, t) for d in ROLLS), Fraction(0)) / len(ROLLS)
        for name in all_bet_names()
    }
