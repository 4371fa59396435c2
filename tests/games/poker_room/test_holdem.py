"""Fixed-limit hold'em as page 001 says: blinds, button, order of action, limits, cap,
burns, showdown, side pots, odd chip; every refusal changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.core.cards import parse_cards
from games.core.engine import GameContext, Variant
from games.core.errors import IllegalAction
from games.core.records import DealCard, Decide, StartPosition
from games.poker_room import new_game
from games.poker_room.events import (
    ChipsIn,
    HandResult,
    HandStart,
    PotAwarded,
    PotFormed,
    Uncalled,
)
from games.poker_room.rules import RoomRules
from games.poker_room.script import ScriptedHand

# seats 0 (button), 1 (small blind), 2 (big blind); hole cards one at a time from seat 1
DECK = parse_cards(
    "2c 7d Qs 3c 8d Qh"  # seat1 2c 3c, seat2 7d 8d, seat0 Qs Qh
    " 4h Ks Kd Jc"  # burn 4h, flop Ks Kd Jc
    " 5h 9s"  # burn, turn 9s
    " 6h Ts"  # burn, river Ts
)


def three(v: Variant[RoomRules], stacks: tuple[int, int, int] = (2000, 2000, 2000)) -> ScriptedHand:
    return ScriptedHand(v, dict(enumerate(stacks)), deck=DECK)


def names(h: ScriptedHand, seat: int) -> list[tuple[str, int]]:
    return [(o.name, o.to) for o in h.round.options(seat)]


def test_blinds_are_half_the_lower_limit_rounded_down_and_the_lower_limit(
    holdem: Variant[RoomRules], edit: Any
) -> None:
    h = three(holdem)
    posts = [(e.seat, e.amount, e.what) for e in h.of(ChipsIn)]
    assert posts == [(1, 100, "small-blind"), (2, 200, "big-blind")]
    for lower, sb in ((300, 100), (500, 200), (1000, 500), (1500, 700)):
        v = edit(
            "holdem-2-4",
            lower_limit=str(lower),
            higher_limit=str(2 * lower),
            min_buy_in="100000",
            max_buy_in="200000",
        )
        assert (v.rules.small_blind, v.rules.big_blind) == (sb, lower)


def test_order_of_action_and_the_big_blinds_option(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    assert h.round.to_act == 0  # left of the big blind
    assert names(h, 0) == [("fold", 0), ("call", 200), ("raise", 400)]
    h.act(0, "call")
    assert names(h, 1) == [("fold", 100), ("call", 200), ("raise", 400)]
    h.act(1, "call")
    assert names(h, 2) == [("check", 200), ("raise", 400)]  # live blind: the option
    h.act(2, "check")
    assert h.round.board == list(parse_cards("Ks Kd Jc"))  # 4h burned
    assert h.round.to_act == 1  # the first active player left of the button
    assert names(h, 1) == [("check", 0), ("bet", 200)]


def test_limits_lower_twice_then_higher(holdem: Variant[RoomRules]) -> None:
    h = three(holdem, (9000, 9000, 9000))
    for seat in (0, 1):
        h.act(seat, "call")
    h.act(2, "check")
    h.act(1, "bet")
    assert names(h, 2)[-1] == ("raise", 400)  # flop: $2 raises
    for seat in (2, 0):
        h.act(seat, "call")
    assert h.round.board[-1] == parse_cards("9s")[0]
    assert names(h, 1) == [("check", 0), ("bet", 400)]  # turn: $4
    h.act(1, "bet")
    assert names(h, 2) == [("fold", 0), ("call", 400), ("raise", 800)]


def test_four_bets_cap_a_round_but_not_heads_up(holdem: Variant[RoomRules]) -> None:
    h = three(holdem, (9000, 9000, 9000))
    h.act(0, "raise")  # bet 2 (the big blind is the first)
    h.act(1, "raise")  # 3
    h.act(2, "raise")  # 4: capped
    assert names(h, 0) == [("fold", 400), ("call", 800)]
    h.act(0, "call")
    h.act(1, "fold")  # heads-up now: no cap
    h.act(2, "bet")
    h.act(0, "raise")
    h.act(2, "raise")
    h.act(0, "raise")
    h.act(2, "raise")
    assert names(h, 0)[-1] == ("raise", 1200)


def test_heads_up_the_button_posts_the_small_blind_and_acts_first(
    holdem: Variant[RoomRules],
) -> None:
    h = ScriptedHand(holdem, {3: 2000, 7: 2000}, deck=DECK, button_position=2)
    assert h.round.button == 7
    assert [(e.seat, e.what) for e in h.of(ChipsIn)] == [(7, "small-blind"), (3, "big-blind")]
    assert h.round.to_act == 7
    h.act(7, "call")
    h.act(3, "check")
    assert h.round.to_act == 3  # after the flop: left of the button


def test_the_button_moves_to_the_next_player_dealt_in(holdem: Variant[RoomRules]) -> None:
    r = new_game(holdem, 9)
    r.apply(HandStart(stacks=((1, 2000), (4, 2000), (6, 2000))))
    r.apply(StartPosition(position=2))
    assert r.button == 4
    for c in DECK[:6]:
        r.apply(DealCard(card=c))
    r.apply(Decide(seat=4, decision="fold"))  # seat 6 SB? seats: button 4, SB 6, BB 1
    r.apply(Decide(seat=6, decision="fold"))
    assert r.is_over
    nxt = new_game(holdem, 9, context=GameContext(previous=r))
    nxt.apply(HandStart(stacks=((1, 2000), (2, 2000), (4, 2000), (6, 2000))))
    assert nxt.needs() is not None and nxt.button == 6  # moved on past 4, no new draw
    logged = new_game(holdem, 9, context=GameContext(carry=r.carry().encode()))  # type: ignore[union-attr]
    logged.apply(HandStart(stacks=((1, 2000), (2, 2000), (4, 2000), (6, 2000))))
    assert logged.button == 6


def test_burns_before_flop_turn_river_never_shown(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    h.act(0, "call")
    h.act(1, "call")
    h.act(2, "check")
    for _ in range(3):
        for seat in (1, 2, 0):
            h.act(seat, "check")
    assert h.round.is_over
    burns = {str(c) for c in parse_cards("4h 5h 6h")}
    for seat in (None, 0, 1, 2):
        text = repr(h.round.view(seat))
        assert not any(b in text for b in burns)
    assert [str(c) for c in h.round.board] == ["Ks", "Kd", "Jc", "9s", "Ts"]


def test_showdown_last_bettor_shows_first_and_best_hand_wins(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    h.act(0, "call")
    h.act(1, "call")
    h.act(2, "check")
    for _ in range(2):
        for seat in (1, 2, 0):
            h.act(seat, "check")
    h.act(1, "check")
    h.act(2, "bet")
    h.act(0, "call")
    h.act(1, "call")
    shown = [e.seat for e in h.events if type(e).__name__ == "HandShown"]
    assert shown == [2, 0, 1]  # the river's bettor first, then clockwise
    won = [(e.seat, e.amount) for e in h.of(PotAwarded)]
    assert won == [(0, 1800)]  # queens and kings (two pair) beats the rest
    (result,) = h.of(HandResult)
    assert isinstance(result, HandResult)
    assert dict(result.after) == {0: 2000 + 1200, 1: 2000 - 600, 2: 2000 - 600}


def test_side_pots_each_to_the_best_eligible_hand(holdem: Variant[RoomRules]) -> None:
    # seat 0 (a straight, the best) is short: the main pot is its; the side pot goes to
    # seat 2 (trip sevens) over seat 1 (deuces)
    deck = parse_cards("2c 7d Qs 2d 7c Qh 4h Ks 7h Jc 5h 9s 6h Ts")
    h = ScriptedHand(holdem, {0: 300, 1: 3000, 2: 3000}, deck=deck)
    h.act(0, "call")  # 200
    h.act(1, "raise")  # to 400
    h.act(2, "call")
    h.act(0, "call")  # all-in for 100 more
    pots = [(e.amount, e.eligible) for e in h.of(PotFormed)]
    assert h.round.is_over is False
    h.act(1, "check")
    h.act(2, "check")
    for _ in range(2):
        h.act(1, "check")
        h.act(2, "check")
    pots = [(e.amount, e.eligible) for e in h.of(PotFormed)]
    assert pots == [(900, (0, 1, 2)), (200, (1, 2))]
    won = sorted((e.pot, e.seat, e.amount) for e in h.of(PotAwarded))
    assert won == [(0, 0, 900), (1, 2, 200)]


def test_an_uncalled_bet_goes_back(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    h.act(0, "raise")
    h.act(1, "fold")
    h.act(2, "fold")
    assert [(e.seat, e.amount) for e in h.of(Uncalled)] == [(0, 200)]
    assert h.round.chips.stack == {0: 2300, 1: 1900, 2: 1800}


def test_odd_cent_to_the_first_winner_left_of_the_button(holdem: Variant[RoomRules]) -> None:
    # the board is a royal flush: every live hand ties
    deck = parse_cards("2c 7d 8h 2h 3c 8d 9h 3h 4d As Ks Qs 5d Js 6d Ts")
    h = ScriptedHand(holdem, dict.fromkeys(range(4), 2000), deck=deck)
    h.act(3, "call")
    h.act(0, "call")
    h.act(1, "fold")  # 100 dead: the pot is 700, three winners
    h.act(2, "check")
    for _ in range(3):
        for seat in (2, 3, 0):
            h.act(seat, "check")
    won = [(e.seat, e.amount) for e in h.of(PotAwarded)]
    assert won == [(2, 234), (3, 233), (0, 233)]  # seat 1, left of the button, folded


def test_refusals_change_nothing(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    before = copy.deepcopy(h.round.view(0)), h.round.chips.stack.copy()
    attacks = [
        Decide(seat=1, decision="call"),  # out of turn
        Decide(seat=0, decision="raise", arg="100000"),  # forged amount
        Decide(seat=0, decision="raise", arg="-400"),
        Decide(seat=0, decision="check"),  # facing a bet
        Decide(seat=0, decision="all-in"),
        Decide(seat=9, decision="fold"),
        DealCard(card=parse_cards("Ah")[0]),  # nobody wants a card
        HandStart(stacks=((0, 1),)),
    ]
    for attack in attacks:
        with pytest.raises(IllegalAction):
            h.round.apply(attack)
    assert (h.round.view(0), h.round.chips.stack) == before


def test_a_dealt_card_twice_or_a_joker_is_refused(holdem: Variant[RoomRules]) -> None:
    r = new_game(holdem, 9)
    r.apply(HandStart(stacks=((0, 2000), (1, 2000))))
    r.apply(StartPosition(position=1))
    r.apply(DealCard(card=parse_cards("Ah")[0]))
    with pytest.raises(IllegalAction, match="already dealt"):
        r.apply(DealCard(card=parse_cards("Ah")[0]))
    with pytest.raises(IllegalAction):
        r.apply(DealCard(card=parse_cards("X")[0]))


@pytest.mark.parametrize(
    "stacks",
    [((0, 2000),), ((0, 2000), (0, 2000)), ((0, 2000), (12, 2000)), ((0, 2000), (1, 0))],
)
def test_bad_hand_starts_are_refused(holdem: Variant[RoomRules], stacks: Any) -> None:
    r = new_game(holdem, 9)
    with pytest.raises(IllegalAction):
        r.apply(HandStart(stacks=stacks))
    assert r.phase == "start"


def test_views_show_a_seat_only_its_own_hole_cards(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    own = {0: ["Qs", "Qh"], 1: ["2c", "3c"], 2: ["7d", "8d"]}
    for viewer in (0, 1, 2):
        view = h.round.view(viewer)
        text = repr(view)
        for seat, cards in own.items():
            assert all((c in text) == (seat == viewer) for c in cards)
        assert [o["name"] for o in view["options"]] == (
            ["fold", "call", "raise"] if viewer == 0 else []
        )
    assert not any(c in repr(h.round.view(None)) for cs in own.values() for c in cs)


def test_showdown_reveals_live_hands_not_folded_ones(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    h.act(0, "call")
    h.act(1, "fold")
    h.act(2, "check")
    for _ in range(3):
        h.act(2, "check")
        h.act(0, "check")
    text = repr(h.round.view(None))
    assert all(c in text for c in ("Qs", "Qh", "7d", "8d"))
    assert "2c" not in text and "3c" not in text


def test_default_action_checks_else_folds(holdem: Variant[RoomRules]) -> None:
    h = three(holdem)
    assert h.round.default_action(0) == Decide(seat=0, decision="fold")
    assert h.round.default_action(1) is None  # not its turn
    h.act(0, "call")
    h.act(1, "call")
    assert h.round.default_action(2) == Decide(seat=2, decision="check")
