"""The scripted player drives complete rounds when a card source feeds the engine."""

from __future__ import annotations

import numpy as np
import pytest

import games.baccarat as bac
from games.baccarat.engine import BaccaratRound
from games.catalog import family_of
from games.core.cards import Card
from games.core.records import BetSettled, DealCard, PlaceBet

VARIANTS = {v.id: v for v in bac.VARIANTS}


def run_round(game: BaccaratRound, seed: int) -> list[BetSettled]:
    rng = np.random.default_rng(seed)  # the test is the card source here
    order = rng.permutation(52 * game.rules.decks)
    cards = iter(Card.from_index(int(i) % 52) for i in order)
    settled: list[BetSettled] = []
    for _ in range(100):
        if game.is_over:
            return settled
        if game.needs() is not None:
            settled += [
                e for e in game.apply(DealCard(card=next(cards))) if isinstance(e, BetSettled)
            ]
            continue
        # every seat gets to bet before anyone deals
        actions = [a for seat in range(game.seats) if (a := bac.autoplay(game, seat)) is not None]
        assert actions, "autoplay stalled"
        bets = [a for a in actions if isinstance(a, PlaceBet)]
        game.apply(bets[0] if bets else actions[0])
    raise AssertionError("round did not finish")


def test_autoplay_bets_banker_minimum_and_deals() -> None:
    game = bac.new_game(VARIANTS["baccarat-pinnacle"])
    first = bac.autoplay(game, 0)
    assert first == PlaceBet(seat=0, bet="banker", amount=100)
    settled = run_round(game, 1)
    assert [(s.bet, s.stake) for s in settled] == [("banker", 100)]
    assert bac.autoplay(game, 0) is None


def test_autoplay_on_a_player_banked_table_over_several_hands() -> None:
    game = bac.new_game(VARIANTS["baccarat-california"], 3)
    banks = []
    for hand in range(6):
        settled = run_round(game, hand)
        banks.append(game.bank_seat)
        # the scripted banking seat declines the bank and bets; the house covers everything
        assert sorted((s.seat, s.bet) for s in settled) == [
            (0, "banker"),
            (1, "banker"),
            (2, "banker"),
        ]
        game = game.next_round()
    assert banks == [0, 0, 1, 1, 2, 2]


def test_one_scripted_seat_finishes_a_player_banked_round() -> None:
    """The runtime drives a single seat through a fresh table: seat 0 holds the bank."""
    game = bac.new_game(VARIANTS["baccarat-california"], 7)
    assert game.bank_seat == 0
    settled = []
    cards = iter(Card.from_index(i) for i in range(0, 52, 5))
    while not game.is_over:
        if game.needs() is not None:
            settled += [
                e for e in game.apply(DealCard(card=next(cards))) if isinstance(e, BetSettled)
            ]
        else:
            action = bac.autoplay(game, 0)
            assert action is not None
            game.apply(action)
    assert [(s.seat, s.bet) for s in settled] == [(0, "banker")]


def test_autoplay_leaves_a_posted_bank_alone() -> None:
    game = bac.new_game(VARIANTS["baccarat-california"], 2)
    game.apply(PlaceBet(seat=0, bet="bank", amount=10_000))
    assert bac.autoplay(game, 0) is None
    assert bac.autoplay(game, 1) == PlaceBet(seat=1, bet="banker", amount=100)


def test_autoplay_refuses_other_engines() -> None:
    war = family_of("war-standard")
    with pytest.raises(TypeError, match="baccarat round"):
        bac.autoplay(war.new_game(war.VARIANTS[0]), 0)
