"""Caribbean Stud's jackpot chip queue (page 001): up to ten $1 chips, one taken each round.

Source: shared/rules/001_4697bf24ec253ef9.txt, "Caribbean Stud Poker": "To queue chips,
click on the coin slit several times. Each click stores one $1 chip. Every time you start a
new game round, one $1 chip is taken from the queue for the progressive jackpot side bet.
You can queue up to ten chips."
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.caribbean_stud as cs
from games import catalog
from games.caribbean_stud.engine import StudRound
from games.core.cards import Card
from games.core.engine import GameContext
from games.core.errors import IllegalAction
from games.core.records import (
    BetPlaced,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    JackpotContribution,
    PlaceBet,
)

VARIANTS = {v.id: v for v in cs.VARIANTS}
STUD = VARIANTS["caribbean-stud"]


def chip(seat: int = 0) -> Decide:
    return Decide(seat=seat, decision="jackpot-chip")


def clear(seat: int = 0) -> Decide:
    return Decide(seat=seat, decision="clear-jackpot-chips")


def play_out(game: StudRound, seed: int = 0) -> list[Event]:
    """Deal a shuffled deck (by ``seed``) and fold every seat."""
    deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
    events: list[Event] = []
    while game.needs() is not None:
        events += game.apply(DealCard(card=deck.pop()))
    for seat in range(game.seats):
        if "fold" in game.legal_actions(seat):
            events += game.apply(Decide(seat=seat, decision="fold"))
    assert game.is_over
    return events


def ante_and_deal(game: StudRound, seats: list[int]) -> list[Event]:
    events: list[Event] = []
    for seat in seats:
        events += game.apply(PlaceBet(seat=seat, bet="ante", amount=500))
    return events + list(game.apply(Deal(seat=seats[0])))


def jackpot_bets(events: list[Event]) -> list[int]:
    return [e.seat for e in events if isinstance(e, BetPlaced) and e.bet == "jackpot"]


def test_page_001_one_chip_is_taken_from_the_queue_each_round_until_it_is_empty() -> None:
    """001_4697bf24ec253ef9.txt: "Each click stores one $1 chip. Every time you start a new
    game round, one $1 chip is taken from the queue for the progressive jackpot side bet.\""""
    game = cs.new_game(STUD, 1)
    for _ in range(3):
        game.apply(chip())
    assert game.view(0)["jackpot_queue"] == {"0": 3}
    taken = []
    for n in range(4):
        events = ante_and_deal(game, [0]) + play_out(game, n)
        taken.append(jackpot_bets(events))
        if n < 3:  # the chip is the round's $1 jackpot bet: settled on the deal, fed the meter
            assert [e.amount for e in events if isinstance(e, JackpotContribution)] == [75]
        game = catalog.new_game(STUD, 1, previous=game)
    assert taken == [[0], [0], [0], []]
    assert game.view(0)["jackpot_queue"] == {}


def test_page_001_you_can_queue_up_to_ten_chips() -> None:
    """001_4697bf24ec253ef9.txt: "You can queue up to ten chips.\""""
    game = cs.new_game(STUD, 2)
    for _ in range(10):
        game.apply(chip())
    assert "jackpot-chip" not in game.legal_actions(0) and "jackpot-chip" in game.legal_actions(1)
    with pytest.raises(IllegalAction, match="up to 10 chips: it is full"):
        game.apply(chip())
    ante_and_deal(game, [0])
    play_out(game)
    game = catalog.new_game(STUD, 2, previous=game)
    assert game.view(None)["jackpot_queue"] == {"0": 9}
    game.apply(chip())  # one taken: room for one more
    assert "jackpot-chip" not in game.legal_actions(0)


def test_queued_chips_are_taken_back_while_bets_are_open_and_cost_nothing_until_taken() -> None:
    game = cs.new_game(STUD, 1)
    events = list(game.apply(chip())) + list(game.apply(chip()))
    assert not any(isinstance(e, BetPlaced) for e in events)  # no money moves on a click
    assert "clear-jackpot-chips" in game.legal_actions(0)
    game.apply(clear())
    assert game.view(0)["jackpot_queue"] == {}
    assert "clear-jackpot-chips" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="no jackpot chips queued"):
        game.apply(clear())
    game.apply(chip())
    ante_and_deal(game, [0])
    for action, reason in ((chip(), "while bets are open"), (clear(), "while bets are open")):
        with pytest.raises(IllegalAction, match=reason):
            game.apply(action)


def test_a_round_without_an_ante_or_with_its_own_jackpot_bet_takes_no_chip() -> None:
    game = cs.new_game(STUD, 2)
    game.apply(chip(0))
    game.apply(chip(1))
    game.apply(PlaceBet(seat=0, bet="ante", amount=500))
    game.apply(PlaceBet(seat=0, bet="jackpot", amount=100))  # placed by hand: the round's bet
    events = list(game.apply(Deal(seat=0))) + play_out(game)  # seat 1 does not play
    assert jackpot_bets(events) == []  # the hand-placed bet went down before the deal
    assert catalog.new_game(STUD, 2, previous=game).view(None)["jackpot_queue"] == {"0": 1, "1": 1}


