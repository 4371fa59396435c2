"""Vectorised Monte Carlo of Let'Em Ride (statistics only, never used for play).

Each round deals five distinct cards (three to the player, then the two
community cards). The player raises by the best strategy of
:mod:`games.let_it_ride.exact` (a lookup of the enumerated sums), so the
simulated ``ante`` return (all three bets, per unit of ante) estimates the same
quantity the enumeration computes exactly; ``progressive`` is per unit of its
stake at the meter's reset value.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from games.caribbean_stud.simulate import deal
from games.catalog import SimulationResult
from games.core.engine import Variant
from games.let_it_ride.exact import colex, decision_sums, multiples
from games.let_it_ride.paytable import rules_of
from games.poker.batch import categories, rank_batch
from games.sim import bet_statistics

BATCH = 500_000


def simulate(variant: Variant, rounds: int, seed: int) -> SimulationResult:
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rules = rules_of(variant)
    s3, s4, _ = decision_sums(rules)
    m_of = multiples(rules)
    rng = np.random.default_rng(seed)
    tallies: dict[str, Counter[float]] = {b: Counter() for b in rules.bets}
    award = np.zeros(11)
    if rules.jackpot:
        jp = rules.jackpot
        for cat in range(10):
            a = jp.award(cat)  # type: ignore[arg-type]
            if a:
                award[cat] = (a[0] + jp.reset * a[1] / 10_000) / jp.stake
    done = 0
    while done < rounds:
        n = min(BATCH, rounds - done)
        cards = deal(rng, n, 5)
        ranks = rank_batch(cards, validate=False)
        m = m_of[ranks]
        first = s3[colex(np.sort(cards[:, :3], axis=1))] > 0
        second = s4[colex(np.sort(cards[:, :4], axis=1))] > 0
        nets = {"ante": (m * (1 + first.astype(np.int64) + second)).astype(np.float64)}
        if rules.jackpot:
            nets["progressive"] = award[categories(ranks)] - 1.0
        for bet, net in nets.items():
            values, counts = np.unique(net, return_counts=True)
            tallies[bet].update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
        done += n
    bets = {b: bet_statistics(rounds, list(t.items())) for b, t in tallies.items()}
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)
