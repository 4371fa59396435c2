"""Exact baccarat odds by enumeration over the shoe's point-value composition.

A shoe of ``d`` decks holds ``16d`` cards worth 0 and ``4d`` of each of 1-9. The
coup uses at most six cards, so every outcome is fixed by the point values of the
first six cards dealt. We enumerate all ``10**6`` six-tuples of values (not card
permutations) and weight each by the number of ordered card sequences that give
it, drawing without replacement: ``prod(count[v_k] - #{j < k: v_j == v_k})``.
Summing weights by outcome gives the published "combinations" (every coup counted
as six cards, used or not), so the total is ``N (N-1) ... (N-5)`` for ``N`` cards.

The weights are exact integers in NumPy ``int64`` (the total for 8 decks is about
5.0e15, far below 2**63), summed exactly, then turned into
:class:`fractions.Fraction` probabilities and house edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from games.baccarat.paytable import BaccaratRules
from games.baccarat.rules import banker_draws
from games.core.money import Ratio

Int64Array = npt.NDArray[np.int64]

#: banker draws? (a NumPy lookup of rules.banker_draws) indexed by
#: [banker score 0-9, player's third card 0-9 or 10 if the player stood]
BANKER_DRAWS = np.zeros((10, 11), dtype=bool)
for _b in range(8):
    for _p in range(10):
        BANKER_DRAWS[_b, _p] = banker_draws(_b, _p)
    BANKER_DRAWS[_b, 10] = banker_draws(_b, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CoupCounts:
    """Exact counts of six-card sequences by outcome, for one shoe composition."""

    decks: int
    total: int
    player: int  # player wins
    banker: int  # banker wins
    tie: int
    banker_three_card_seven: int  # banker wins with three cards totalling 7 (Dragon 7)
    player_three_card_eight: int  # player wins with three cards totalling 8 (Panda 8)

    def probability(self, field_name: str) -> Fraction:
        count = getattr(self, field_name)
        if not isinstance(count, int):
            raise AttributeError(field_name)
        return Fraction(count, self.total)


def composition(decks: int) -> tuple[int, ...]:
    """Cards of each point value 0-9 in a shoe of ``decks`` decks."""
    if decks < 1:
        raise ValueError("a shoe needs at least one deck")
    return (16 * decks, *([4 * decks] * 9))


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)``."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@cache
def coup_counts(decks: int) -> CoupCounts:
    """Enumerate every six-card value sequence of a ``decks``-deck shoe (cached)."""
    counts = np.asarray(composition(decks), dtype=np.int64)
    if falling(int(counts.sum()), 6) >= 2**62:
        raise ValueError(f"{decks} decks is too many for int64 enumeration")
    shape = (10,) * 6
    # v[k]: the value of the k-th card dealt, as an axis of a 10x10x10x10x10x10 grid;
    # arrays broadcast, so each step only costs the axes it depends on.
    v = [np.arange(10, dtype=np.int64).reshape((1,) * k + (10,) + (1,) * (5 - k)) for k in range(6)]
    weight: Int64Array = np.ones((1,) * 6, dtype=np.int64)
    for k in range(6):
        available = counts[v[k]]
        for j in range(k):
            available = available - (v[j] == v[k])
        weight = weight * np.maximum(available, 0)
    # dealing order: player, banker, player, banker, then the third cards
    p2 = (v[0] + v[2]) % 10
    b2 = (v[1] + v[3]) % 10
    natural = (p2 >= 8) | (b2 >= 8)
    p_draws = ~natural & (p2 <= 5)
    p_third = np.where(p_draws, v[4], 10)
    b_draws = ~natural & BANKER_DRAWS[b2, p_third]
    b_third = np.where(p_draws, v[5], v[4])
    p_final = np.where(p_draws, (p2 + v[4]) % 10, p2)
    b_final = np.where(b_draws, (b2 + b_third) % 10, b2)

    def flat(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return np.broadcast_to(a, shape).ravel()

    w = flat(weight)
    diff = flat((p_final - b_final).astype(np.int8))
    pw = diff > 0
    bw = diff < 0
    d7 = bw & flat(b_draws & (b_final == 7))
    p8 = pw & flat(p_draws & (p_final == 8))
    total = int(w.sum())

    def count(mask: npt.NDArray[np.bool_]) -> int:
        return int(w[mask].sum())

    result = CoupCounts(
        decks=decks,
        total=total,
        player=count(pw),
        banker=count(bw),
        tie=count(~pw & ~bw),
        banker_three_card_seven=count(d7),
        player_three_card_eight=count(p8),
    )
    if result.player + result.banker + result.tie != total or total != falling(
        int(counts.sum()), 6
    ):
        raise ArithmeticError("enumeration lost sequences")  # pragma: no cover
    return result


def _ratio(r: Ratio) -> Fraction:
    return Fraction(r.num, r.den)


def bet_returns(rules: BaccaratRules) -> dict[str, Fraction]:
    """Expected net result per unit staked for every bet of these rules (exact).

    The house edge is the negative of each value. Commission is taken as the exact
    fraction of the win (the per-unit ideal; cents rounding is a per-stake detail).
    """
    c = coup_counts(rules.decks)
    p = {
        "player": c.probability("player"),
        "banker": c.probability("banker"),
        "tie": c.probability("tie"),
        "d7": c.probability("banker_three_card_seven"),
        "p8": c.probability("player_three_card_eight"),
    }
    out: dict[str, Fraction] = {}
    for bet, ratio in rules.pays.items():
        win = _ratio(ratio)
        if bet == "player":
            out[bet] = p["player"] * win - p["banker"]
        elif bet == "banker":
            keep = 1 - Fraction(rules.banker_commission_bp, 10_000)
            banker_paid = p["banker"] - (p["d7"] if rules.banker_three_card_seven_pushes else 0)
            out[bet] = banker_paid * win * keep - p["player"]
        elif bet == "tie":
            out[bet] = p["tie"] * win - (1 - p["tie"])
        elif bet == "dragon7":
            out[bet] = p["d7"] * win - (1 - p["d7"])
        elif bet == "panda8":
            out[bet] = p["p8"] * win - (1 - p["p8"])
    return out
