"""Roulette: standard pays, la partage, exact edges against published figures, refusals."""

from __future__ import annotations

import tomllib
from collections import Counter
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
    SpinResult,
)
from games.craps.exact import percent
from games.roulette import VARIANTS, autoplay, house_edge, new_game, simulate
from games.roulette.layout import EVEN_MONEY, Layout
from games.roulette.paytable import load_tables_text

DATA = tomllib.loads(
    (Path(__file__).parents[2] / "data" / "roulette" / "edges.toml").read_text(encoding="utf-8")
)


def play(variant_id: str, bets: dict[str, int], number: str) -> dict[str, BetSettled]:
    g = new_game(get_variant(variant_id))
    for name, amount in bets.items():
        g.apply(PlaceBet(seat=0, bet=name, amount=amount))
    g.apply(Decide(seat=0, decision="spin"))
    need = g.needs()
    assert need is not None
    assert need.kind is NeedKind.SPIN
    events = g.apply(SpinResult(number=number))
    assert g.is_over
    return {e.bet: e for e in events if isinstance(e, BetSettled)}


@pytest.mark.parametrize("variant", [v.id for v in VARIANTS])
def test_edges_match_published_figures(variant: str) -> None:
    want = DATA[variant]
    for name, he in house_edge(get_variant(variant)).items():
        if name in want:
            row = want[name]
        elif name in EVEN_MONEY and "even-money" in want:
            row = want["even-money"]
        else:
            row = want["all"]
        places = len(row["percent"].split(".")[1])
        assert Decimal(percent(he.edge, places).rstrip("%")) == Decimal(row["percent"]), name


def test_variants_tell_the_runtime_their_wheel() -> None:
    zeros = {v.id: v.zeros for v in VARIANTS}
    assert zeros == {
        "roulette-single-zero": 1,
        "roulette-double-zero": 2,
        "roulette-la-partage": 1,
    }
    assert all(v.decks == 0 for v in VARIANTS)


def test_layout_counts() -> None:
    single = Counter(Layout.kind(n) for n in Layout(("0",)).bets)
    double = Counter(Layout.kind(n) for n in Layout(("0", "00")).bets)
    assert (single["straight"], single["split"], single["corner"], single["line"]) == (
        37, 60, 22, 11,
    )  # fmt: skip
    assert (single["trio"], single["first-four"], single["top-line"]) == (2, 1, 0)
    assert (double["straight"], double["split"], double["trio"], double["top-line"]) == (
        38, 62, 3, 1,
    )  # fmt: skip


def test_pays_through_the_engine() -> None:
    r = play(
        "roulette-single-zero",
        {"straight-17": 100, "split-20-17": 200, "street-16-17-18": 300, "corner-13-14-16-17": 100,
         "line-13-14-15-16-17-18": 600, "dozen-2": 500, "column-2": 500, "black": 1000,
         "odd": 1000, "low": 1000, "red": 1000},
        "17",
    )  # fmt: skip
    assert {k: v.net for k, v in r.items()} == {
        "straight-17": 3500, "split-17-20": 3400, "street-16-17-18": 3300,
        "corner-13-14-16-17": 800, "line-13-14-15-16-17-18": 3000, "dozen-2": 1000,
        "column-2": 1000, "black": 1000, "odd": 1000, "low": 1000, "red": -1000,
    }  # fmt: skip


def test_double_zero_top_line_and_zero_splits() -> None:
    r = play("roulette-double-zero", {"top-line": 500, "split-00-0": 100, "red": 100}, "00")
    assert r["top-line"].net == 3000
    assert r["split-0-00"].net == 1700
    assert r["red"].net == -100


def test_la_partage_returns_half_of_even_money_bets_on_zero() -> None:
    r = play("roulette-la-partage", {"red": 1000, "high": 500, "straight-5": 100}, "0")
    assert (r["red"].returned, r["red"].net, r["red"].result) == (500, -500, "lose")
    assert r["high"].net == -250
    assert r["straight-5"].net == -100
    r = play("roulette-single-zero", {"red": 1000}, "0")
    assert r["red"].net == -1000


def test_refusals_change_nothing() -> None:
    g = new_game(get_variant("roulette-single-zero"))
    g.apply(PlaceBet(seat=0, bet="red", amount=50000))
    before = g.view(0)
    for action in [
        PlaceBet(seat=0, bet="red", amount=100),
        PlaceBet(seat=0, bet="straight-00", amount=100),  # no 00 on this wheel
        PlaceBet(seat=0, bet="split-1-5", amount=100),  # not adjacent
        PlaceBet(seat=0, bet="top-line", amount=100),
        PlaceBet(seat=0, bet="black", amount=50),
        RemoveBet(seat=0, bet="black"),
        SpinResult(number="7"),
        Decide(seat=0, decision="roll"),
        PlaceBet(seat=2, bet="black", amount=100),
    ]:
        with pytest.raises(IllegalAction):
            g.apply(action)
        assert g.view(0) == before
    g.apply(Decide(seat=0, decision="spin"))
    for number in ["00", "37", "-1", "x"]:
        with pytest.raises(IllegalAction, match="not a pocket"):
            g.apply(SpinResult(number=number))


LAYOUT = Layout(("0",))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(sorted(LAYOUT.bets)), st.integers(-100, 60000)), max_size=12
    ),
    st.lists(st.sampled_from(sorted(LAYOUT.bets)), max_size=4),
    st.sampled_from(LAYOUT.pockets),
    st.sampled_from([v.id for v in VARIANTS if v.rules.wheel.zeros == ("0",)]),
)
def test_chips_are_conserved(
    bets: list[tuple[str, int]], removals: list[str], number: str, variant: str
) -> None:
    g = new_game(get_variant(variant))
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
    g.apply(Decide(seat=0, decision="spin"))
    for e in g.apply(SpinResult(number=number)):
        if isinstance(e, BetSettled):
            stakes += e.stake
            assert e.returned <= 36 * e.stake
    assert stakes == placed - returned
    assert g.on_table() == 0


def test_autoplay_bets_red_and_spins() -> None:
    g = new_game(VARIANTS[1])
    a = autoplay(g, 0)
    assert a == PlaceBet(seat=0, bet="red", amount=100)
    g.apply(a)
    b = autoplay(g, 0)
    assert b == Decide(seat=0, decision="spin")
    g.apply(b)
    assert autoplay(g, 0) is None


def test_simulation_interval_contains_the_exact_edge() -> None:
    v = get_variant("roulette-la-partage")
    edges = house_edge(v)
    result = simulate(v, 200_000, seed=4)
    misses = [
        n for n, s in result.bets.items() if not s.ci_low <= -float(edges[n].edge) <= s.ci_high
    ]
    assert len(misses) <= 2, misses


TEXT = (
    resources.files("games.roulette")
    .joinpath("paytables")
    .joinpath("wheels.toml")
    .read_text(encoding="utf-8")
)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 0", "spec must be 1"),
        ('straight = "35:1"', 'straight = "36:1"', "leaves the house no edge"),
        ('zeros = ["0", "00"]\nla_partage = false', 'zeros = ["0", "00"]\nla_partage = true',
         "la partage is a single-zero rule"),
        ('zeros = ["0"]', 'zeros = ["00"]', "zeros must be"),
        ('dozen = "2:1"\n', "", "missing ['dozen']"),
    ],
)  # fmt: skip
def test_broken_tables_are_refused(old: str, new: str, message: str) -> None:
    assert old in TEXT
    with pytest.raises(PaytableError, match=message.replace("[", "\\[")):
        load_tables_text(TEXT.replace(old, new, 1), "bad.toml")
