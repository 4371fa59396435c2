"""Best five of six and seven: tables against a brute force, best5, the exhaustive count."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import Card, parse_cards
from games.poker.batch import exhaustive_counts6, exhaustive_counts7
from games.poker.errors import InvalidHand
from games.poker.rank5 import rank5
from games.poker.rank7 import best5, rank6, rank7, rank_best
from tests.games.poker.data import load_csv, load_json

hands = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@given(hands)
@settings(max_examples=300, deadline=None)
def test_rank7_is_the_best_five_card_subset(idx: list[int]) -> None:
    cards = [Card.from_index(i) for i in idx]
    assert rank7(cards) == max(rank5(five) for five in combinations(cards, 5))
    assert rank6(cards[:6]) == max(rank5(five) for five in combinations(cards[:6], 5))


@given(hands)
@settings(max_examples=200, deadline=None)
def test_best5_returns_five_of_the_cards_making_the_rank(idx: list[int]) -> None:
    cards = [Card.from_index(i) for i in idx]
    r, five = best5(cards)
    assert r == rank7(cards)
    assert len(five) == 5 and set(five) <= set(cards)
    assert rank5(five) == r


def test_best5_reads_a_wheel_from_the_five_down() -> None:
    r, five = best5(parse_cards("Ah 2d 3c 4s 5h Kd Kc"))
    assert [str(c) for c in five] == ["5h", "4s", "3c", "2d", "Ah"]
    assert rank5(five) == r


@pytest.mark.parametrize("row", [r for r in load_csv("comparisons.csv") if r[0] == "7"])
def test_famous_seven_card_comparisons(row: list[str]) -> None:
    _, a, b, expected = row
    ra, rb = rank7(parse_cards(a)), rank7(parse_cards(b))
    assert {">": ra > rb, "<": ra < rb, "=": ra == rb}[expected]


def test_wrong_sizes_refused() -> None:
    with pytest.raises(InvalidHand, match="needs 7 cards"):
        rank7(parse_cards("Ah Kh Qh Jh Th"))
    with pytest.raises(InvalidHand, match="needs 5 or 6 or 7 cards"):
        rank_best(parse_cards("Ah Kh Qh Jh"))


@pytest.mark.slow
def test_seven_card_category_counts_match_published() -> None:
    want = load_json("category_counts.json")["seven_card"]
    got = exhaustive_counts7()
    assert sum(got.values()) == want["total"]
    assert {c.name: n for c, n in got.items() if n} == want["counts"]


@pytest.mark.slow
def test_six_card_category_counts_match_published() -> None:
    want = load_json("category_counts.json")["six_card"]
    got = exhaustive_counts6()
    assert sum(got.values()) == want["total"]
    assert {c.name: n for c, n in got.items() if n} == want["counts"]
