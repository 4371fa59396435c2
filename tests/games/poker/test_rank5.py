"""Five-card evaluator: exhaustive counts, the ordering digest, famous comparisons."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from games.core.cards import JOKER, Card, parse_cards
from games.poker.batch import combinations_array, exhaustive_counts5, rank_batch
from games.poker.category import Category
from games.poker.errors import InvalidHand
from games.poker.rank5 import DISTINCT_HANDS, category, describe, fields, rank5
from games.poker.rank7 import rank_best
from tests.games.poker.data import load_csv, load_json


def test_five_card_category_counts_match_published() -> None:
    want = load_json("category_counts.json")["five_card"]
    got = exhaustive_counts5()
    assert sum(got.values()) == want["total"]
    assert {c.name: n for c, n in got.items() if n} == want["counts"]


def test_ordering_digest_and_distinct_values() -> None:
    want = load_json("digest5.json")
    ranks = rank_batch(combinations_array(52, 5), validate=False)
    assert len(ranks) == want["hands"]
    assert len(np.unique(ranks)) == want["distinct_values"] == DISTINCT_HANDS
    digest = hashlib.sha256(ranks.astype(">u2").tobytes()).hexdigest()
    assert digest == want["sha256"]


def test_scalar_agrees_with_batch_on_a_slice_of_all_hands() -> None:
    hands = combinations_array(52, 5)[::997]
    want = rank_batch(hands).tolist()
    assert [rank_best([Card.from_index(i) for i in row]) for row in hands.tolist()] == want


@pytest.mark.parametrize("row", [r for r in load_csv("comparisons.csv") if r[0] == "5"])
def test_famous_comparisons(row: list[str]) -> None:
    _, a, b, expected = row
    ra, rb = rank5(parse_cards(a)), rank5(parse_cards(b))
    assert {">": ra > rb, "<": ra < rb, "=": ra == rb}[expected]


def test_extremes_and_categories() -> None:
    assert rank5(parse_cards("7c 5d 4h 3s 2c")) == 1
    assert rank5(parse_cards("Ah Kh Qh Jh Th")) == DISTINCT_HANDS
    assert category(1) is Category.HIGH_CARD
    assert category(DISTINCT_HANDS) is Category.ROYAL_FLUSH
    assert category(rank5(parse_cards("5s 4s 3s 2s As"))) is Category.STRAIGHT_FLUSH
    assert fields(rank5(parse_cards("5s 4d 3s 2s As"))) == (5,)
    assert fields(rank5(parse_cards("8s 8d 3s 3c Ks"))) == (8, 3, 13)


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("Ah Ad 8c 8s 2d", "two pair, aces and eights"),
        ("9h 9d 9c 9s 2d", "four of a kind, nines"),
        ("5d 4c 3h 2s Ad", "straight, five high"),
        ("Qh 9h 7h 4h 2h", "flush, queen high"),
        ("Ts Jh Qd Kc Ac", "straight, ace high"),
    ],
)
def test_describe(hand: str, text: str) -> None:
    assert describe(rank5(parse_cards(hand))) == text


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("Ah Kd", "needs 5 cards"),
        ("Ah Ah Kd Qc Jc", "duplicate card"),
    ],
)
def test_bad_hands_are_refused(cards: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        rank5(parse_cards(cards))


def test_joker_and_bad_rank_refused() -> None:
    with pytest.raises(InvalidHand, match="joker"):
        rank5((*parse_cards("Ah Kd Qc Jc"), JOKER))
    with pytest.raises(InvalidHand, match="not a card: 'As'"):
        rank5([*parse_cards("Ah Kd Qc Jc"), "As"])  # type: ignore[list-item]
    with pytest.raises(InvalidHand, match="not a hand rank"):
        category(7463)
