"""The simulation: its intervals hold the exact side-bet edges and the published main edge."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import games.pai_gow as pg
from games.core.cards import Card
from games.pai_gow.exact import side_return
from games.pai_gow.house_way import house_way_keys
from games.pai_gow.simulate import deal, house_keys
from games.poker.pai_gow_joker import JokerRule
from games.sim import contains

# the family's own list, not the catalog: a broken sibling family cannot fail these tests
get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__


@pytest.mark.parametrize("joker", list(JokerRule))
def test_vectorised_house_way_keys_match_the_hand_by_hand_house_way(joker: JokerRule) -> None:
    rows = deal(np.random.default_rng(21), 1500)[:, :7]
    for row, keys in zip(rows.tolist(), house_keys(rows, joker, True).tolist(), strict=True):
        cards = [Card.from_index(i) for i in row]
        assert tuple(keys) == house_way_keys(cards, joker) == house_way_keys(cards[::-1], joker)


def test_simulation_reports_both_bets_and_is_reproducible() -> None:
    variant = get_variant("pai-gow-bonus")
    a = pg.simulate(variant, 3000, 7)
    b = pg.simulate(variant, 3000, 7)
    assert set(a.bets) == {"main", "bonus"} and a == b
    assert a.bets["main"].rounds == 3000
    with pytest.raises(ValueError, match="positive"):
        pg.simulate(variant, 0, 1)


@pytest.mark.slow
def test_bonus_edge_inside_the_interval_and_main_near_published(published: dict[str, Any]) -> None:
    variant = get_variant("pai-gow-bonus")
    sim = pg.simulate(variant, 40_000, 3)
    side = variant.rules.side
    edge = -side_return(side, variant.rules.joker, variant.limits["bonus"].minimum)
    assert contains(sim.bets["bonus"], edge)
    main = published["main_game"]
    tol = Fraction(str(main["tolerance_pct"])) / 100
    target = Fraction(str(main["house_edge_pct"])) / 100
    m = sim.bets["main"]
    assert m.ci_low <= -float(target - tol) and m.ci_high >= -float(target + tol)
