"""Exact three-card returns: published figures, the strategy, and a brute-force cross-check."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import games.three_card as tc
from games.core.cards import parse_cards
from games.poker.three_card import rank3_batch
from games.three_card.exact import (
    bet_returns,
    class_play,
    hands,
    pair_plus_alone_return,
    play_table,
    should_play,
)
from games.three_card.rules import load_packaged
from tests.games.three_card.data import load

PUBLISHED = load("published.json")
TRI = load_packaged("tri-card-poker")
TCP = load_packaged("three-card-poker")


def _percent(x: Fraction) -> Decimal:
    return (Decimal(x.numerator * 100) / Decimal(x.denominator)).quantize(Decimal("0.01"))


def test_tri_card_ante_is_the_published_three_card_poker_edge() -> None:
    # gap 6 gives Tri-Card exactly the standard 1-4-5 ante bonus game
    edge = tc.house_edge(TRI)["ante"]
    assert edge.exact
    assert _percent(edge.edge) == Decimal(PUBLISHED["ante_play_145_house_edge_percent"])


def test_pair_plus_1_3_6_30_40_is_published_edge() -> None:
    from dataclasses import replace
    from types import MappingProxyType

    from games.poker.three_card import Category3

    rules = TRI.rules
    table = dict(rules.pair_plus)
    table[Category3.MINI_ROYAL] = table[Category3.STRAIGHT_FLUSH]  # no royal bonus
    plain = replace(rules, pair_plus=MappingProxyType(table))
    ret = pair_plus_alone_return(plain)
    assert _percent(-ret) == Decimal(PUBLISHED["pair_plus_1_3_6_30_40_house_edge_percent"])
    assert bet_returns(plain)["pair-plus"] == ret  # every pair or better is played


@pytest.mark.parametrize("hand", PUBLISHED["q64_played"])
def test_q64_hands_are_played(hand: str) -> None:
    assert should_play(TRI.rules, tuple(c.index for c in parse_cards(hand)), None)


@pytest.mark.parametrize("hand", PUBLISHED["q64_folded"])
def test_below_q64_hands_are_folded(hand: str) -> None:
    assert not should_play(TRI.rules, tuple(c.index for c in parse_cards(hand)), None)


def test_suit_classes_cover_every_hand() -> None:
    h = hands()
    assert len(h.reps) == 1755 and int(h.sizes.sum()) == 22_100
    assert (h.rank[h.reps[h.klass]] == h.rank).all()  # suit maps keep the value


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_class_sums_match_brute_force(seed: int) -> None:
    """S(P, u) by direct enumeration of the dealer hands holding u, for random P and u."""
    rules = TCP.rules
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.choice(52, size=4, replace=False)]
    player, shown = tuple(cards[:3]), cards[3]
    rest = [c for c in range(52) if c not in player and c != shown]
    dealers = np.array([(shown, a, b) for a, b in itertools.combinations(rest, 2)])
    p = int(rank3_batch(np.array([player]))[0])
    d = rank3_batch(dealers).astype(np.int64)
    v = np.where(d < rules.qualifier, 1, np.where(p > d, 2, np.where(p < d, -2, 0)))
    want_play = int(v.sum()) > -len(dealers)
    assert should_play(rules, player, shown) == want_play
    # and through the class tables: the suit-mapped class sum equals the direct sum
    h = hands()
    a, b, c = sorted(player)
    hand = int(h.index[a, b, c])
    _, _, sums, counts = class_play(rules)
    mapped = (shown >> 2) * 4 + int(h.perm[hand][shown & 3])
    assert int(sums[h.klass[hand], mapped]) == int(v.sum())
    assert int(counts[h.klass[hand], mapped]) == len(dealers) == 1128


def test_play_table_shape_and_fold_rate() -> None:
    tri = play_table(TRI.rules)
    assert tri.shape == (22_100, 52)
    assert (tri == tri[:, :1]).all()  # no shown card: one decision per hand
    assert 22_100 - int(tri[:, 0].sum()) == PUBLISHED["q64_folded_hands"]


def test_should_play_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="not a three-card hand"):
        should_play(TRI.rules, (1, 1, 2), None)
    with pytest.raises(ValueError, match="shows a dealer card"):
        should_play(TCP.rules, (1, 2, 3), None)
