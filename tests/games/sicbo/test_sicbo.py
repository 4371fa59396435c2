"""Sic bo: Macau pays through the engine, exact edges against known figures, refusals."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.catalog import get_variant
from games.core import (
    BetPlaced,
    BetRefused,
    BetReturned,
    BetSettled,
    Decide,
    IllegalAction,
    NeedKind,
    PaytableError,
    PlaceBet,
    RemoveBet,
    RollDice,
)
from games.craps.exact import percent
from games.sicbo import autoplay, house_edge, new_game, simulate
from games.sicbo.bets import all_bet_names
from games.sicbo.engine import SicBoRound
from games.sicbo.paytable import load_paytable_text

VARIANT = get_variant("sicbo-macau")
DATA = tomllib.loads(
    (Path(__file__).parents[2] / "data" / "sicbo" / "edges.toml").read_text(encoding="utf-8")
)
EDGES = house_edge(VARIANT)


def play(bets: dict[str, int], dice: tuple[int, int, int]) -> dict[str, BetSettled]:
    g = new_game(VARIANT)
    for name, amount in bets.items():
        g.apply(PlaceBet(seat=0, bet=name, amount=amount))
    g.apply(Decide(seat=0, decision="roll"))
    need = g.needs()
    assert need is not None
    assert (need.kind, need.count) == (NeedKind.DICE, 3)
    events = g.apply(RollDice(faces=dice))
    assert g.is_over
    return {e.bet: e for e in events if isinstance(e, BetSettled)}


@pytest.mark.parametrize("name", sorted(DATA))
def test_edge_matches_known_figure(name: str) -> None:
    want = DATA[name]["percent"]
    got = percent(EDGES[name].edge, len(want.split(".")[1])).rstrip("%")
    assert Decimal(got) == Decimal(want)


def test_every_bet_on_the_layout_has_an_exact_edge() -> None:
    assert set(EDGES) == set(all_bet_names())
    assert len(EDGES) == 4 + 14 + 6 + 1 + 6 + 15 + 6


def test_macau_pays_through_the_engine() -> None:
    bets = {
        "small": 1000,
        "big": 1000,
        "odd": 1000,
        "total-9": 100,
        "single-3": 500,
        "double-3": 200,
        "combo-3-5": 300,
        "triple-3": 100,
        "any-triple": 100,
    }
    r = play(bets, (3, 3, 5))  # total 11
    assert {k: v.net for k, v in r.items()} == {
        "small": -1000,
        "big": 1000,
        "odd": 1000,
        "total-9": -100,
        "single-3": 1000,  # two dice: 2 to 1
        "double-3": 1600,  # 8 to 1
        "combo-3-5": 1500,  # 5 to 1
        "triple-3": -100,
        "any-triple": -100,
    }


def test_triples_lose_small_big_odd_even_but_pay_totals() -> None:
    r = play(
        {
            "small": 100,
            "even": 100,
            "total-6": 100,
            "triple-2": 100,
            "any-triple": 100,
            "single-2": 100,
        },
        (2, 2, 2),
    )
    assert r["small"].result == "lose"
    assert r["even"].result == "lose"
    assert r["total-6"].net == 1400
    assert r["triple-2"].net == 15000
    assert r["any-triple"].net == 2400
    assert r["single-2"].net == 300


def test_refusals_change_nothing() -> None:
    g = new_game(VARIANT)
    g.apply(PlaceBet(seat=0, bet="big", amount=50000))
    before = g.view(0)
    for action in [
        PlaceBet(seat=0, bet="big", amount=100),  # over $500
        PlaceBet(seat=0, bet="total-3", amount=100),
        PlaceBet(seat=0, bet="combo-2-2", amount=100),
        PlaceBet(seat=0, bet="small", amount=150),
        PlaceBet(seat=1, bet="small", amount=100),
        RemoveBet(seat=0, bet="small"),
        RollDice(faces=(1, 2, 3)),
        Decide(seat=0, decision="spin"),
    ]:
        with pytest.raises(IllegalAction):
            g.apply(action)
        assert g.view(0) == before
    g.apply(Decide(seat=0, decision="roll"))
    for faces in [(1, 2), (0, 1, 2), (1, 2, 7)]:
        with pytest.raises(IllegalAction, match="three dice"):
            g.apply(RollDice(faces=faces))
    g.apply(RollDice(faces=(6, 6, 5)))
    with pytest.raises(IllegalAction, match="over"):
        g.apply(PlaceBet(seat=0, bet="big", amount=100))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(all_bet_names()), st.integers(-100, 60000)), max_size=12),
    st.lists(st.sampled_from(all_bet_names()), max_size=4),
    st.tuples(*[st.integers(1, 6)] * 3),
)
def test_chips_are_conserved(
    bets: list[tuple[str, int]], removals: list[str], dice: tuple[int, int, int]
) -> None:
    g: SicBoRound = new_game(VARIANT, seats=1)
    placed = returned = stakes = 0
    for name, amount in bets:
        action = PlaceBet(seat=0, bet=name, amount=amount)
        if g.can(action):
            placed += sum(e.amount for e in g.apply(action) if isinstance(e, BetPlaced))
        else:
            with pytest.raises(BetRefused):
                g.verify(action)
    for name in removals:
        action = RemoveBet(seat=0, bet=name)
        if g.can(action):
            returned += sum(e.amount for e in g.apply(action) if isinstance(e, BetReturned))
    assert g.on_table() == placed - returned
    if not g.on_table():
        return
    g.apply(Decide(seat=0, decision="roll"))
    for e in g.apply(RollDice(faces=dice)):
        if isinstance(e, BetSettled):
            stakes += e.stake
            assert e.returned in (0, *range(2 * e.stake, 151 * e.stake + 1))
    assert stakes == placed - returned
    assert g.on_table() == 0


def test_autoplay_bets_small_and_rolls() -> None:
    g = new_game(VARIANT)
    first = autoplay(g, 0)
    assert first == PlaceBet(seat=0, bet="small", amount=100)
    g.apply(first)
    roll = autoplay(g, 0)
    assert roll == Decide(seat=0, decision="roll")
    g.apply(roll)
    assert autoplay(g, 0) is None
    g.apply(RollDice(faces=(1, 2, 3)))
    assert autoplay(g, 0) is None


def test_simulation_interval_contains_the_exact_edge() -> None:
    result = simulate(VARIANT, 200_000, seed=3)
    misses = [
        n for n, s in result.bets.items() if not s.ci_low <= -float(EDGES[n].edge) <= s.ci_high
    ]
    assert len(misses) <= 2, misses


TEXT = (
    resources.files("games.sicbo")
    .joinpath("paytables")
    .joinpath("macau.toml")
    .read_text(encoding="utf-8")
)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 7", "spec must be 1"),
        ('4 = "50:1"', '4 = "60:1"', "4 and 17 must pay the same"),
        ('combo = "5:1"', 'combo = "five"', "pay must look like"),
        ("standard = true", "standard = 1", "standard must be true or false"),
        ('3 = "3:1"\n', "", "missing"),
    ],
)
def test_broken_paytable_is_refused(old: str, new: str, message: str) -> None:
    assert old in TEXT
    with pytest.raises(PaytableError, match=message):
        load_paytable_text(TEXT.replace(old, new, 1), "bad.toml")
