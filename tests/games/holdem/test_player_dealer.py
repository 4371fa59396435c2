"""The California Player/Dealer on Ultimate Texas Hold'em (page 004).

The mechanism is :mod:`games.core.player_dealer` wired by
:class:`games.core.player_dealer_table.PlayerDealerTable` (the same as Three Card Poker's).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import games.holdem as he
from games.core.cards import Card
from games.core.engine import GameContext
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    PlaceBet,
)

VARIANT = next(v for v in he.VARIANTS if v.id == "ultimate-texas-holdem")


def _carry(turn: int) -> GameContext:
    return GameContext(carry={"player_dealer": {"turn": turn, "held": 0}})


def test_the_player_dealer_gets_the_dealer_hand_and_covers_from_its_left() -> None:
    """004_20f479e9f2752085.txt, Ultimate Texas Hold'em rule 5: "the players will receive
    their two hole cards and the player/dealer will receive their two hole cards last";
    the README reading: "wagers are covered in seat order starting at the player/dealer's
    left until the bank is exhausted, and the rest are returned". Seat 2 banks $3,000;
    seat 0 (its left) is covered first: its $5 ante with a 4x play and its $5 blind at
    500:1 take $2,525, its $1 trips at 50:1 $50; seat 1's $1 ante with its blind ($505)
    does not fit in the $425 left, so its ante and blind go back."""
    game = he.new_game(VARIANT, 3, context=_carry(2))
    game.apply(Decide(seat=2, decision="bank", arg="300000"))
    for seat, amount in ((0, 500), (1, 100)):
        game.apply(PlaceBet(seat=seat, bet="ante", amount=amount))
        game.apply(PlaceBet(seat=seat, bet="blind", amount=amount))
    game.apply(PlaceBet(seat=0, bet="trips", amount=100))
    events = game.apply(Deal(seat=0))
    assert [e for e in events if isinstance(e, BetReturned)] == [
        BetReturned(seat=1, bet="ante", amount=100),
        BetReturned(seat=1, bet="blind", amount=100),
    ]
    pd = game.view(None)["player_dealer"]
    assert pd is not None and pd["seat"] == 2
    assert pd["covered"] == [[0, "ante"], [0, "play"], [0, "blind"], [0, "trips"]]
    assert game.active() == [0]  # the player/dealer plays no seat of its own


@given(st.integers(2, 4), st.integers(0, 3), st.integers(1, 2_000_000), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_chips_conserved_bets_settled_once_and_views_never_leak(
    seats: int, dealer: int, bank: int, seed: int
) -> None:
    """With a player/dealer: every wager settled or returned exactly once; money in = money
    settled + returned; the house nets nothing (every wager is the bank's or returned);
    the bank never goes below zero; no seat's view shows another seat's hole cards."""
    dealer %= seats
    game = he.new_game(VARIANT, seats, context=_carry(dealer))
    rng = np.random.default_rng(seed)
    deck = [Card.from_index(int(i)) for i in rng.permutation(52)]
    events: list[Event] = list(game.apply(Decide(seat=dealer, decision="bank", arg=str(bank))))
    for seat in range(seats):
        if seat == dealer:
            continue
        ante = 100 * int(rng.integers(1, 20))
        events += game.apply(PlaceBet(seat=seat, bet="ante", amount=ante))
        events += game.apply(PlaceBet(seat=seat, bet="blind", amount=ante))
        if rng.integers(2):
            events += game.apply(PlaceBet(seat=seat, bet="trips", amount=100))
    events += game.apply(Deal(seat=(dealer + 1) % seats))
    while not game.is_over:
        if game.needs() is not None:
            events += game.apply(DealCard(card=deck.pop()))
            continue
        for seat in range(seats):
            view = game.view(seat)
            for other in range(seats):
                if other != seat:
                    assert not {str(c) for c in game.hand(other)} & set(view["hand"])
            action = he.autoplay(game, seat)
            if action is not None and game.needs() is None and not game.is_over:
                events += game.apply(action)
    placed: dict[tuple[int, str], int] = {}
    for e in events:
        if isinstance(e, BetPlaced):
            placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    returned = [e for e in events if isinstance(e, BetReturned)]
    keys = [(s.seat, s.bet) for s in settled] + [(r.seat, r.bet) for r in returned]
    assert sorted(keys) == sorted(placed)
    assert sum(s.stake for s in settled) + sum(r.amount for r in returned) == sum(placed.values())
    assert next(s for s in settled if s.bet == "bank").returned >= 0
    assert sum(s.net for s in settled) == 0
