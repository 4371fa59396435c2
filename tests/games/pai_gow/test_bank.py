"""Player banking at the land-casino table, clause by clause from page 002 "The Bank".

Source: shared/rules/002_e7444afd9398bcdd.txt ("The Bank"; "there is no maximum limit to
the amount a player may wager when another player is the Banker"). Hand outcomes are
worked out by hand from the page's ranking list ("The Combinations") in each comment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games.pai_gow as pg
from games import catalog
from games.core.cards import Card, parse_cards
from games.core.engine import GameContext
from games.core.errors import BetRefused, IllegalAction, PaytableError
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Deal,
    Decide,
    PlaceBet,
    RemoveBet,
)
from games.pai_gow.engine import PaiGowRound, Phase
from games.pai_gow.rules import loads
from tests.games.pai_gow.dealing import deal_in, decline_dragon, next_action

get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__
LAND = get_variant("pai-gow-land")
Feed = Callable[..., list[Any]]

# fixed hands (no card repeats across them); outcomes in the tests below
BANKER = "As Kd Qh Qc 7s 7d 2c"  # set "As Kd|Qh Qc 7s 7d 2c": two pair Q/7, A-K in front
COPY = "Ac Kh Qd Qs 8c 8h 4d"  # set "Ac Kh|Qd Qs 8c 8h 4d": two pair Q/8, A-K in front
STRONG = "Ah Ad 9h 9d 9c 5d 5h"  # set "Ah Ad|9h 9d 9c 5d 5h": full house, aces in front
HOUSE = "Jh Jd 9s 6c 4h 3d Kc"  # house way: pair of jacks behind, K-9 in front


# the land table with the commission made a parameter (tests of "as the table charges")
LAND_TOML = """
spec = 1
id = "pai-gow-land-test"
title = "test"
source = "test"
[rules]
joker = "ace-or-filler"
wheel_second = true
seats = 6
surrender = true
player_bank = true
[commission]
bp = 0
rounding = "down"
[bets.main]
minimum = 500
maximum = 50000
increment = 100
"""


def deck_except(used: str) -> list[Card]:
    taken = set(parse_cards(used))
    return [c for c in (Card.from_index(i) for i in range(53)) if c not in taken]


def finish(game: PaiGowRound, cards: list[Card] | None = None) -> list[Any]:
    """Deal from ``cards`` (default: the deck in index order), every seat by house way."""
    events: list[Any] = []
    deck = iter(cards if cards is not None else deck_except(""))
    while game.needs() is not None:
        events += game.apply(next_action(game, deck))
    events += decline_dragon(game)
    for seat in game.view(None)["dealt_in"]:
        if seat not in game.view(None)["set"]:
            events += game.apply(Decide(seat=seat, decision="house-way"))
    assert game.is_over
    return events


def dealer_game(bets: dict[int, int], seats: int = 3, previous: Any = None) -> PaiGowRound:
    """A finished game the dealer banks, with main bets ``bets`` (seat -> cents)."""
    game = pg.new_game(LAND, seats, context=GameContext(previous=previous))
    while game.phase is Phase.BANK:
        game.apply(Decide(seat=game.offered, decision="decline-bank"))
    for seat, amount in bets.items():
        game.apply(PlaceBet(seat=seat, bet="main", amount=amount))
    game.apply(Deal(seat=next(iter(bets))))
    finish(game)
    return game


def test_the_land_table_offers_player_banking_and_no_other_table_does() -> None:
    assert [v.id for v in pg.VARIANTS if v.rules.player_bank] == ["pai-gow-land"]


def test_first_hand_only_the_dealer_banks() -> None:
    game = pg.new_game(LAND, 3)  # a new table (or after a restart: previous=None)
    assert game.phase is Phase.BETTING and game.banker is None
    assert all("bank" not in game.legal_actions(s) for s in range(3))
    with pytest.raises(IllegalAction, match="the bank is settled for this game"):
        game.apply(Decide(seat=0, decision="bank", arg="10000"))
    assert game.view(None)["banker"] == "dealer"


def test_rotation_offers_the_bank_in_turn_to_the_players_of_the_last_dealer_game() -> None:
    first = dealer_game({0: 1000, 2: 2000})  # seat 1 sat out
    game = pg.new_game(LAND, 3, context=GameContext(previous=first))
    assert game.phase is Phase.BANK and game.offered == 0
    assert game.legal_actions(0) == {"bank", "decline-bank"}
    assert game.legal_actions(1) == game.legal_actions(2) == frozenset()
    with pytest.raises(IllegalAction, match="offered to seat 0"):
        game.apply(Decide(seat=2, decision="bank", arg="10000"))
    with pytest.raises(IllegalAction, match="waits for the bank"):
        game.apply(PlaceBet(seat=1, bet="main", amount=500))
    game.apply(Decide(seat=0, decision="decline-bank"))
    assert game.offered == 2  # seat 1 took no part, so it is never offered
    game.apply(Decide(seat=2, decision="decline-bank"))
    assert game.phase is Phase.BETTING and game.banker is None  # the dealer banks
    for seat, amount in {1: 500, 2: 700}.items():
        game.apply(PlaceBet(seat=seat, bet="main", amount=amount))
    game.apply(Deal(seat=1))
    finish(game)
    # the dealer held the bank: its players are next, with their wagers against the house
    carry = game.carry()
    assert carry.queue == (1, 2) and carry.last_banker is None
    assert dict(carry.house_wagers) == {0: 1000, 1: 500, 2: 700}


def test_no_player_banks_two_consecutive_hands() -> None:
    first = dealer_game({0: 1000, 2: 2000})
    second = pg.new_game(LAND, 3, context=GameContext(previous=first))
    second.apply(Decide(seat=0, decision="bank", arg="10000"))
    second.apply(PlaceBet(seat=2, bet="main", amount=500))
    second.apply(Deal(seat=2))
    finish(second)
    third = pg.new_game(LAND, 3, context=GameContext(previous=second))
    assert third.offered == 2 and "bank" not in third.legal_actions(0)
    with pytest.raises(IllegalAction, match="two hands in a row"):
        third.apply(Decide(seat=0, decision="bank", arg="10000"))
    # even a carry that queues the last banker first (a hand-made log) skips it
    crafted = {"queue": [0, 2], "last_banker": 0, "house_wagers": {"0": 1000, "2": 2000}}
    assert pg.new_game(LAND, 3, context=GameContext(carry=crafted)).offered == 2
    # and once the queue is spent the dealer banks again
    third.apply(Decide(seat=2, decision="decline-bank"))
    assert third.phase is Phase.BETTING and third.banker is None


@pytest.mark.parametrize(("arg", "house"), [("10000", 2000), ("10000 500", 500), ("10000 0", 0)])
def test_house_wager_is_the_last_wager_against_the_house_or_less(arg: str, house: int) -> None:
    first = dealer_game({0: 2000, 1: 500})
    game = pg.new_game(LAND, 3, context=GameContext(previous=first))
    assert game.view(0)["house_wager_offer"] == 2000
    events = game.apply(Decide(seat=0, decision="bank", arg=arg))
    assert BetPlaced(seat=0, bet="bank", amount=10000) in events
    assert (game.banker, game.bank, game.house_wager) == (0, 10000, house)


def test_a_larger_house_wager_than_the_last_one_is_refused() -> None:
    game = pg.new_game(LAND, 3, context=GameContext(previous=dealer_game({0: 2000, 1: 500})))
    before = repr(game.view(None))
    with pytest.raises(IllegalAction, match=r"at most \$20.00"):
        game.apply(Decide(seat=0, decision="bank", arg="10000 2500"))
    with pytest.raises(IllegalAction, match="like '50000'"):
        game.apply(Decide(seat=0, decision="bank", arg="lots"))
    assert repr(game.view(None)) == before


def test_a_bank_that_cannot_pay_the_house_wager_leaves_the_bank_with_the_dealer() -> None:
    first = dealer_game({0: 2000, 1: 500})
    game = pg.new_game(LAND, 3, context=GameContext(previous=first))
    events = game.apply(Decide(seat=0, decision="bank", arg="1500"))  # house wagers $20
    assert not [e for e in events if isinstance(e, BetPlaced)]
    assert game.phase is Phase.BETTING and game.banker is None
    assert "dealer holds the bank" in repr(events)
    # the dealer banks by the usual limits: the $500 maximum applies again
    with pytest.raises(BetRefused, match="maximum"):
        game.apply(PlaceBet(seat=1, bet="main", amount=60000))


def test_wagers_have_no_maximum_but_must_be_covered_by_the_bank() -> None:
    game = pg.new_game(LAND, 3, context=GameContext(previous=dealer_game({0: 1000, 1: 500})))
    game.apply(Decide(seat=0, decision="bank", arg="100000 1000"))
    game.apply(PlaceBet(seat=1, bet="main", amount=60000))  # above the $500 table maximum
    with pytest.raises(BetRefused, match=r"can pay only \$390.00 more"):
        game.apply(PlaceBet(seat=2, bet="main", amount=40000))
    with pytest.raises(BetRefused, match="minimum"):
        game.apply(PlaceBet(seat=2, bet="main", amount=100))
    with pytest.raises(BetRefused, match="is the Banker"):
        game.apply(PlaceBet(seat=0, bet="main", amount=500))
    game.apply(PlaceBet(seat=2, bet="main", amount=39000))  # exactly what is left
    with pytest.raises(BetRefused, match="fully wagered"):
        game.apply(PlaceBet(seat=2, bet="main", amount=500))
    with pytest.raises(BetRefused, match="stays up"):
        game.apply(RemoveBet(seat=0, bet="bank"))


def test_banker_may_take_the_bank_down_while_nothing_is_wagered_against_it() -> None:
    game = pg.new_game(LAND, 3, context=GameContext(previous=dealer_game({0: 1000, 1: 500})))
    game.apply(Decide(seat=0, decision="bank", arg="20000 0"))
    assert game.legal_actions(0) == {"remove-bet"}
    events = game.apply(RemoveBet(seat=0, bet="bank"))
    assert BetReturned(seat=0, bet="bank", amount=20000) in events
    assert game.banker is None and "place-bet" in game.legal_actions(0)


def play_banked(variant: Any = LAND) -> tuple[PaiGowRound, list[Any]]:
    """Seat 0 banks $100 against seat 1 ($15) and seat 2 ($20) and the house's $10."""
    game = pg.new_game(
        variant, 3, context=GameContext(carry={"queue": [0], "house_wagers": {"0": 1000}})
    )
    game.apply(Decide(seat=0, decision="bank", arg="10000"))
    game.apply(PlaceBet(seat=1, bet="main", amount=1500))
    game.apply(PlaceBet(seat=2, bet="main", amount=2000))
    game.apply(Deal(seat=1))
    events: list[Any] = deal_in(game, " ".join((BANKER, COPY, STRONG, HOUSE)))
    events += game.apply(Decide(seat=0, decision="set", arg="As Kd|Qh Qc 7s 7d 2c"))
    events += game.apply(Decide(seat=1, decision="set", arg="Ac Kh|Qd Qs 8c 8h 4d"))
    assert "surrender" not in game.legal_actions(0)
    events += game.apply(Decide(seat=2, decision="set", arg="Ah Ad|9h 9d 9c 5d 5h"))
    assert game.is_over
    return game, events


