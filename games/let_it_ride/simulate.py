"""Vectorised Monte Carlo of Let'Em Ride (statistics only, never used for play).

Each round deals five distinct cards (three to the player, then the two
community cards). The player raises by the best strategy of
:mod:`games.let_it_ride.exact` (a lookup of the enumerated sums), so the
simulated ``ante`` return (all three bets, per unit of ante) estimates the same
quantity the enumeration computes exactly; ``progressive`` is per unit of its
stake at the meter's reset value.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from games.core.engine import Variant
from games.core.figures import SimulationResult
from games.let_it_ride.exact import colex, decision_sums, multiples
from games.let_it_ride.rules import RideRules
from games.poker.batch import categories, rank_batch
from games.sim import deal_cards, simulate_batches

BATCH = 500_000


def simulate(variant: Variant[RideRules], rounds: int, seed: int) -> SimulationResult:
    """Simulate ``rounds`` rounds of the ante (with both raises) and the progressive."""
    rules = variant.rules
    s3, s4, _ = decision_sums(rules)
    m_of = multiples(rules)
    jp = rules.jackpot
    award = np.array(jp.awards_per_stake(jp.reset)) if jp else np.zeros(11)

    def nets(rng: np.random.Generator, n: int) -> dict[str, npt.NDArray[np.float64]]:
        cards = deal_cards(rng, n, 5)
        ranks = rank_batch(cards, validate=False)
        m = m_of[ranks]
        first = s3[colex(np.sort(cards[:, :3], axis=1))] > 0
        second = s4[colex(np.sort(cards[:, :4], axis=1))] > 0
        out = {"ante": (m * (1 + first.astype(np.int64) + second)).astype(np.float64)}
        if jp:
            out["progressive"] = award[categories(ranks)] - 1.0
        return out

    return simulate_batches(variant.id, rounds, seed, BATCH, nets)
