"""Exact craps edges against published (and hand-worked) figures in tests/data/craps."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from games.catalog import get_variant
from games.craps import house_edge, simulate
from games.craps.exact import all_bets, percent
from games.craps.paytable import load_paytable

DATA = tomllib.loads(
    (Path(__file__).parents[2] / "data" / "craps" / "edges.toml").read_text(encoding="utf-8")
)
VARIANT = get_variant("craps-pinnacle")
EDGES = house_edge(VARIANT)
PER_ROLL = DATA.pop("per_roll")


def rounded(x: Fraction, places: int) -> Decimal:
    return Decimal(percent(x, places).rstrip("%"))


@pytest.mark.parametrize("name", sorted(DATA))
def test_edge_matches_known_figure(name: str) -> None:
    want = DATA[name]["percent"]
    places = len(want.split(".")[1])
    assert rounded(EDGES[name].edge, places) == Decimal(want), name
    assert EDGES[name].exact


@pytest.mark.parametrize("name", sorted(PER_ROLL))
def test_per_roll_edge_matches_published(name: str) -> None:
    want = PER_ROLL[name]["percent"]
    m = all_bets(load_paytable())[name]
    assert rounded(m.edge_per_roll, len(want.split(".")[1])) == Decimal(want)


def test_every_bet_has_an_edge_and_odds_are_free() -> None:
    for name, he in EDGES.items():
        if "odds" in name and "+" not in name:
            assert he.edge == 0, name
        elif "+" not in name:
            assert he.edge > 0, name


def test_dont_pass_per_bet_resolved_excludes_the_push() -> None:
    m = all_bets(load_paytable())["dont-pass"]
    assert m.p_push == Fraction(1, 36)
    assert rounded(m.edge_per_resolved, 2) == Decimal("1.40")  # Wizard of Odds: 1.40%
    assert m.p_win + m.p_lose + m.p_push == 1


def test_combined_line_and_odds_per_flat_unit_equal_the_flat_edge() -> None:
    assert EDGES["pass+max-odds"].edge == Fraction(7, 495)
    assert EDGES["dont-pass+max-odds"].edge == Fraction(3, 220)


def test_small_simulation_agrees_roughly() -> None:
    result = simulate(VARIANT, 20_000, seed=5)
    assert set(result.bets) == {k for k in EDGES if "+" not in k}
    misses = [
        name
        for name, sim in result.bets.items()
        if not sim.ci_low <= -float(EDGES[name].edge) <= sim.ci_high
    ]
    assert len(misses) <= 2, misses  # 99.9% intervals: rarely any miss
    assert simulate(VARIANT, 1000, seed=9) == simulate(VARIANT, 1000, seed=9)
