"""Exact baccarat odds by enumeration over the shoe's point-value composition.

A shoe of ``d`` decks holds ``16d`` cards worth 0 and ``4d`` of each of 1-9. The
coup uses at most six cards, so every outcome is fixed by the point values of the
first six cards dealt. We count all six-tuples of values (not card permutations),
each weighted by the number of ordered card sequences that give it, drawing
without replacement: ``prod(count[v_k] - #{j < k: v_j == v_k})``. Summing weights
by outcome gives the published "combinations" (every coup counted as six cards,
used or not), so the total is ``N (N-1) ... (N-5)`` for ``N`` cards.

The first five values are a NumPy grid of 10**5 cells (broadcast axes, ``int64``).
The sixth card matters only when both hands draw; there it is summed out in closed
form: for an outcome indicator ``g``, ``sum_v6 (count[v6] - #{j<6: v_j = v6}) g(v6)
= sum_v6 count[v6] g(v6) - sum_{j<6} g(v_j)``, a 10x10 table lookup minus five
terms. Every count is an exact integer (the 8-deck total is about 5.0e15, far
below 2**63); probabilities and edges are :class:`fractions.Fraction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from games.baccarat.rules import BaccaratRules, banker_draws
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
    n = int(counts.sum())
    if falling(n, 6) >= 2**62:
        raise ValueError(f"{decks} decks is too many for int64 enumeration")
    shape = (10,) * 5
    # v[k]: the value of the k-th card dealt (player, banker, player, banker, fifth card)
    v = [np.arange(10, dtype=np.int64).reshape((1,) * k + (10,) + (1,) * (4 - k)) for k in range(5)]
    weight: Int64Array = np.ones((1,) * 5, dtype=np.int64)
    for k in range(5):
        available = counts[v[k]]
        for j in range(k):
            available = available - (v[j] == v[k])
        weight = weight * np.maximum(available, 0)
    p2 = (v[0] + v[2]) % 10
    b2 = (v[1] + v[3]) % 10
    natural = (p2 >= 8) | (b2 >= 8)
    p_draws = ~natural & (p2 <= 5)
    b_draws = ~natural & BANKER_DRAWS[b2, np.where(p_draws, v[4], 10)]
    both = np.broadcast_to(p_draws & b_draws, shape)
    pf = np.broadcast_to(np.where(p_draws, (p2 + v[4]) % 10, p2), shape)
    # the banker's final score when it has at most the fifth card (both-draw cells come below)
    bf = np.broadcast_to(np.where(b_draws & ~p_draws, (b2 + v[4]) % 10, b2), shape)
    b2s = np.broadcast_to(b2, shape)
    p_drew = np.broadcast_to(p_draws, shape)
    b_drew = np.broadcast_to(b_draws, shape)

    # cells where at most five cards are used: the sixth is any of the n - 5 left
    single = {
        "pw": pf > bf,
        "bw": bf > pf,
        "d7": (bf > pf) & (bf == 7) & b_drew,
        "p8": (pf > bf) & (pf == 8) & p_drew,
    }
    # both draw: sum over the sixth card in closed form (module docstring)
    pp = np.arange(10).reshape(10, 1, 1)
    bb = np.arange(10).reshape(1, 10, 1)
    six = np.arange(10).reshape(1, 1, 10)
    b6 = (bb + six) % 10
    per_six = {
        "pw": pp > b6,
        "bw": b6 > pp,
        "d7": (b6 > pp) & (b6 == 7),
        "p8": (pp > b6) & (pp == 8),
    }
    cell = (pf * 10 + b2s).ravel()
    both_sum = {
        k: (g * counts[six]).sum(axis=2).astype(np.int32).ravel().take(cell).reshape(shape)
        for k, g in per_six.items()
    }
    for j in range(5):
        bj = (b2s + v[j]) % 10
        both_sum["pw"] = both_sum["pw"] - (pf > bj)
        both_sum["bw"] = both_sum["bw"] - (bj > pf)
        both_sum["d7"] = both_sum["d7"] - ((bj > pf) & (bj == 7))
        both_sum["p8"] = both_sum["p8"] - ((pf > bj) & (pf == 8))
    w = np.broadcast_to(weight, shape)

    def count(key: str) -> int:
        per_cell = np.where(both, both_sum[key], single[key] * (n - 5))
        return int((w * per_cell).sum())

    total = falling(n, 6)
    player, banker = count("pw"), count("bw")
    result = CoupCounts(
        decks=decks,
        total=total,
        player=player,
        banker=banker,
        tie=total - player - banker,
        banker_three_card_seven=count("d7"),
        player_three_card_eight=count("p8"),
    )
    if int(w.sum()) * (n - 5) != total:
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
