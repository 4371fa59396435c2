"""Exact enumeration against the published combination counts and house edges."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

import games.baccarat as bac
from games.baccarat.exact import bet_returns, composition, coup_counts, falling
from games.catalog import family_of


def _pct(edge: Fraction, places: int) -> Decimal:
    scaled = edge * 100 * 10**places
    return Decimal(round(scaled)) / Decimal(10**places)


def _variant(vid: str) -> Any:
    return next(v for v in bac.VARIANTS if v.id == vid)


@pytest.mark.parametrize("decks", [6, 8])
def test_counts_match_published_combinations(decks: int, published: dict[str, Any]) -> None:
    want = published["baccarat"][f"decks{decks}"]
    got = coup_counts(decks)
    assert got.total == want["total"] == falling(52 * decks, 6)
    assert (got.banker, got.player, got.tie) == (want["banker"], want["player"], want["tie"])


def test_ez_counts_match_published(published: dict[str, Any]) -> None:
    want = published["ez"]["decks8"]
    got = coup_counts(8)
    assert got.total == want["total"]
    assert got.banker_three_card_seven == want["banker_three_card_seven"]
    assert got.player_three_card_eight == want["player_three_card_eight"]


@pytest.mark.parametrize(("vid", "decks"), [("baccarat-pinnacle", 6), ("baccarat-ez", 8)])
def test_main_bet_edges_match_published_to_four_places(
    vid: str, decks: int, published: dict[str, Any]
) -> None:
    edges = bac.house_edge(_variant(vid))
    want = published["baccarat"][f"decks{decks}"]["edge_pct"]
    assert _pct(edges["player"].edge, 4) == Decimal(want["player"])
    assert _pct(edges["tie"].edge, 4) == Decimal(want["tie"])
    if vid == "baccarat-pinnacle":  # 5% commission banker
        assert _pct(edges["banker"].edge, 4) == Decimal(want["banker"])
    assert all(e.exact for e in edges.values())


def test_eight_deck_commission_banker_edge_matches_published(published: dict[str, Any]) -> None:
    """The Pinnacle rules on an 8-deck shoe give the published 8-deck banker edge."""
    rules = dataclasses.replace(_variant("baccarat-pinnacle").rules, decks=8)
    banker = -bet_returns(rules)["banker"]
    want = published["baccarat"]["decks8"]["edge_pct"]["banker"]
    assert _pct(banker, 4) == Decimal(want)


def test_ez_returns_match_published(published: dict[str, Any]) -> None:
    want = published["ez"]["decks8"]["return"]
    edges = bac.house_edge(_variant("baccarat-ez"))
    for bet in ("banker", "dragon7", "panda8"):
        ret = -edges[bet].edge
        assert Decimal(round(ret * 10**6)) / 10**6 == Decimal(want[bet]), bet


def test_banker_edge_is_exact_fraction_of_counts() -> None:
    c = coup_counts(6)
    expected = Fraction(c.player, c.total) - Fraction(c.banker, c.total) * Fraction(19, 20)
    assert bac.house_edge(_variant("baccarat-pinnacle"))["banker"].edge == expected


def test_declared_rtp_agrees_with_exact() -> None:
    for v in bac.VARIANTS:
        edges = bac.house_edge(v)
        for bet, rtp_bp in v.rules.declared_rtp_bp.items():
            assert round((1 - edges[bet].edge) * 10_000) == rtp_bp, (v.id, bet)


def test_composition_and_guards() -> None:
    assert composition(1) == (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    with pytest.raises(ValueError, match="at least one deck"):
        composition(0)
    with pytest.raises(ValueError, match="too many"):
        coup_counts(40)


def test_family_is_found_through_the_catalog() -> None:
    fam = family_of("baccarat-ez")
    assert fam.house_edge(_variant("baccarat-ez"))["dragon7"].exact
