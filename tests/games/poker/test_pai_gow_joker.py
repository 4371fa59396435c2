"""Pai gow joker rules: the pages' examples and cases, exhaustive counts, batch vs scalar."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import Card, parse_cards
from games.poker.batch import combinations_array
from games.poker.category import Category
from games.poker.errors import InvalidHand
from games.poker.pai_gow_joker import (
    JokerRule,
    paigow_best5,
    paigow_category,
    paigow_rank2,
    paigow_rank5,
    paigow_rank5_batch,
)
from games.poker.rank5 import rank5
from tests.games.poker.data import load_csv, load_json


@pytest.mark.parametrize("row", load_csv("paigow_comparisons.csv"))
def test_page_orderings(row: list[str]) -> None:
    rule, a, b, expected, _page = row
    ka = paigow_rank5(parse_cards(a), joker=JokerRule(rule))
    kb = paigow_rank5(parse_cards(b), joker=JokerRule(rule))
    assert {">": ka > kb, "<": ka < kb, "=": ka == kb}[expected]


def test_wheel_order_is_a_parameter() -> None:
    wheel, king = parse_cards("Ah 2d 3c 4s 5h"), parse_cards("Kh Qd Jc Ts 9h")
    assert paigow_rank5(wheel) > paigow_rank5(king)
    assert paigow_rank5(wheel, wheel_second=False) < paigow_rank5(king, wheel_second=False)
    assert paigow_rank5(wheel, wheel_second=False) < paigow_rank5(parse_cards("6h 2d 3c 4s 5h"))


def test_front_hand_joker_is_an_ace_and_keys_share_one_scale() -> None:
    assert paigow_rank2(parse_cards("X Kd")) == paigow_rank2(parse_cards("As Kd"))
    pair_aces = paigow_rank2(parse_cards("X Ad"))
    assert paigow_rank5(parse_cards("2c 2d 5h 7s 9c")) < pair_aces  # that setting fouls
    assert paigow_rank5(parse_cards("Ac Ad 5h 7s 9c")) > pair_aces
    assert paigow_rank5(parse_cards("Kc Qd 5h 7s 9c")) < paigow_rank2(parse_cards("Kh Kd"))


@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True))
@settings(max_examples=200, deadline=None)
def test_without_joker_order_matches_the_standard_one_apart_from_the_wheel(
    idx: list[int],
) -> None:
    a = [Card.from_index(i) for i in idx]
    b = [Card.from_index(51 - i) for i in idx[::-1]]
    std = (rank5(a) > rank5(b)) - (rank5(a) < rank5(b))
    ka, kb = paigow_rank5(a, wheel_second=False), paigow_rank5(b, wheel_second=False)
    assert std == (ka > kb) - (ka < kb)


@given(st.lists(st.integers(0, 52), min_size=5, max_size=5, unique=True))
@settings(max_examples=200, deadline=None)
def test_batch_equals_scalar(idx: list[int]) -> None:
    for rule in JokerRule:
        want = paigow_rank5([Card.from_index(i) for i in idx], joker=rule)
        assert paigow_rank5_batch(np.array([idx]), joker=rule).tolist() == [want]


def test_best5_of_seven_with_joker() -> None:
    key, five = paigow_best5(parse_cards("Kd Th 4c 5s X 7h 8d"))
    assert paigow_category(key) is Category.STRAIGHT
    assert {str(c) for c in five} == {"4c", "5s", "X", "7h", "8d"}


def test_bad_hands_refused() -> None:
    with pytest.raises(InvalidHand, match="needs 5 cards"):
        paigow_rank5(parse_cards("Ah X"))
    with pytest.raises(InvalidHand, match="one joker"):
        paigow_rank5(parse_cards("Ah X X 2c 3c"))
    with pytest.raises(InvalidHand, match="duplicate"):
        paigow_rank5(parse_cards("Ah Ah 2c 3c 4c"))
    with pytest.raises(InvalidHand, match="one joker"):
        paigow_rank5_batch(np.array([[52, 52, 1, 2, 3]]))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rule", "entry"),
    [
        (JokerRule.ACE_OR_FILLER, "pai_gow_ace_or_filler_joker"),
        (JokerRule.WILD, "pai_gow_wild_joker"),
    ],
)
def test_53_card_category_counts(rule: JokerRule, entry: str) -> None:
    want = load_json("category_counts.json")[entry]
    keys = paigow_rank5_batch(combinations_array(53, 5), joker=rule)
    counts: collections.Counter[str] = collections.Counter()
    uniq, n = np.unique(keys, return_counts=True)
    for k, c in zip(uniq.tolist(), n.tolist(), strict=True):
        counts[paigow_category(k).name] += c
    assert sum(counts.values()) == want["total"]
    assert dict(counts) == want["counts"]
