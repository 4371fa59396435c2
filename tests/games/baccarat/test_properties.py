"""Property tests over random shoes and random bets (hypothesis).

For every settled round: every bet placed is settled exactly once; the chips put
on the table (BetPlaced - BetReturned) equal the stakes settled; each settlement's
net is ``returned - commission - stake``; nothing is paid below zero; and no view
ever shows a card before it is dealt.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.baccarat as bac
from games.baccarat.engine import BaccaratRound
from games.baccarat.rules import BANK_BET
from games.core.cards import Card
from games.core.engine import GameContext, Variant
from games.core.errors import IllegalAction
from games.core.records import BetPlaced, BetReturned, BetSettled, Deal, DealCard, PlaceBet

VARIANTS = {v.id: v for v in bac.VARIANTS}


def shoe_cards(decks: int) -> st.SearchStrategy[list[Card]]:
    """Six distinct physical cards of a ``decks``-deck shoe, in dealing order."""
    return st.lists(st.integers(0, 52 * decks - 1), min_size=6, max_size=6, unique=True).map(
        lambda idx: [Card.from_index(i % 52) for i in idx]
    )


def bets_for(variant: Variant, seats: int) -> st.SearchStrategy[list[tuple[int, str, int]]]:
    names = [b for b in variant.rules.bets if b != BANK_BET]
    return st.lists(
        st.tuples(st.integers(0, seats - 1), st.sampled_from(names), st.integers(1, 600)),
        min_size=1,
        max_size=12,
    )


def play(
    game: BaccaratRound, bets: list[tuple[int, str, int]], cards: list[Card], bank: int
) -> list[Any]:
    events: list[Any] = []
    if game.bank_seat is not None and bank:
        events += game.apply(PlaceBet(seat=game.bank_seat, bet=BANK_BET, amount=bank * 100))
    for seat, bet, amount in bets:
        action = PlaceBet(seat=seat, bet=bet, amount=amount * 100)
        if game.can(action):
            events += game.apply(action)
        else:
            before = game.bets
            with pytest.raises(IllegalAction) as info:
                game.apply(action)
            assert str(info.value) and "\n" not in str(info.value)
            assert game.bets == before
    if not game.can(Deal(seat=0)):
        return events
    events += game.apply(Deal(seat=0))
    dealt: list[str] = []
    for card in cards:
        if game.needs() is None:
            break
        view = repr(game.view(None))
        for later in cards[len(dealt) :]:
            if later not in cards[: len(dealt)]:
                assert f"'{later}'" not in view
        events += game.apply(DealCard(card=card))
        dealt.append(str(card))
    assert game.is_over
    return events


def check_conservation(events: list[Any]) -> None:
    placed: Counter[tuple[int, str]] = Counter()
    for e in events:
        if isinstance(e, BetPlaced):
            placed[e.seat, e.bet] += e.amount
        elif isinstance(e, BetReturned):
            placed[e.seat, e.bet] -= e.amount
    placed = +placed
    settled = [e for e in events if isinstance(e, BetSettled)]
    keys = [(s.seat, s.bet) for s in settled]
    assert len(keys) == len(set(keys)), "a bet settled twice"
    assert {k: s.stake for k, s in zip(keys, settled, strict=True)} == dict(placed)
    assert sum(placed.values()) == sum(s.stake for s in settled)
    for s in settled:
        assert s.returned >= 0 and 0 <= s.commission <= s.returned
        assert s.net == s.returned - s.commission - s.stake
        assert s.result in ("win", "lose", "push")
        assert (s.result == "win") == (s.net > 0) or s.bet == BANK_BET
        assert s.result != "push" or s.net == 0


@settings(max_examples=150, deadline=None)
@given(cards=shoe_cards(6), bets=bets_for(VARIANTS["baccarat-pinnacle"], 1))
def test_pinnacle_chips_are_conserved(cards: list[Card], bets: list[tuple[int, str, int]]) -> None:
    game = bac.new_game(VARIANTS["baccarat-pinnacle"])
    events = play(game, bets, cards, 0)
    if game.is_over:
        check_conservation(events)


@settings(max_examples=150, deadline=None)
@given(cards=shoe_cards(8), bets=bets_for(VARIANTS["baccarat-ez"], 3))
def test_ez_chips_are_conserved(cards: list[Card], bets: list[tuple[int, str, int]]) -> None:
    game = bac.new_game(VARIANTS["baccarat-ez"], 3)
    events = play(game, bets, cards, 0)
    if game.is_over:
        check_conservation(events)


@settings(max_examples=150, deadline=None)
@given(
    cards=shoe_cards(8),
    bets=bets_for(VARIANTS["baccarat-california"], 4),
    bank=st.integers(0, 3000),
    hand=st.integers(0, 20),
)
def test_player_banked_table_balances_bank_and_house(
    cards: list[Card], bets: list[tuple[int, str, int]], bank: int, hand: int
) -> None:
    game = bac.new_game(VARIANTS["baccarat-california"], 4, context=GameContext(hand=hand))
    events = play(game, bets, cards, bank)
    if not game.is_over:
        return
    check_conservation(events)
    settled = [e for e in events if isinstance(e, BetSettled)]
    bank_settle = [s for s in settled if s.bet == BANK_BET]
    wagers = [s for s in settled if s.bet != BANK_BET]
    if bank_settle:
        assert all(s.seat != game.bank_seat for s in wagers)
    # The page: no player covers all the wagers unless able; we cover whole wagers from the
    # bank's left while their greatest win fits in what is left, and the house covers the rest.
    rules = game.rules
    left = bank_settle[0].stake if bank_settle else 0
    expected_bank = 0
    seats = game.seats
    assert game.bank_seat == (hand // 2) % seats
    for offset in range(1, seats):
        seat = (game.bank_seat + offset) % seats
        for s in sorted(
            (w for w in wagers if w.seat == seat), key=lambda w: list(game.bets[seat]).index(w.bet)
        ):
            ratio = rules.pays[s.bet]
            exposure = s.stake * ratio.num // ratio.den
            if exposure <= left:
                left -= exposure
                expected_bank -= s.net
    if bank_settle:
        b = bank_settle[0]
        assert b.net == expected_bank
        assert b.returned >= 0 and -b.net <= b.stake
    else:
        assert expected_bank == 0
