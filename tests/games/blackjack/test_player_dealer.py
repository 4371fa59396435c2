"""The California Player/Dealer on 21st Century Blackjack (page 004).

The offer, rotation, coverage and bank settlement are :mod:`games.core.player_dealer`'s
(the same as Three Card Poker's and UTH's); games/blackjack/player_dealer.py gives each
wager's greatest possible loss to the bank.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import games.blackjack as bj
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

VARIANT = next(v for v in bj.VARIANTS if v.id == "blackjack-21st-century")


def _carry(turn: int, held: int = 0) -> GameContext:
    return GameContext(carry={"player_dealer": {"turn": turn, "held": held}})


def test_each_player_may_be_the_player_dealer_for_two_hands() -> None:
    """004_20f479e9f2752085.txt, 21st Century Blackjack, Game Rules 6: "Each player may act
    as the player/dealer for two hands per round." Seat 1 banks twice, then the offer
    goes to seat 2 (its left)."""
    game = bj.new_game(VARIANT, 3, context=_carry(1))
    assert game.awaiting() == {1}
    game.apply(Decide(seat=1, decision="bank", arg="100000"))
    assert "place-bet" not in game.legal_actions(1)
    assert game.offer is not None
    game.offer.lapse()
    assert game.offer.next_carry().encode() == {"player_dealer": {"turn": 1, "held": 1}}
    second = bj.new_game(VARIANT, 3, context=_carry(1, 1))
    second.apply(Decide(seat=1, decision="bank", arg="100000"))
    assert second.offer is not None
    assert second.offer.next_carry().encode() == {"player_dealer": {"turn": 2, "held": 0}}


def test_uncovered_wagers_are_returned_from_the_dealers_left() -> None:
    """README "More readings": "wagers are covered in seat order starting at the
    player/dealer's left until the bank is exhausted, and the rest are returned". Seat 0
    banks $100: seat 1's $5 bet (split to the table's most hands, each doubled, plus
    insurance) fits, seat 2's $100 bet does not and goes back."""
    game = bj.new_game(VARIANT, 3, context=_carry(0))
    game.apply(Decide(seat=0, decision="bank", arg="10000"))
    game.apply(PlaceBet(seat=1, bet="main", amount=500))
    game.apply(PlaceBet(seat=2, bet="main", amount=10000))
    events = game.apply(Deal(seat=1))
    assert [e for e in events if isinstance(e, BetReturned)] == [
        BetReturned(seat=2, bet="main", amount=10000)
    ]
    view = game.view(None)
    assert view["player_dealer"]["covered"] == [[1, "main"]]
    assert [s["bets"]["main"] for s in view["seats"]] == [0, 500, 0]


@given(st.integers(2, 4), st.integers(0, 3), st.integers(1, 500_000), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_chips_conserved_bets_settled_once_and_the_house_nets_nothing(
    seats: int, dealer: int, bank: int, seed: int
) -> None:
    """With a player/dealer: each wager settled or returned once; money in = settled +
    returned; the bank never goes below 0; the house nets nothing (every wager is the
    bank's or returned); the hole card stays out of every view until it is shown."""
    dealer %= seats
    game = bj.new_game(VARIANT, seats, context=_carry(dealer))
    rng = np.random.default_rng(seed)
    shoe = [Card.from_index(int(i) % 52) for i in rng.permutation(52 * 6)]
    events: list[Event] = list(game.apply(Decide(seat=dealer, decision="bank", arg=str(bank))))
    for seat in range(seats):
        if seat != dealer:
            events += game.apply(
                PlaceBet(seat=seat, bet="main", amount=100 * int(rng.integers(1, 30)))
            )
            if rng.integers(2):
                events += game.apply(PlaceBet(seat=seat, bet="buster", amount=100))
    events += game.apply(Deal(seat=(dealer + 1) % seats))
    for _ in range(400):
        if game.is_over:
            break
        need = game.needs()
        if need is not None:
            card = shoe.pop()
            events += game.apply(DealCard(card=card))
            continue
        for seat in range(seats):
            action = bj.autoplay(game, seat)
            if action is not None:
                events += game.apply(action)
                break
    assert game.is_over
    placed: dict[tuple[int, str], int] = {}
    for e in events:
        if isinstance(e, BetPlaced):
            placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    returned = [e for e in events if isinstance(e, BetReturned)]
    assert sum(s.stake for s in settled) + sum(r.amount for r in returned) == sum(placed.values())
    assert len({(s.seat, s.bet) for s in settled}) == len(settled)
    assert next(s for s in settled if s.bet == "bank").returned >= 0
    assert sum(s.net for s in settled) == 0
