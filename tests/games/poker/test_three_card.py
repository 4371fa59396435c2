"""Three-card ranking: the 22,100 hands, page 004's chart, batch against scalar."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from games.core.cards import Card, parse_cards
from games.poker.batch import combinations_array
from games.poker.errors import InvalidHand
from games.poker.three_card import (
    DISTINCT_HANDS3,
    Category3,
    category3,
    category3_batch,
    rank3,
    rank3_batch,
)
from tests.games.poker.data import load_csv, load_json


def test_three_card_category_counts_match_published() -> None:
    want = load_json("category_counts.json")["three_card"]
    ranks = rank3_batch(combinations_array(52, 3))
    got = collections.Counter(Category3(int(c)).name for c in category3_batch(ranks))
    assert sum(got.values()) == want["total"]
    assert dict(got) == want["counts"]


def test_batch_equals_scalar_on_every_hand() -> None:
    arr = combinations_array(52, 3)
    scalar = [rank3([Card.from_index(i) for i in row]) for row in arr.tolist()]
    assert rank3_batch(arr).tolist() == scalar
    assert len(set(scalar)) == DISTINCT_HANDS3
    assert [category3(r) for r in scalar[::101]] == category3_batch(scalar[::101]).tolist()


@pytest.mark.parametrize("row", load_csv("three_card.csv"))
def test_page_004_hand_ranking_chart(row: list[str]) -> None:
    a, b, expected = row
    ra, rb = rank3(parse_cards(a)), rank3(parse_cards(b))
    assert {">": ra > rb, "<": ra < rb, "=": ra == rb}[expected]


def test_bad_hands_refused() -> None:
    with pytest.raises(InvalidHand, match="needs 3 cards"):
        rank3(parse_cards("Ah Kh"))
    with pytest.raises(InvalidHand, match="not a three-card rank"):
        category3(0)
    with pytest.raises(InvalidHand, match="out of range"):
        rank3_batch(np.array([[0, 1, 52]]))
