"""Exact Casino War returns by enumeration over the shoe's rank composition.

A shoe of ``d`` decks holds ``4d`` cards of each of 13 ranks. The first two cards
(player, dealer) are enumerated by rank pair, weighted by the number of ordered
card pairs; after a tie of rank ``r`` the war cards are enumerated the same way
over the remaining composition. The three burned cards are unseen and drawn from
the same remaining cards, so by exchangeability they leave the war cards'
distribution unchanged: the war pair is two cards drawn from what remains after
the tie. (The simulation burns them explicitly and agrees.)

All arithmetic is in :class:`fractions.Fraction`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from games.core.money import Ratio
from games.war.rules import WarRules

RANKS = 13


def _pair_odds(counts: tuple[int, ...]) -> tuple[Fraction, Fraction, Fraction]:
    """P(first card higher), P(tie), P(first card lower) for two cards drawn from ``counts``."""
    n = sum(counts)
    total = n * (n - 1)
    higher = tie = 0
    for i, ci in enumerate(counts):
        tie += ci * (ci - 1)
        higher += ci * sum(counts[:i])
    lower = total - tie - higher
    return Fraction(higher, total), Fraction(tie, total), Fraction(lower, total)


@cache
def war_odds(decks: int) -> dict[str, Fraction]:
    """Probabilities of the first-card and war-card results for a full ``decks`` shoe."""
    counts = (4 * decks,) * RANKS
    win, tie, lose = _pair_odds(counts)
    # After a tie of rank r (all ranks alike in a full shoe): r has two fewer cards.
    after = (4 * decks - 2,) + (4 * decks,) * (RANKS - 1)
    w2, t2, l2 = _pair_odds(after)
    return {"win": win, "tie": tie, "lose": lose, "war_win": w2, "war_tie": t2, "war_lose": l2}


def bet_returns(rules: WarRules) -> dict[str, Fraction]:
    """Expected net result per unit of the initial wager, for each bet (exact).

    ``main`` is the bet played by going to war on every tie (the better choice and
    the scripted player's); ``main-surrender`` is the same bet surrendered on ties.
    """
    p = war_odds(rules.decks)

    def r(x: Ratio) -> Fraction:
        return Fraction(x.num, x.den)

    even = r(rules.pays["main"])
    raise_pays = r(rules.pays["raise"])
    bonus = r(rules.tie_after_war_bonus)
    at_war = p["war_win"] * raise_pays + p["war_tie"] * (raise_pays + bonus) - p["war_lose"] * 2
    return {
        "main": p["win"] * even - p["lose"] + p["tie"] * at_war,
        "main-surrender": p["win"] * even - p["lose"] - p["tie"] / 2,
        "tie": p["tie"] * r(rules.pays["tie"]) - (1 - p["tie"]),
    }