def by_seat(events: list[Any]) -> dict[int, BetSettled]:
    return {e.seat: e for e in events if isinstance(e, BetSettled)}


def test_wagers_settle_against_the_player_bankers_hands_and_copies_go_to_the_banker() -> None:
    game, events = play_banked()
    s = by_seat(events)
    # seat 1: two pair Q/8 beats Q/7 behind, A-K copies A-K in front -> push (copy to banker)
    assert (s[1].result, s[1].returned) == ("push", 1500)
    # seat 2: full house beats two pair, aces beat A-K -> wins even money, no commission here
    assert (s[2].result, s[2].returned, s[2].commission) == ("win", 4000, 0)
    # house: pair of jacks and K-9 lose both hands to the banker -> the house pays $10
    assert game.house_result == -1000
    # bank: 0 (seat 1) - $20 (seat 2) + $10 (house) = -$10
    assert (s[0].bet, s[0].stake, s[0].returned, s[0].result) == ("bank", 10000, 9000, "lose")
    # chips: what the seats net is exactly what the house lost on its wager
    assert sum(x.net for x in s.values()) == -game.house_result
    # the banker's cards are shown at the reveal, the house's hand too
    assert {e.hand for e in events if type(e).__name__ == "CardShown"} >= {
        "seat0.low",
        "seat0.high",
        "dealer",
    }