def test_the_queue_comes_before_the_always_contribute_button() -> None:
    game = cs.new_game(STUD, 1)
    game.apply(Decide(seat=0, decision="always-contribute", arg="on"))
    game.apply(chip())
    events = ante_and_deal(game, [0])
    assert jackpot_bets(events) == [0]  # one bet, the chip's
    assert any("one chip from the jackpot queue" in getattr(e, "text", "") for e in events)


def test_the_queue_carries_through_the_log_and_old_carries_still_read() -> None:
    first = cs.new_game(STUD, 3)
    for _ in range(4):
        first.apply(chip(2))
    ante_and_deal(first, [2])
    play_out(first)
    logged = catalog.carry_of(first)
    assert logged == {"always_contribute": [], "jackpot_queue": {"2": 3}}
    replayed = catalog.new_game(STUD, 3, carry=json.loads(json.dumps(logged)))
    assert replayed.view(None) == catalog.new_game(STUD, 3, previous=first).view(None)
    old = catalog.new_game(STUD, 3, carry={"always_contribute": [1]})  # logged before the queue
    assert old.view(None)["jackpot_queue"] == {} and old.view(None)["always_contribute"] == [1]
    for bad in (
        {"always_contribute": [], "jackpot_queue": {"3": 1}},
        {"always_contribute": [], "jackpot_queue": {"0": 11}},
        {"always_contribute": [], "jackpot_queue": {"0": 0}},
        {"always_contribute": [], "jackpot_queue": [0]},
        {"always_contribute": [], "jackpot_queue": {}, "more": 1},
    ):
        with pytest.raises(ValueError, match="stud carry"):
            cs.new_game(STUD, 3, context=GameContext(carry=bad))


@pytest.mark.parametrize("vid", ["oasis-poker", "pinnacle-stud-poker"])
def test_tables_whose_jackpot_bet_is_the_oasis_page_s_keep_no_queue(vid: str) -> None:
    """000 (Oasis): "Click the slot to place the Jackpot bet. A $1.00 chip will appear in the
    slot." One chip, no queue (README gap 4 gives Pinnacle Stud the Oasis jackpot bet)."""
    game = cs.new_game(VARIANTS[vid], 1)
    assert "jackpot-chip" not in game.legal_actions(0) and "jackpot_queue" not in game.view(0)
    with pytest.raises(IllegalAction, match="keeps no queue of jackpot chips"):
        game.apply(chip())


ROUND = st.lists(  # per seat: clicks, whether it clears first, plays (ante), bets by hand
    st.tuples(st.integers(0, 12), st.booleans(), st.booleans(), st.booleans()),
    min_size=3,
    max_size=3,
)


@given(st.lists(ROUND, min_size=1, max_size=8), st.integers(0, 2**32 - 1), st.booleans())
@settings(max_examples=60, deadline=None)
def test_queued_chips_are_conserved_and_every_bet_settles_once(
    rounds: list[list[tuple[int, bool, bool, bool]]], seed: int, through_log: bool
) -> None:
    """Over games that follow one another (from the last game, or from its carry as logged):
    chips queued = chips taken back + chips taken as jackpot bets + chips still queued; a
    round takes at most one chip per seat; every bet placed settles exactly once, in full."""
    game = cs.new_game(STUD, 3)
    queued, cleared, taken = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    for n, plan in enumerate(rounds):
        events: list[Event] = []
        for seat, (clicks, clears, plays, by_hand) in enumerate(plan):
            if clears and "clear-jackpot-chips" in game.legal_actions(seat):
                cleared[seat] += game.view(None)["jackpot_queue"][str(seat)]
                events += game.apply(clear(seat))
            for _ in range(clicks):
                if "jackpot-chip" not in game.legal_actions(seat):
                    with pytest.raises(IllegalAction):
                        game.apply(chip(seat))
                    break
                events += game.apply(chip(seat))
                queued[seat] += 1
            if plays:
                events += game.apply(PlaceBet(seat=seat, bet="ante", amount=500))
                if by_hand:
                    events += game.apply(PlaceBet(seat=seat, bet="jackpot", amount=100))
        if game.book:
            dealt = list(game.apply(Deal(seat=0)))
            by_rule = jackpot_bets(dealt)  # the bets the deal placed: the chips taken
            events += dealt
            events += play_out(game, seed + n)
            for seat in range(3):
                assert by_rule.count(seat) <= 1
                taken[seat] += by_rule.count(seat)
            placed: dict[tuple[int, str], int] = {}
            for e in events:
                if isinstance(e, BetPlaced):
                    placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
            settled = [e for e in events if isinstance(e, BetSettled)]
            assert sorted((s.seat, s.bet) for s in settled) == sorted(placed)
            assert all(s.stake == placed[(s.seat, s.bet)] for s in settled)
            if through_log:
                carry = json.loads(json.dumps(catalog.carry_of(game)))
                game = catalog.new_game(STUD, 3, carry=carry)
            else:
                game = catalog.new_game(STUD, 3, previous=game)
        queue = game.view(None)["jackpot_queue"]
        for seat in range(3):
            left = queue.get(str(seat), 0)
            assert 0 <= left <= 10
            assert queued[seat] == cleared[seat] + taken[seat] + left
