"""House edges against the published figures in tests/data/blackjack (sources in its README)."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from games.blackjack import VARIANTS, autoplay, house_edge, new_game, simulate
from games.blackjack.exact import (
    buster_edge,
    dealer_bust_by_cards,
    insurance_edge,
    main_edge,
)
from games.core import DealCard, Ratio, deck

DATA = Path(__file__).parents[2] / "data" / "blackjack"
PUBLISHED = tomllib.loads((DATA / "published_edges.toml").read_text())
BUSTER = tomllib.loads((DATA / "buster_six_deck_h17.toml").read_text())
BY_ID = {v.id: v for v in VARIANTS}


@pytest.mark.slow
def test_pinnacle_main_edge_matches_published() -> None:
    pub = PUBLISHED["pinnacle_main"]
    edge = main_edge(BY_ID["blackjack-pinnacle"].rules)
    assert abs(edge - pub["house_edge"]) <= pub["tolerance"], (edge, pub["source"])
    # High Stakes plays the same rules
    assert BY_ID["blackjack-high-stakes"].rules == BY_ID["blackjack-pinnacle"].rules


def test_insurance_edge_exact_and_published() -> None:
    pub = PUBLISHED["insurance_six_deck"]
    for variant in VARIANTS:
        edge = insurance_edge(variant.rules)
        assert isinstance(edge, Fraction)
        assert abs(float(edge) - pub["house_edge"]) <= pub["tolerance"], variant.id


def test_dealer_bust_by_cards_matches_published_table() -> None:
    dist = dealer_bust_by_cards(BY_ID["blackjack-21st-century"].rules)
    tol = 0.5 * 10 ** -BUSTER["decimals"] + 1e-12
    # the published no-bust line is 0.714241 though its bust lines sum to 0.285761: allow 2e-6
    assert abs(float(dist[0]) - BUSTER["no_bust"]) <= 2e-6
    for cards, p in BUSTER["bust_with_cards"].items():
        n = int(cards)
        got = sum(v for k, v in dist.items() if k == n or (n == 8 and k >= 8))
        assert abs(float(got) - p) <= tol, n
    assert sum(dist.values()) == 1


def test_buster_edge_is_the_page_table_over_the_published_probabilities() -> None:
    rules = BY_ID["blackjack-21st-century"].rules
    probs = {int(k): v for k, v in BUSTER["bust_with_cards"].items()}
    published_ev = sum(p * _odds(rules.buster_pay(n)) for n, p in probs.items())
    published_ev -= BUSTER["no_bust"]
    edge = buster_edge(rules)
    assert isinstance(edge, Fraction)
    assert abs(float(edge) + published_ev) < 2e-5  # published probabilities are rounded


def _odds(ratio: Ratio | None) -> float:
    assert ratio is not None
    return ratio.num / ratio.den


@pytest.mark.slow
def test_house_edge_contract() -> None:
    edges = house_edge(BY_ID["blackjack-21st-century"])
    assert set(edges) == {"main", "insurance", "buster"}
    assert edges["insurance"].exact and edges["buster"].exact and not edges["main"].exact
    assert Fraction(0) < edges["main"].edge < Fraction(3, 100)


def test_simulation_agrees_with_exact_side_bets() -> None:
    variant = BY_ID["blackjack-21st-century"]
    sim = simulate(variant, 300_000, seed=7)
    assert sim.rounds == 300_000
    bus = sim.bets["buster"]
    assert bus.ci_low <= -float(buster_edge(variant.rules)) <= bus.ci_high
    ins = sim.bets["insurance"]
    assert ins.ci_low <= -float(insurance_edge(variant.rules)) <= ins.ci_high


def test_simulate_is_reproducible_and_seeded() -> None:
    variant = BY_ID["blackjack-pinnacle"]
    a = simulate(variant, 20_000, seed=3)
    b = simulate(variant, 20_000, seed=3)
    c = simulate(variant, 20_000, seed=4)
    assert a == b and a != c


def test_autoplay_finishes_rounds() -> None:
    for variant in VARIANTS:
        game = new_game(variant)
        shoe = list(deck()) * variant.rules.decks
        while not game.is_over:
            if game.needs() is not None:
                game.apply(DealCard(card=shoe.pop()))
                continue
            action = autoplay(game, 0)
            assert action is not None
            game.apply(action)
        assert autoplay(game, 0) is None