def test_commission_is_taken_on_a_player_win_against_the_player_banker() -> None:
    text = LAND_TOML.replace("bp = 0", "bp = 500").replace('"down"', '"up"')
    variant = loads(text, "land-with-commission")
    _game, events = play_banked(variant)
    s = by_seat(events)
    assert (s[2].returned, s[2].commission) == (4000, 100)  # 5% of the $20 win
    assert s[0].commission == 0  # the bank lost: no commission


def test_banker_pays_commission_on_a_net_win() -> None:
    text = LAND_TOML.replace("bp = 0", "bp = 500").replace('"down"', '"up"')
    variant = loads(text, "land-with-commission")
    game = pg.new_game(
        variant, 3, context=GameContext(carry={"queue": [2], "house_wagers": {"2": 500}})
    )
    game.apply(Decide(seat=2, decision="bank", arg="10000 0"))
    game.apply(PlaceBet(seat=0, bet="main", amount=1500))
    game.apply(PlaceBet(seat=1, bet="main", amount=700))
    game.apply(Deal(seat=0))
    # seat 0 holds the weak BANKER hand, seat 1 the COPY hand, the banker the STRONG hand
    deal_in(game, " ".join((BANKER, COPY, STRONG, HOUSE)))
    game.apply(Decide(seat=0, decision="set", arg="As Kd|Qh Qc 7s 7d 2c"))
    game.apply(Decide(seat=1, decision="set", arg="Ac Kh|Qd Qs 8c 8h 4d"))
    events = game.apply(Decide(seat=2, decision="set", arg="Ah Ad|9h 9d 9c 5d 5h"))
    s = by_seat(list(events))
    # both players lose both hands to the full house and the aces: the bank wins $22
    assert (s[0].returned, s[1].returned) == (0, 0)
    assert (s[2].returned, s[2].commission, s[2].net) == (12200, 110, 2090)  # 5% of $22


