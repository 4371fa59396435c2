"""The three-card round: worked rounds, chips conserved, hidden cards, refusals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.three_card as tc
from games.core.cards import Card, parse_cards
from games.core.errors import BetRefused, IllegalAction
from games.core.records import (
    BetPlaced,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    PlaceBet,
    RemoveBet,
)
from games.core.round import Phase
from games.three_card.engine import ThreeCardRound
from tests.games.three_card.data import load

VARIANTS = {v.id: v for v in tc.VARIANTS}


def _round(variant: str, bets: dict[str, int], seat: int = 0, seats: int = 1) -> ThreeCardRound:
    game = tc.new_game(VARIANTS[variant], seats)
    order = ["ante", "pair-plus", "six-card-bonus"]
    for bet in sorted(bets, key=order.index):
        game.apply(PlaceBet(seat=seat, bet=bet, amount=bets[bet]))
    game.apply(Deal(seat=seat))
    return game


@pytest.mark.parametrize("case", load("rounds.json")["rounds"], ids=lambda c: c["name"][:40])
def test_worked_rounds(case: dict[str, Any]) -> None:
    game = _round(case["variant"], case["bets"])
    for card in parse_cards(case["deal"]):
        game.apply(DealCard(card=card))
    if case["decision"]:
        assert game.phase is Phase.DECIDING
        game.apply(Decide(seat=0, decision=case["decision"]))
    assert game.is_over
    got = {s.bet: s.returned for s in game.settlements}
    assert got == case["returned"]


def test_dealer_cards_stay_hidden_until_the_reveal() -> None:
    game = _round("three-card-poker", {"ante": 1000}, seats=2)
    deal = parse_cards("Ah Kd Ad 7c 9s As")
    for card in deal:
        game.apply(DealCard(card=card))
    view = game.view(0)
    assert view["hand"] == ["Ah", "Ad", "9s"]
    assert view["dealer"] == ["Kd"]  # the exposed card only
    assert game.view(1)["hand"] == []  # another seat sees nothing of seat 0
    assert "7c" not in str(game.view(None)) and "As" not in str(game.view(None))
    game.apply(Decide(seat=0, decision="fold"))
    assert game.view(None)["dealer"] == ["Kd", "7c", "As"]


def test_tri_card_shows_no_dealer_card() -> None:
    game = _round("tri-card-poker", {"ante": 1000})
    for card in parse_cards("2c Ah 9c Kd Jc 3s"):
        game.apply(DealCard(card=card))
    assert game.view(0)["dealer"] == []
    assert game.shown_dealer_card is None


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        (PlaceBet(seat=0, bet="pair-plus", amount=500), BetRefused, "place an ante before"),
        (PlaceBet(seat=0, bet="ante", amount=50), BetRefused, "minimum bet"),
        (PlaceBet(seat=0, bet="ante", amount=60000), BetRefused, "maximum bet"),
        (PlaceBet(seat=0, bet="play", amount=500), BetRefused, "no 'play' bet to place"),
        (PlaceBet(seat=3, bet="ante", amount=500), IllegalAction, "no seat 3"),
        (Deal(seat=0), IllegalAction, "place a bet before dealing"),
        (Decide(seat=0, decision="play"), IllegalAction, "no decision to make"),
        (DealCard(card=Card.parse("Ah")), IllegalAction, "no card is wanted"),
    ],
)
def test_illegal_actions_refused_and_nothing_changes(
    action: Any, error: type[Exception], message: str
) -> None:
    game = tc.new_game(VARIANTS["three-card-poker"], 1)
    before = game.view(0)
    with pytest.raises(error, match=message):
        game.apply(action)
    assert game.view(0) == before
    assert not game.can(action)


def test_refusals_during_the_round() -> None:
    game = _round("three-card-poker", {"ante": 1000, "pair-plus": 500})
    with pytest.raises(IllegalAction, match="not allowed now"):
        game.apply(PlaceBet(seat=0, bet="ante", amount=100))
    game.apply(DealCard(card=Card.parse("Ah")))
    with pytest.raises(IllegalAction, match="already dealt"):
        game.apply(DealCard(card=Card.parse("Ah")))
    with pytest.raises(IllegalAction, match="no joker"):
        game.apply(DealCard(card=Card.parse("X")))
    with pytest.raises(IllegalAction, match="from the card source"):
        game.apply(DealCard(seat=0, card=Card.parse("Kh")))


def test_ante_cannot_leave_its_riders_behind() -> None:
    game = tc.new_game(VARIANTS["three-card-poker"], 1)
    game.apply(PlaceBet(seat=0, bet="ante", amount=1000))
    game.apply(PlaceBet(seat=0, bet="six-card-bonus", amount=500))
    with pytest.raises(BetRefused, match="remove the six-card-bonus bet before the ante"):
        game.apply(RemoveBet(seat=0, bet="ante"))
    game.apply(RemoveBet(seat=0, bet="six-card-bonus"))
    game.apply(RemoveBet(seat=0, bet="ante"))
    assert game.bets[0] == {}


@given(
    st.sampled_from(sorted(VARIANTS)),
    st.integers(1, 3),
    st.integers(0, 2**32 - 1),
)
@settings(max_examples=60, deadline=None)
def test_chips_conserved_and_every_bet_settled_once(variant: str, seats: int, seed: int) -> None:
    """Autoplay every seat (plus side bets); money in = money settled; hidden cards stay hidden."""
    seats = min(seats, VARIANTS[variant].seats)
    game = tc.new_game(VARIANTS[variant], seats)
    deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
    events: list[Event] = []
    for seat in range(seats):
        events += game.apply(PlaceBet(seat=seat, bet="ante", amount=500))
        events += game.apply(PlaceBet(seat=seat, bet="pair-plus", amount=100 * (seat + 1)))
        if "six-card-bonus" in game.rules.bets:
            events += game.apply(PlaceBet(seat=seat, bet="six-card-bonus", amount=200))
        if "progressive" in game.rules.bets and (seed >> seat) & 1:
            events += game.apply(PlaceBet(seat=seat, bet="progressive", amount=100))
    events += game.apply(Deal(seat=0))
    while not game.is_over:
        need = game.needs()
        if need is not None:
            card = deck.pop()
            events += game.apply(DealCard(card=card))
            if need.hidden and need.target == "dealer":
                assert str(card) not in str(game.view(None)["dealer"])
            continue
        for seat in range(seats):
            action = tc.autoplay(game, seat)
            if action is not None:
                events += game.apply(action)
    placed: dict[tuple[int, str], int] = {}
    for e in events:
        if isinstance(e, BetPlaced):
            placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    assert sorted((s.seat, s.bet) for s in settled) == sorted(placed)  # each exactly once
    assert all(s.stake == placed[(s.seat, s.bet)] for s in settled)
    assert all(s.returned >= 0 and s.commission == 0 for s in settled)
    assert sum(s.stake for s in settled) == sum(placed.values())
