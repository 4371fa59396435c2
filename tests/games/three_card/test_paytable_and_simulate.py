"""Pay-table validation, and the simulation agreeing with the exact returns."""

from __future__ import annotations

from importlib import resources

import pytest

import games.three_card as tc
from games.core.errors import PaytableError
from games.sim import contains
from games.three_card.rules import loads

TEXT = (
    resources.files("games.three_card")
    .joinpath("paytables")
    .joinpath("three-card-poker.toml")
    .read_text(encoding="utf-8")
)


def test_packaged_variants_load_with_their_pages() -> None:
    ids = {v.id: v for v in tc.VARIANTS}
    assert set(ids) == {"three-card-poker", "tri-card-poker"}
    assert "004_" in ids["three-card-poker"].source
    assert "001_" in ids["tri-card-poker"].source
    assert ids["three-card-poker"].rules.bets == (
        "ante",
        "pair-plus",
        "six-card-bonus",
        "progressive",
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 2", "spec 2 is not supported"),
        ('mini_royal = "200:1"', 'mini_royal = "200"', "pays must be a string like"),
        ('mini_royal = "200:1"', 'royal = "200:1"', "unknown hand 'royal'"),
        ("dealer_shows_card = true", "dealer_shows_card = 1", "must be bool"),
        ("seats = 6", "seats = 9", "seats <= positions"),
        ("[bets.six-card-bonus]", "[bets.bonus]", "bets must be exactly"),
        ('three_of_a_kind = "30:1"', 'three_of_a_kind = "0:1"', "pays nothing"),
    ],
)
def test_bad_tables_refused_with_the_key(old: str, new: str, message: str) -> None:
    assert old in TEXT
    with pytest.raises(PaytableError, match=message):
        loads(TEXT.replace(old, new, 1), "test.toml")


def test_not_toml_refused() -> None:
    with pytest.raises(PaytableError, match=r"test\.toml: not valid TOML"):
        loads("spec = = 1", "test.toml")


@pytest.mark.parametrize("variant", tc.VARIANTS, ids=lambda v: v.id)
def test_simulation_interval_contains_the_exact_return(variant: object) -> None:
    from games.core.engine import Variant

    assert isinstance(variant, Variant)
    result = tc.simulate(variant, 200_000, seed=20261130)
    edges = tc.house_edge(variant)
    assert set(result.bets) == set(edges)
    for bet, sim in result.bets.items():
        assert sim.rounds == 200_000
        assert contains(sim, edges[bet].edge), bet


def test_simulate_refuses_no_rounds() -> None:
    with pytest.raises(ValueError, match="rounds must be positive"):
        tc.simulate(tc.VARIANTS[0], 0, 1)