def test_the_loader_refuses_player_banking_with_one_seat() -> None:
    with pytest.raises(PaytableError, match="at least 2 seats"):
        loads(LAND_TOML.replace("seats = 6", "seats = 1"))


def test_carry_round_trips_as_logged_data_and_bad_carry_is_refused() -> None:
    first = dealer_game({0: 1000, 2: 2000})
    logged = catalog.carry_of(first)
    assert logged == {"queue": [0, 2], "last_banker": None, "house_wagers": {"0": 1000, "2": 2000}}
    a = catalog.new_game(LAND, 3, previous=first)
    b = catalog.new_game(LAND, 3, carry=logged)
    assert [a.view(s) for s in range(3)] == [b.view(s) for s in range(3)]
    for bad in ({"queue": [7]}, {"queue": [0, 0]}, {"house_wagers": {"0": -1}}, {"x": 1}):
        with pytest.raises(ValueError, match="pai gow carry"):
            pg.new_game(LAND, 3, context=GameContext(carry=bad))
    running = pg.new_game(LAND, 3)
    with pytest.raises(ValueError, match="not over"):
        pg.new_game(LAND, 3, context=GameContext(previous=running))
    assert catalog.carry_of(running) is None
    with pytest.raises(ValueError, match="not a game of"):
        pg.new_game(
            LAND, 3, context=GameContext(previous=pg.new_game(get_variant("pai-gow-pinnacle")))
        )


def test_autoplay_declines_the_bank_so_scripted_games_still_finish() -> None:
    game = pg.new_game(LAND, 3, context=GameContext(previous=dealer_game({0: 1000, 2: 2000})))
    assert pg.autoplay(game, 1) is None
    action = pg.autoplay(game, 0)
    assert action == Decide(seat=0, decision="decline-bank")


def runtime_offer(game: PaiGowRound, seated: set[int]) -> int | None:
    """What the table runtime read before the round said it (the empty seat offered the
    bank, from the view's ``bank_offered_to``): the expected answer of ``awaiting()``."""
    offered = None if game.is_over else game.view(None)["bank_offered_to"]
    return offered if isinstance(offered, int) and offered not in seated else None


@pytest.mark.parametrize("seated", [set(), {0}, {2}, {0, 1, 2}])
def test_awaiting_and_default_action_give_what_the_runtime_sent(seated: set[int]) -> None:
    first = dealer_game({0: 1000, 1: 1500, 2: 2000})
    by_round = pg.new_game(LAND, 3, context=GameContext(previous=first))
    by_runtime = pg.new_game(LAND, 3, context=GameContext(previous=first))
    assert first.awaiting() == frozenset() and first.default_action(0) is None
    # the runtime's loop, then the round's: an empty seat offered the bank declines it
    while (offered := runtime_offer(by_runtime, seated)) is not None:
        by_runtime.apply(Decide(seat=offered, decision="decline-bank"))
    while empty := sorted(by_round.awaiting() - seated):
        assert by_round.awaiting() == {by_round.offered}
        action = by_round.default_action(empty[0])
        assert action == Decide(seat=empty[0], decision="decline-bank")
        assert all(by_round.default_action(s) is None for s in range(3) if s != empty[0])
        by_round.apply(action)
    assert by_round.view(None) == by_runtime.view(None)
    assert by_round.offered == runtime_offer(by_round, set())
    if by_round.phase is Phase.BANK:  # a seated player is offered: the round waits on it
        assert by_round.awaiting() == {by_round.offered} <= seated
    else:
        assert by_round.awaiting() == frozenset()


def test_an_absent_seat_s_hand_is_set_by_the_house_way() -> None:
    game = pg.new_game(LAND, 3)
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(PlaceBet(seat=2, bet="main", amount=1000))
    assert game.default_action(0) is None  # betting never times out
    game.apply(Deal(seat=0))
    deck = iter(deck_except(""))
    while game.needs() is not None:
        game.apply(next_action(game, deck))
    # the dragon hand offered to seat 0 first: an absent seat passes it on (page 001)
    assert game.awaiting() == {0} and game.default_action(0) == Decide(
        seat=0, decision="decline-dragon"
    )
    decline_dragon(game)
    assert game.PASSIVE == ("house-way", "decline-bank", "decline-dragon")
    assert "surrender" in game.legal_actions(0)  # the passive choice is the house way
    assert game.default_action(0) == Decide(seat=0, decision="house-way")
    assert game.default_action(1) is None and game.awaiting() == frozenset()
    game.apply(Decide(seat=0, decision="house-way"))
    assert game.default_action(0) is None
