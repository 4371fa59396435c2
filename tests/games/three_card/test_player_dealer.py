"""The California Player/Dealer on Three Card Poker with the 6 Card Bonus (page 004).

The mechanism is :mod:`games.core.player_dealer` (the offer, the rotation, the
coverage and the bank's settlement); these tests hold it on the three-card table.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.three_card as tc
from games.core.cards import Card, parse_cards
from games.core.engine import GameContext
from games.core.errors import IllegalAction
from games.core.player_dealer import PlayerDealerCarry, Wager, cover
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
from games.three_card.engine import ThreeCardRound

VARIANT = next(v for v in tc.VARIANTS if v.id == "three-card-poker")


def _deal_out(game: ThreeCardRound, cards: list[Card]) -> list[Event]:
    events: list[Event] = []
    while game.needs() is not None:
        events += game.apply(DealCard(card=cards.pop(0)))
    return events


def test_wagers_the_bank_cannot_cover_are_returned_in_seat_order_from_its_left() -> None:
    """004_20f479e9f2752085.txt, 6 Card Bonus: "Once the player-dealer's wager has been
    exhausted, the wagers not covered by the player-dealer will be returned to the
    players." Seat 1 holds the position with $1,100; seat 2 (its left) is covered first:
    its ante ($10 with the $10 play) takes $20; its $10 Pair Plus (at the 200:1 mini
    royal, $2,000) does not fit and goes back; its $1 6 Card Bonus (1,000:1) takes $1,000;
    seat 0's ante takes $20 of the $60 left, and its $1 6 Card Bonus goes back."""
    game = tc.new_game(VARIANT, 3)
    game.apply(Decide(seat=0, decision="decline-bank"))
    game.apply(Decide(seat=1, decision="bank", arg="110000"))
    for seat, bet, amount in [
        (0, "ante", 1000),
        (0, "six-card-bonus", 100),
        (2, "ante", 1000),
        (2, "pair-plus", 1000),
        (2, "six-card-bonus", 100),
    ]:
        game.apply(PlaceBet(seat=seat, bet=bet, amount=amount))
    events = game.apply(Deal(seat=0))
    assert [e for e in events if isinstance(e, BetReturned)] == [
        BetReturned(seat=2, bet="pair-plus", amount=1000),
        BetReturned(seat=0, bet="six-card-bonus", amount=100),
    ]
    pd = game.view(None)["player_dealer"]
    assert pd is not None
    assert pd["seat"] == 1 and pd["bank"] == 110000
    assert pd["covered"] == [
        [2, "ante"],
        [2, "play"],
        [2, "six-card-bonus"],
        [0, "ante"],
        [0, "play"],
    ]
    assert pd["returned"] == [[2, "pair-plus"], [0, "six-card-bonus"]]
    assert 1 not in game.active()  # the player/dealer plays no hand


def test_the_player_dealer_pays_and_collects_the_covered_wagers() -> None:
    """004, 6 Card Bonus: "The player-dealer will pay all winning 6 Card Bonus wagers and
    will collect all losing 6 Card Bonus wagers": the bank settles for itself plus what
    the covered wagers lost, less what they won; the house neither pays nor takes."""
    game = tc.new_game(VARIANT, 2)
    game.apply(Decide(seat=0, decision="bank", arg="500000"))
    game.apply(PlaceBet(seat=1, bet="ante", amount=1000))
    game.apply(PlaceBet(seat=1, bet="six-card-bonus", amount=100))
    events = list(game.apply(Deal(seat=1)))
    # seat 1: Ah Kh Qh; dealer: Jh Th 2c -> seat 1's six cards hold a royal flush
    events += _deal_out(game, list(parse_cards("Ah Jh Kh Th Qh 2c")))
    events += game.apply(Decide(seat=1, decision="play"))
    assert game.is_over
    settled = {(s.seat, s.bet): s for s in events if isinstance(s, BetSettled)}
    players = sum(s.net for (seat, _), s in settled.items() if seat == 1)
    bank = settled[(0, "bank")]
    assert settled[(1, "six-card-bonus")].net == 100 * 1000
    assert bank.net == -players and bank.returned == 500000 - players


def test_the_position_rotates_every_two_hands_and_the_house_banks_when_nobody_takes_it() -> None:
    """004, 21st Century Blackjack: "Each player may act as the player/dealer for two
    hands per round"; shared/rules/README.md: "the position is offered to each seated
    player in turn for two hands ... When no player takes it, the house banks, as now.
    No player is ever required to bank." """
    holders: list[int | None] = []
    game = tc.new_game(VARIANT, 3)
    for hand in range(5):
        offered = game.offer.offered if game.offer else None
        if hand == 4:  # nobody takes it: the deal closes the offer
            pass
        elif offered is not None:
            game.apply(Decide(seat=offered, decision="bank", arg="100000"))
        player = next(s for s in range(3) if s != game.banker)
        game.apply(PlaceBet(seat=player, bet="ante", amount=100))
        game.apply(Deal(seat=player))
        _deal_out(game, [Card.from_index(i) for i in range(52)])
        if not game.is_over:
            game.apply(Decide(seat=player, decision="fold"))
        holders.append(game.banker)
        game = tc.new_game(VARIANT, 3, context=GameContext(previous=game))
    assert holders == [0, 0, 1, 1, None]
    assert game.offer is not None and game.offer.offered == 0  # the turn moved on from seat 2


