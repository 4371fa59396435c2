"""Exact side-bet odds over all 154,143,080 seven-card hands, against published counts."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pytest

import games.pai_gow as pg
from games.core.cards import Card
from games.pai_gow import exact
from games.pai_gow.bonus import bonus_hands
from games.pai_gow.classify import KINDS, classify_rows
from games.poker.pai_gow_joker import JokerRule

# the family's own list, not the catalog: a broken sibling family cannot fail these tests
get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__

BONUS_SPECIALS = (
    "seven-card-straight-flush",
    "royal-flush-deuces",
    "seven-card-straight-flush-joker",
)


@pytest.mark.slow
def test_exact_counts_and_edges(published: dict[str, Any]) -> None:
    """One test, so the enumeration (about 20 s of CPU) runs once per worker."""
    check_counts_match_the_published_table(published)
    check_bonus_specials_are_moved_out_of_their_best_five()
    check_house_edges_exact_for_side_bets_simulated_for_the_main_bet()


def check_counts_match_the_published_table(published: dict[str, Any]) -> None:
    want = published["seven_card_counts"]
    got = exact.hand_counts(JokerRule.ACE_OR_FILLER, ())
    assert sum(got.values()) == want["total"] == comb(53, 7)
    trips = got["three-of-a-kind"] + got["straight+three-of-a-kind"]
    for name in ("five-aces", "royal-flush", "straight-flush", "four-of-a-kind", "full-house"):
        assert got[name] == want[name], name
    assert (got["flush"], trips, got["straight"]) == (
        want["flush"],
        want["three-of-a-kind"],
        want["straight"],
    )
    other = got["two-pair"] + got["pair"] + got["high-card"]
    assert other == want["other"]


def check_bonus_specials_are_moved_out_of_their_best_five() -> None:
    plain = exact.hand_counts(JokerRule.ACE_OR_FILLER, ())
    paid = exact.hand_counts(JokerRule.ACE_OR_FILLER, BONUS_SPECIALS)
    # 8 seven-rank runs (ace low to ace high) in 4 suits; a royal in 4 suits with 6 deuce
    # pairs, or four of a royal and the joker (5 gaps x 4 suits) with 6 deuce pairs
    assert paid["seven-card-straight-flush"] == 32
    assert paid["royal-flush-deuces"] == 4 * 6 + 20 * 6
    moved = sum(paid[h] for h in BONUS_SPECIALS)
    lost = sum(plain[h] - paid[h] for h in ("royal-flush", "straight-flush"))
    assert moved == lost
    wild = exact.hand_counts(JokerRule.WILD, ())
    # quads of a rank below aces, the joker and any two of the other 48 cards
    assert wild["five-of-a-kind"] == 12 * comb(48, 2)
    assert wild["five-aces"] == comb(48, 2)


def check_house_edges_exact_for_side_bets_simulated_for_the_main_bet() -> None:
    edges = pg.house_edge(get_variant("pai-gow-bonus"))
    assert edges["bonus"].exact and not edges["main"].exact
    assert "simulation" in edges["main"].method and "154,143,080" in edges["bonus"].method
    # the cap (25,000 credits) only bites above 3 credits: the 20-credit edge is larger
    assert edges["bonus-at-maximum"].edge > edges["bonus"].edge > 0
    fortune = get_variant("pai-gow-fortune")
    f = pg.house_edge(fortune)["fortune"]
    assert f.exact and "Envy" in f.note
    # envy makes the bet better for every other seat at $5, and pays nothing below $5
    assert pg.envy_edge(fortune, 500, 3) < pg.envy_edge(fortune, 500, 1) < f.edge
    assert pg.envy_edge(fortune, 400, 3) == pg.envy_edge(fortune, 400, 0)
    main = pg.house_edge(get_variant("pai-gow-pinnacle"))["main"]
    assert Fraction(1, 100) < main.edge < Fraction(5, 100)


@pytest.mark.parametrize("joker", list(JokerRule))
def test_vector_classification_agrees_with_the_scalar_rules(joker: JokerRule) -> None:
    rng = random.Random(11)
    rows = []
    for i in range(2500):
        row = rng.sample(range(53), 7)
        if i % 3 == 0 and 52 not in row:
            row[0] = 52
        rows.append(row)
    rows += [[48, 44, 40, 36, 32, 0, 1], [32, 28, 24, 20, 16, 12, 8], [52, 28, 24, 20, 16, 12, 8]]
    for row, code in zip(rows, classify_rows(np.array(rows), joker), strict=True):
        names = bonus_hands([Card.from_index(i) for i in row], joker)
        kind = KINDS[code]
        if kind.startswith("seven-card"):
            assert names[0] == kind, row
            continue
        expected = {
            "high-card": set(),
            "pair": set(),
            "two-pair": set(),
            "straight+three-of-a-kind": {"straight", "three-of-a-kind"},
            "royal-flush-deuces": {"royal-flush-deuces", "royal-flush"},
        }.get(kind, {kind})
        assert set(names) == expected, (row, kind, names)
