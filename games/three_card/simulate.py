"""Vectorised Monte Carlo of the three-card bets (statistics only, never used for play).

Each round deals six distinct cards from a fresh deck (drawn uniformly, rows with
a repeated card drawn again): the player's three, then the dealer's three, the
first of which is the exposed card on tables that show one. The player follows
the best strategy of :mod:`games.three_card.exact` (a table lookup), so the
simulated returns estimate the same quantities the enumeration computes exactly.
The progressive is simulated at its reset meter, as :func:`games.three_card.house_edge`
states it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from games.core.engine import Variant
from games.core.figures import SimulationResult
from games.poker.batch import categories, rank_batch
from games.poker.three_card import Category3, category3_batch, rank3_batch
from games.sim import simulate_batches
from games.three_card.exact import hands, play_table
from games.three_card.progressive import ProgressiveHand
from games.three_card.rules import ThreeCardRules

BATCH = 500_000


def deal_six(rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
    """``n`` rows of six distinct card indices, uniform over ordered six-card deals."""
    out = rng.integers(0, 52, size=(n, 6))
    while True:
        s = np.sort(out, axis=1)
        bad = np.flatnonzero((np.diff(s, axis=1) == 0).any(axis=1))
        if not bad.size:
            return out
        out[bad] = rng.integers(0, 52, size=(bad.size, 6))


def simulate(variant: Variant[ThreeCardRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` rounds of every bet (ante with play, pair plus, 6 card bonus)."""
    rules = variant.rules
    table = play_table(rules)
    index = hands().index
    ante_win = rules.pays["ante"].num / rules.pays["ante"].den
    both_win = ante_win + rules.pays["play"].num / rules.pays["play"].den
    bonus = np.zeros(len(Category3))
    for cat, r in rules.ante_bonus.items():
        bonus[cat] = r.num / r.den
    pp = np.full(len(Category3), -1.0)
    for cat, r in rules.pair_plus.items():
        pp[cat] = r.num / r.den
    six = np.full(11, -1.0)
    for cat5, r in rules.six_card_bonus.items():
        six[cat5] = r.num / r.den
    jp = rules.progressive
    jackpot = np.full(len(ProgressiveHand), -1.0)
    for hand in ProgressiveHand:
        award = jp.award(hand) if jp else None
        if jp and award:
            jackpot[hand] += (award[0] + jp.reset * award[1] / 10_000) / jp.stake

    def nets(rng: np.random.Generator, n: int) -> dict[str, npt.NDArray[np.float64]]:
        cards = deal_six(rng, n)
        player, dealer = cards[:, :3], cards[:, 3:]
        p, d = rank3_batch(player), rank3_batch(dealer)
        ps = np.sort(player, axis=1)
        hand = index[ps[:, 0], ps[:, 1], ps[:, 2]]
        column = dealer[:, 0] if rules.dealer_shows_card else np.zeros(n, dtype=np.int64)
        play = table[hand, column]
        p_cat = category3_batch(p)
        value = np.where(
            d < rules.qualifier, ante_win, np.where(p > d, both_win, np.where(p < d, -2.0, 0.0))
        )
        out = {
            "ante": np.where(play, value + bonus[p_cat], -1.0),
            "pair-plus": np.where(play, pp[p_cat], -1.0),
        }
        if rules.six_card_bonus:
            out["six-card-bonus"] = six[categories(rank_batch(cards, validate=False))]
        if jp:
            spades = ((player & 3) == 3).all(axis=1) & (p_cat == Category3.MINI_ROYAL)
            out["progressive"] = jackpot[p_cat + spades]
        return out

    return simulate_batches(variant.id, rounds, seed, BATCH, nets)
