"""The card-room rules page 001 leaves open, as the tables' data: the collection (rake or
seat fee), a new player's big blind, missed blinds, the misdeal; Omaha's two-and-three;
and chips never made or lost, collection included."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import DECK, parse_cards
from games.core.engine import GameContext, Variant
from games.core.errors import IllegalAction
from games.core.records import CollectionCharged
from games.poker_room import VARIANTS, new_game
from games.poker_room.events import (
    ChipsIn,
    CollectionReturned,
    HandResult,
    HandStart,
    HandVoid,
    Misdeal,
    PotAwarded,
    Raked,
)
from games.poker_room.rules import RoomRules
from games.poker_room.script import ScriptedHand

HOLDEM, OMAHA, STUD = VARIANTS


def call_down(h: ScriptedHand) -> None:
    while not h.round.is_over:
        seat = h.round.to_act
        assert seat is not None
        names = {o.name for o in h.round.options(seat)}
        h.act(seat, next(n for n in ("check", "bring-in", "call") if n in names))


def test_rake_ten_percent_in_chips_capped_after_the_flop() -> None:
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(3), 5000), deck=DECK)
    call_down(h)  # pot 600: 10% = $0.60, under one $1 chip
    assert not h.of(Raked) and h.round.collection == 0
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(9), 5000), deck=DECK)
    for seat in (3, 4, 5, 6, 7, 8, 0, 1):
        h.act(seat, "call")
    h.act(2, "check")  # pot $18: $1 for every $10
    call_down(h)
    assert [e.amount for e in h.of(Raked)] == [100]
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(9), 9000), deck=DECK)
    h.act(3, "raise")
    for seat in (4, 5, 6, 7, 8, 0, 1, 2):
        h.act(seat, "call")  # pot $36 before the flop
    call_down(h)
    assert [e.amount for e in h.of(Raked)] == [300]
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(9), 9000), deck=DECK)
    h.act(3, "raise")
    h.act(4, "raise")
    for seat in (5, 6, 7, 8, 0, 1, 2, 3):
        h.act(seat, "call")  # pot $54: capped at $4
    call_down(h)
    assert [e.amount for e in h.of(Raked)] == [400]


def test_no_flop_no_drop() -> None:
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(3), 5000), deck=DECK)
    h.act(0, "raise")
    h.act(1, "call")
    h.act(2, "fold")
    assert not h.round.is_over
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(3), 5000), deck=DECK)
    h.act(0, "fold")
    h.act(1, "fold")
    assert h.round.is_over and h.round.collection == 0 and not h.of(Raked)


def test_stud_seat_fee_from_every_player_dealt_in() -> None:
    h = ScriptedHand(STUD, dict.fromkeys((1, 4, 6), 3000), deck=DECK)
    assert [(e.seat, e.amount) for e in h.of(CollectionCharged)] == [(1, 100), (4, 100), (6, 100)]
    call_down(h)
    (result,) = h.of(HandResult)
    assert isinstance(result, HandResult) and result.collection == 300


def test_a_new_player_posts_a_live_big_blind() -> None:
    stacks = dict.fromkeys(range(5), 3000)
    h = ScriptedHand(HOLDEM, stacks, deck=DECK, posts=[(4, "bb")])
    posted = [(e.seat, e.amount, e.what) for e in h.of(ChipsIn)]
    assert posted == [(1, 100, "small-blind"), (2, 200, "big-blind"), (4, 200, "big-blind")]
    for seat in (3,):
        h.act(seat, "call")
    assert [(o.name, o.to) for o in h.round.options(4)] == [("check", 200), ("raise", 400)]


def test_a_returning_player_posts_both_blinds_the_small_one_dead() -> None:
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(5), 3000), deck=DECK, posts=[(3, "bb+sb")])
    posted = [(e.seat, e.amount, e.what) for e in h.of(ChipsIn)][2:]
    assert posted == [(3, 200, "big-blind"), (3, 100, "dead-blind")]
    assert h.round.chips.bet[3] == 200 and h.round.chips.total[3] == 300  # 100 is dead


def test_posts_are_only_for_blind_games_and_seats_dealt_in() -> None:
    for variant, posts in ((STUD, ((0, "bb"),)), (HOLDEM, ((7, "bb"),)), (HOLDEM, ((0, "x"),))):
        r = new_game(variant, variant.seats)
        with pytest.raises(IllegalAction):
            r.apply(HandStart(stacks=((0, 3000), (1, 3000)), posts=posts))


def test_a_misdeal_returns_every_chip_and_the_button_stays() -> None:
    r = new_game(STUD, 8)
    before = ((0, 3000), (1, 3000), (2, 3000))
    r.apply(HandStart(stacks=before))
    events = r.apply(Misdeal(reason="a down card was exposed"))
    assert r.is_over and r.chips.stack == dict(before) and r.collection == 0
    assert any(isinstance(e, HandVoid) for e in events)
    assert sum(e.amount for e in events if isinstance(e, CollectionReturned)) == 300
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(3), 3000), deck=DECK, previous_button=2)
    assert h.round.button == 0
    h.round.apply(Misdeal(reason="the flop came early"))
    nxt = new_game(HOLDEM, 9, context=GameContext(previous=h.round))
    nxt.apply(HandStart(stacks=((0, 3000), (1, 3000), (2, 3000))))
    assert nxt.button == 0  # the same button again


def test_no_misdeal_once_a_player_has_acted() -> None:
    h = ScriptedHand(HOLDEM, dict.fromkeys(range(3), 3000), deck=DECK)
    h.act(0, "call")
    with pytest.raises(IllegalAction):
        h.round.apply(Misdeal(reason="late"))


def test_omaha_plays_exactly_two_hole_cards() -> None:
    # heads-up, button seat 0: hole cards to seat 1 then 0, four rounds
    deck = parse_cards(
        "Kc Ah Kd 2c 7s 3d 8s 4s"  # seat 1 Kc Kd 7s 8s, seat 0 Ah 2c 3d 4s
        " 5c Qh Jh Th 6c 9h 6d 2h"
    )
    h = ScriptedHand(OMAHA, {0: 3000, 1: 3000}, deck=deck)
    assert len(h.round.cards[0]) == 4
    call_down(h)
    # hold'em would give seat 0 the ace-high heart flush; in Omaha it has one heart
    assert [e.seat for e in h.of(PotAwarded)] == [1]


def _random_hand(variant: Variant[RoomRules], rnd: random.Random) -> ScriptedHand:
    n = rnd.randint(2, variant.seats)
    seats = rnd.sample(range(variant.seats), n)
    low = variant.rules.ante + variant.rules.collection.seat_fee
    stacks = {s: low + rnd.choice((1, 2, 5, 13, 40)) * 100 + rnd.choice((0, 25)) for s in seats}
    deck = list(DECK)
    rnd.shuffle(deck)
    h = ScriptedHand(variant, stacks, deck=deck, button_position=rnd.randint(1, n))
    while not h.round.is_over:
        seat = h.round.to_act
        assert seat is not None
        option = rnd.choice(h.round.options(seat))
        h.act(seat, option.name, option.to)
    return h


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), game=st.sampled_from(VARIANTS))
def test_chips_are_never_made_or_lost(seed: int, game: Variant[RoomRules]) -> None:
    h = _random_hand(game, random.Random(seed))
    (result,) = h.of(HandResult)
    assert isinstance(result, HandResult)
    before, after = dict(result.before), dict(result.after)
    assert sum(before.values()) == sum(after.values()) + result.collection
    fee = game.rules.collection.seat_fee
    for seat, put in result.committed:
        assert before[seat] - fee - put + dict(result.won)[seat] == after[seat] >= 0
    assert sum(dict(result.won).values()) + sum(e.amount for e in h.of(Raked)) == sum(
        put for _, put in result.committed
    )
