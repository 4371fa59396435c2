"""Caribbean Stud family pay tables, the jackpot's exact return, and the simulation."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import games.caribbean_stud as cs
from games.caribbean_stud.rules import load_packaged, loads
from games.catalog import families, get_variant
from games.core.errors import PaytableError
from games.core.progressive import FIVE_CARD_COUNTS
from games.poker.category import Category
from tests.games.caribbean_stud.data import load

PACKAGED = Path(cs.__file__).parent / "paytables"
POKER_COUNTS = Path(__file__).resolve().parents[2] / "data" / "poker" / "category_counts.json"


def _text(name: str = "oasis-poker") -> str:
    return (PACKAGED / f"{name}.toml").read_text(encoding="utf-8")


def test_variants_are_in_the_catalog() -> None:
    assert "caribbean_stud" in families()
    assert {v.id for v in cs.VARIANTS} == {"caribbean-stud", "pinnacle-stud-poker", "oasis-poker"}
    oasis = get_variant("oasis-poker")
    assert oasis.jackpots == {"oasis": 2_500_000}
    assert oasis.limits["ante"].maximum == 50_000
    assert dict(oasis.rules.draw_costs) == {1: 1, 2: 2, 3: 3, 4: 2, 5: 1}
    assert oasis.rules.auto_call_draws == {5}


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 2", "spec 2 is not supported"),
        ('royal_flush = "100:1"', 'royal_flush = "100"', "pays must be a string like"),
        ('straight = "4:1"\n', "", "no pay for straight"),
        ("1 = 1\n", "6 = 1\n", "keys are 1..5"),
        ("contribution = 75", "contribution = 175", "contribution <= stake"),
        ("seats = 1", "seats = 9", "seats must be 1..7"),
        ("four_of_a_kind = 50000", "five_of_a_kind = 50000", "no five of a kind"),
        ("flush = 5000", "flushes = 5000", "unknown hand 'flushes'"),
        (
            "[bets.jackpot]\nminimum = 100\nmaximum = 100",
            "[bets.jackpot]\nminimum = 100\nmaximum = 200",
            "exactly the jackpot stake",
        ),
        ("call_multiple = 2", "call_multiple = 2\nsurrender = true", "unknown keys ['surrender']"),
        ("[draw_costs]", "[draw_costs", "not valid TOML"),
    ],
)
def test_bad_tables_are_refused_with_the_key(old: str, new: str, message: str) -> None:
    text = _text()
    assert old in text
    with pytest.raises(PaytableError, match=message.replace("[", r"\[").replace("]", r"\]")):
        loads(text.replace(old, new, 1), "bad.toml")


def test_five_card_counts_match_the_published_counts() -> None:
    counts = json.loads(POKER_COUNTS.read_text(encoding="utf-8"))["five_card"]["counts"]
    assert {c.name: n for c, n in FIVE_CARD_COUNTS.items()} == counts


def test_jackpot_return_is_exact_and_linear_in_the_meter() -> None:
    jp = load_packaged("oasis-poker").rules.jackpot
    assert jp is not None
    meter = 2_500_000
    fixed = 5108 * 5000 + 3744 * 10_000 + 624 * 50_000
    expected = Fraction(fixed * 10 + 36 * meter + 4 * meter * 10, 10 * 2_598_960)
    assert jp.expected_award(meter) == expected
    assert jp.return_at(meter) == (expected - 100) / 100
    published = load("published.json")["jackpot_cents_per_10000_dollars"]
    slope_cents = (jp.expected_award(1_000_000) - jp.expected_award(0)) * 100 / 100  # per $1 bet
    assert round(float(slope_cents), 3) == published
    be = jp.break_even_meter()
    assert be is not None and jp.return_at(int(be) + 1) > 0 > jp.return_at(int(be) - 1)
    assert jp.award(Category.FOUR_OF_A_KIND) == (50_000, 0)  # "$500 on the Jackpot bet" (page)


def test_simulated_edge_matches_the_published_rules_of_thumb_figure() -> None:
    published = load("published.json")["caribbean_rules_of_thumb_edge"]
    sim = cs.simulate(load_packaged("caribbean-stud"), 300_000, 7).bets["ante"]
    assert sim.ci_low < -published < sim.ci_high
    # and the strategy matters: folding everything would lose the whole ante
    assert sim.mean > -0.2


def test_no_upcard_table_plays_akj83_and_matches_its_published_edge() -> None:
    published = load("published.json")["caribbean_akj83_edge"]
    variant = loads(
        _text("caribbean-stud").replace("dealer_shows_card = true", "dealer_shows_card = false")
    )
    sim = cs.simulate(variant, 300_000, 8).bets["ante"]
    assert sim.ci_low < -published < sim.ci_high


def test_house_edge_contract() -> None:
    edges = cs.house_edge(load_packaged("pinnacle-stud-poker"))
    assert set(edges) == {"ante", "jackpot"}
    assert edges["ante"].exact and edges["jackpot"].exact  # ante: test_exact.py
    assert Fraction(3, 100) < edges["ante"].edge < Fraction(8, 100)
    oasis = cs.house_edge(load_packaged("oasis-poker"))
    assert not oasis["ante"].exact and "simulation" in oasis["ante"].method
    jp = load_packaged("pinnacle-stud-poker").rules.jackpot
    assert jp is not None
    assert edges["jackpot"].edge == -jp.return_at(2_500_000)
