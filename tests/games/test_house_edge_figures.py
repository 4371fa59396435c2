"""Issue 14 point 11: what ``croupier games house-edge`` says of every figure, per family.

Issue 14, point 11: "Every bet whose house edge can be computed exactly is exact in
`croupier games house-edge` (a fraction, `exact: true`), not simulated ... Where a
figure needs a player strategy (... Oasis Poker's draws, pai gow's main bet, 21st
Century Blackjack), say what is exact and what is not ... for every simulated figure
print the interval and the rounds, with at least 10^7 rounds behind the figure the
CLI ships."

Each family's every variant through the real CLI (``--json``): an exact figure is a
fraction equal to the family's own, with no run behind it; every other figure names
its strategy and a shipped run of at least 10^7 rounds whose 99.9% interval holds
it, made by a command it names.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from games import catalog
from games.core.shipped import MIN_ROUNDS
from kiosk_ui.cli import main

FAMILIES = [
    "baccarat",
    "blackjack",
    "craps",
    "roulette",
    "sicbo",
    "war",
    "three_card",
    "caribbean_stud",
    "let_it_ride",
    pytest.param("pai_gow", marks=pytest.mark.slow),  # its side bets count 154M hands
    "holdem",
    pytest.param("video_poker", marks=pytest.mark.slow),  # analyses every 52-card deal
]


def _cli(capsys: pytest.CaptureFixture[str], variant_id: str) -> dict[str, Any]:
    assert main(["games", "house-edge", variant_id, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert data["game"] == variant_id
    bets: dict[str, Any] = data["bets"]
    return bets


def _check_exact(row: dict[str, Any], edge: Fraction) -> None:
    assert row["kind"] == "exact" and row["simulation"] is None
    assert Fraction(row["house_edge"]) == edge


def _check_run(row: dict[str, Any], edge: Fraction) -> None:
    run = row["simulation"]
    assert row["kind"] in {"simulated", "analysis"} and row["strategy"]
    assert "not exact" in row["note"]  # says what is not exact and why
    assert run["rounds"] >= MIN_ROUNDS and run["built_by"].startswith("python bench/")
    low, high = (Fraction(x) for x in run["interval_999"])
    assert low < edge < high
    if row["kind"] == "simulated":
        assert Fraction(run["house_edge"]) == edge


@pytest.mark.parametrize("family", FAMILIES)
def test_every_figure_is_exact_or_states_its_run(
    family: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fam = catalog.families()[family]
    for variant in fam.VARIANTS:
        edges = fam.house_edge(variant)
        rows = _cli(capsys, variant.id)
        assert set(rows) == set(edges)
        for bet, row in rows.items():
            e = edges[bet]
            assert row["exact"] is e.exact and Fraction(row["house_edge"]) == e.edge
            if e.exact:
                _check_exact(row, e.edge)
            else:
                _check_run(row, e.edge)


def test_the_human_output_says_rounds_interval_and_strategy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games", "house-edge", "oasis-poker"]) == 0
    out = capsys.readouterr().out
    assert "simulated: 10,000,000 rounds, seed 20261130, 99.9% interval" in out
    assert "strategy: call by the rules of thumb" in out
    assert "jackpot" in out and "exact" in out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant_id", "bet"), [("oasis-poker", "ante"), ("blackjack-pinnacle", "main")]
)
def test_a_fresh_shorter_run_holds_the_shipped_figure(variant_id: str, bet: str) -> None:
    """10^6 rounds on another seed: its 99.9% interval holds the figure the CLI ships
    (Oasis Poker's simulated ante; the Pinnacle blackjack analysis) and the shipped run's."""
    variant = catalog.get_variant(variant_id)
    fam = catalog.family_of(variant)
    e = fam.house_edge(variant)[bet]
    assert e.simulation is not None
    fresh = fam.simulate(variant, 1_000_000, e.simulation.seed + 1).bets[bet]
    low, high = -Fraction(repr(fresh.ci_high)), -Fraction(repr(fresh.ci_low))
    assert low <= e.edge <= high and low <= e.simulation.edge <= high
