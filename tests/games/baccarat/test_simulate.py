"""The vectorised simulation: reproducible, well-formed, and centred on the exact edges."""

from __future__ import annotations

import numpy as np
import pytest

import games.baccarat as bac
from games.baccarat.simulate import tally
from games.sim import draw_positions

VARIANTS = {v.id: v for v in bac.VARIANTS}


def test_same_seed_same_result_and_seeds_differ() -> None:
    v = VARIANTS["baccarat-pinnacle"]
    a, b = bac.simulate(v, 50_000, 7), bac.simulate(v, 50_000, 7)
    assert a == b
    assert bac.simulate(v, 50_000, 8).bets["banker"].mean != a.bets["banker"].mean


def test_tally_partitions_every_round() -> None:
    t = tally(8, 300_000, 1)
    assert t.player + t.panda8 + t.banker + t.dragon7 + t.tie == t.rounds == 300_000
    with pytest.raises(ValueError, match="positive"):
        tally(8, 0, 1)


def test_positions_are_distinct_and_uniform() -> None:
    rng = np.random.default_rng(3)
    pos = draw_positions(rng, 200_000, 6, 52)  # one deck: many collisions to reject
    assert all((pos[i] != pos[j]).all() for i in range(6) for j in range(i + 1, 6))
    counts = np.bincount(pos.ravel(), minlength=52)
    expected = 6 * 200_000 / 52
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 110  # 51 degrees of freedom: p < 1e-5 beyond this


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_exact_edges_fall_inside_the_interval(vid: str) -> None:
    """A fixed-seed run of 400k coups: every bet's exact return lies in its 99.9% interval.

    (The acceptance run over 10^7 coups is bench/bench_baccarat.py.)
    """
    v = VARIANTS[vid]
    result = bac.simulate(v, 400_000, 2026)
    exact = bac.house_edge(v)
    assert set(result.bets) == set(exact)
    for bet, sim in result.bets.items():
        ret = -float(exact[bet].edge)
        assert sim.ci_low < ret < sim.ci_high, (bet, sim, ret)
        assert sim.rounds == 400_000 and sim.std_error > 0