def test_a_decline_passes_the_offer_and_nobody_is_required_to_bank() -> None:
    """README: "the position is offered to each seated player in turn"; "No player is
    ever required to bank": a decline passes it on, a deal with the offer open lapses
    it, and the house banks."""
    game = tc.new_game(
        VARIANT, 3, context=GameContext(carry={"player_dealer": {"turn": 2, "held": 0}})
    )
    assert game.awaiting() == {2} and game.default_action(2) == Decide(
        seat=2, decision="decline-bank"
    )
    game.apply(Decide(seat=2, decision="decline-bank"))
    assert game.awaiting() == {0}
    with pytest.raises(IllegalAction, match="offered to seat 0"):
        game.verify(Decide(seat=1, decision="bank", arg="1000"))
    game.apply(PlaceBet(seat=0, bet="ante", amount=100))
    with pytest.raises(IllegalAction, match="take your wagers down"):
        game.verify(Decide(seat=0, decision="bank", arg="1000"))
    game.apply(Deal(seat=0))
    assert game.banker is None and game.awaiting() == frozenset()


def test_the_rotation_is_plain_data() -> None:
    carry = PlayerDealerCarry(turn=1, held=1)
    assert PlayerDealerCarry.decode(carry.encode(), 3) == carry
    with pytest.raises(ValueError, match="turn must be a seat"):
        PlayerDealerCarry.decode({"player_dealer": {"turn": 5, "held": 0}}, 3)


def test_cover_is_pure_and_in_order() -> None:
    """A wager that does not fit is returned, the next ones are still tried; a bet that
    needs an uncovered one goes with it."""
    got = cover(100, [Wager("a", 60), Wager("b", 50), Wager("c", 40), Wager("d", 0, "b")])
    assert got.covered == ("a", "c") and got.uncovered == ("b", "d") and got.left == 0


@given(st.integers(2, 4), st.integers(0, 3), st.integers(1, 400_000), st.integers(0, 2**32 - 1))
@settings(max_examples=80, deadline=None)
def test_chips_conserved_bets_settled_once_and_views_never_leak(
    seats: int, dealer: int, bank: int, seed: int
) -> None:
    """With a player/dealer: every wager is settled once or returned once, never both;
    money in = money settled + money returned; the house neither pays nor takes on a
    covered wager (the bank's net is the covered wagers' net, negated); the bank never
    goes below zero; no view shows another seat's cards or the dealer's hidden ones."""
    dealer %= seats
    game = tc.new_game(
        VARIANT, seats, context=GameContext(carry={"player_dealer": {"turn": dealer, "held": 0}})
    )
    rng = np.random.default_rng(seed)
    deck = [Card.from_index(int(i)) for i in rng.permutation(52)]
    events: list[Event] = list(game.apply(Decide(seat=dealer, decision="bank", arg=str(bank))))
    for seat in range(seats):
        if seat == dealer:
            continue
        events += game.apply(PlaceBet(seat=seat, bet="ante", amount=100 * int(rng.integers(1, 50))))
        for bet in ("pair-plus", "six-card-bonus", "progressive"):
            if rng.integers(2):
                amount = 100 if bet == "progressive" else 100 * int(rng.integers(1, 20))
                events += game.apply(PlaceBet(seat=seat, bet=bet, amount=amount))
    events += game.apply(Deal(seat=(dealer + 1) % seats))
    while not game.is_over:
        if game.needs() is not None:
            events += game.apply(DealCard(card=deck.pop()))
        for seat in range(seats):
            view = game.view(seat)
            for other in range(seats):
                if other != seat:
                    assert not set(map(str, game.hand(other))) & set(view["hand"])
            hidden = {str(c) for c in game._dealer} - set(view["dealer"])
            assert not any(card in str(view) or card in str(game.view(None)) for card in hidden)
            if game.needs() is None and not game.is_over:
                action = tc.autoplay(game, seat)
                if action is not None:
                    events += game.apply(action)
    placed: dict[tuple[int, str], int] = {}
    for e in events:
        if isinstance(e, BetPlaced):
            placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    returned = [e for e in events if isinstance(e, BetReturned)]
    keys = sorted((s.seat, s.bet) for s in settled) + sorted((r.seat, r.bet) for r in returned)
    assert sorted(keys) == sorted(placed)  # each exactly once, settled or returned
    assert sum(s.stake for s in settled) + sum(r.amount for r in returned) == sum(placed.values())
    pd = game.view(None)["player_dealer"]
    assert pd is not None
    covered = {(s, b) for s, b in pd["covered"]}
    bank_s = next(s for s in settled if s.bet == "bank")
    assert bank_s.returned >= 0
    assert bank_s.net == -sum(s.net for s in settled if (s.seat, s.bet) in covered)
    # every wager but the meter's progressive is the bank's or returned: the house nets 0
    assert sum(s.net for s in settled if s.bet != "progressive") == 0
