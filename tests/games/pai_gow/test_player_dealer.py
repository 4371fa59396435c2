"""The California Player/Dealer on Fortune Pai Gow (page 004): games.core.player_dealer
through games/pai_gow/player_dealer.py."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import games.pai_gow as pg
from games.core.engine import GameContext
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Deal,
    Decide,
    Event,
    PlaceBet,
)
from tests.games.pai_gow.dealing import DECK, next_action

VARIANT = next(v for v in pg.VARIANTS if v.id == "pai-gow-fortune")


def _carry(turn: int) -> GameContext:
    return GameContext(carry={"player_dealer": {"turn": turn, "held": 0}})


def test_player_hands_are_compared_with_the_player_dealers_and_uncovered_wagers_go_back() -> None:
    """004_20f479e9f2752085.txt, Fortune Pai Gow: "All Player hands will be compared with
    the Player/Dealer hand"; 6 Card Bonus: "Once the player-dealer's wager has been
    exhausted, the wagers not covered by the player-dealer will be returned to the
    players" (README: read for every California table). Seat 0 banks $60: seat 1's $50
    main bet fits, seat 2's does not and goes back."""
    game = pg.new_game(VARIANT, 3, context=_carry(0))
    assert game.awaiting() == {0}
    game.apply(Decide(seat=0, decision="bank", arg="6000"))
    game.apply(PlaceBet(seat=1, bet="main", amount=5000))
    game.apply(PlaceBet(seat=2, bet="main", amount=5000))
    assert game.legal_actions(0) == {"deal"}  # it bets nothing and its bank stays up
    events = game.apply(Deal(seat=1))
    assert [e for e in events if isinstance(e, BetReturned)] == [
        BetReturned(seat=2, bet="main", amount=5000)
    ]
    view = game.view(None)
    assert view["player_dealer"]["covered"] == [[1, "main"]]
    assert view["dealt_in"] == [1]  # the player/dealer plays the dealer's hand, no seat


@given(st.integers(2, 4), st.integers(0, 3), st.integers(1, 20_000_000), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_chips_conserved_bets_settled_once_and_the_house_nets_nothing(
    seats: int, dealer: int, bank: int, seed: int
) -> None:
    """Each wager settled or returned once; money in = settled + returned; the bank never
    goes below 0; every wager is the bank's or returned, so the house nets nothing."""
    dealer %= seats
    rng = random.Random(seed)
    game = pg.new_game(VARIANT, seats, context=_carry(dealer))
    events: list[Event] = list(game.apply(Decide(seat=dealer, decision="bank", arg=str(bank))))
    for seat in range(seats):
        if seat != dealer:
            events += game.apply(PlaceBet(seat=seat, bet="main", amount=100 * rng.randint(5, 50)))
            if rng.random() < 0.7:
                events += game.apply(
                    PlaceBet(seat=seat, bet="fortune", amount=100 * rng.randint(1, 10))
                )
    events += game.apply(Deal(seat=(dealer + 1) % seats))
    deck = iter(rng.sample(DECK, len(DECK)))
    for _ in range(200):
        if game.is_over:
            break
        if game.needs() is not None:
            events += game.apply(next_action(game, deck))
            continue
        acted = [a for s in range(seats) if (a := pg.autoplay(game, s)) is not None]
        events += game.apply(acted[0])
    assert game.is_over
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
