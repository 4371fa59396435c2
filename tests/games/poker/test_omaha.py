"""The Omaha evaluator against the plain definition: the best of the 60 two-plus-three hands."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.core.cards import DECK, Card, parse_cards
from games.poker import InvalidHand
from games.poker.omaha import best_omaha, rank_omaha
from games.poker.rank5 import rank5


def brute(hole: tuple[Card, ...], board: tuple[Card, ...]) -> int:
    return max(
        rank5((*two, *three)) for two in combinations(hole, 2) for three in combinations(board, 3)
    )


def test_matches_the_definition_on_random_deals() -> None:
    rnd = random.Random(15)
    for _ in range(800):
        cards = rnd.sample(DECK, 9)
        hole, board = tuple(cards[:4]), tuple(cards[4:])
        assert rank_omaha(hole, board) == brute(hole, board)
        rank, five = best_omaha(hole, board)
        assert rank == rank5(five) and len(set(five) & set(hole)) == 2


@pytest.mark.parametrize(
    ("hole", "board", "worse_than"),
    [
        ("Ah 2c 3d 4s", "Kh Qh Jh Th 5c", "Ac Ad 2h 2s 3c"),  # one heart: no flush, a straight
        ("Ah Ac Ad As", "Kh Kc 2d 7s 9c", "Ah Ac Kh Kc 9c"),  # four aces hold only two
        ("2c 3c 4d 5d", "Ah Ad Ac As Kh", "Ah Ad Ac 5d 4d"),  # four aces on board: only three
    ],
)
def test_exactly_two_hole_cards_and_three_board_cards(
    hole: str, board: str, worse_than: str
) -> None:
    assert rank_omaha(parse_cards(hole), parse_cards(board)) <= rank5(parse_cards(worse_than))


def test_bad_hands_are_refused() -> None:
    with pytest.raises(InvalidHand):
        rank_omaha(parse_cards("Ah 2c 3d"), parse_cards("Kh Qh Jh Th 5c"))
    with pytest.raises(InvalidHand):
        rank_omaha(parse_cards("Ah 2c 3d Kh"), parse_cards("Kh Qh Jh Th 5c"))
