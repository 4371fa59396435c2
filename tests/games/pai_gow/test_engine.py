"""A pai gow game through the engine: deal, set, reveal, settle; refusals change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games.pai_gow as pg
from games.core.cards import Card
from games.core.errors import BetRefused, FoulHand, IllegalAction
from games.core.records import BetSettled, CardShown, Deal, DealCard, Decide, PlaceBet, RemoveBet
from games.pai_gow.engine import PaiGowRound, Phase

# the family's own list, not the catalog: a broken sibling family cannot fail these tests
get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__

Feed = Callable[..., list[Any]]
# player: a pair of queens and a pair of sevens; dealer: a pair of jacks, K-Q in front
PLAYER = "As Kd Qh Qc 7s 7d 2c"
DEALER = "Jh Jd 9s 6c 4h 3d Kc"
DEALER2 = "Jc Js Ts 6c 4s 3d Kc"


def start(variant_id: str, bets: dict[int, dict[str, int]], seats: int = 1) -> PaiGowRound:
    game = pg.new_game(get_variant(variant_id), seats)
    for seat, spots in bets.items():
        for bet, amount in spots.items():
            game.apply(PlaceBet(seat=seat, bet=bet, amount=amount))
    game.apply(Deal(seat=0))
    return game


def settled(events: list[Any], bet: str = "main", seat: int = 0) -> BetSettled:
    return next(e for e in events if isinstance(e, BetSettled) and e.bet == bet and e.seat == seat)


def test_player_cards_are_shown_only_to_the_seat_and_the_dealer_face_down(deal: Feed) -> None:
    game = start("pai-gow-pinnacle", {0: {"main": 1000}})
    events = deal(game, PLAYER)
    assert [e.to for e in events if isinstance(e, CardShown)] == ["0"] * 7
    need = game.needs()
    assert need is not None and need.hidden and need.target == "dealer"
    deal(game, DEALER)
    assert game.phase is Phase.SETTING
    for seat in (0, None):
        text = repr(game.view(seat))
        assert "Jh" not in text and "Kc" not in text
    assert "As" in repr(game.view(0)) and "As" not in repr(game.view(None))


def test_set_own_hand_wins_both_and_pays_less_five_percent(deal: Feed) -> None:
    game = start("pai-gow-pinnacle", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    events = list(game.apply(Decide(seat=0, decision="set", arg="As Kd|Qh Qc 7s 7d 2c")))
    s = settled(events)
    # dealer by house way: pair of jacks behind, K-9 in front; player: two pair, A-K in front
    assert game.dealer_setting is not None and str(game.dealer_setting).startswith("Kc 9s")
    assert (s.result, s.returned, s.commission, s.net) == ("win", 2000, 50, 950)
    assert game.is_over
    revealed = [e for e in events if isinstance(e, CardShown)]
    assert len(revealed) == 14 and all(e.to == "all" for e in revealed)


def test_foul_setting_is_refused_with_the_reason_and_nothing_changes(deal: Feed) -> None:
    game = start("pai-gow-pinnacle", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    before = game.view(0)
    with pytest.raises(
        FoulHand, match=r"low hand \(pair of queens\) ranks above the high hand \(pair of sevens\)"
    ) as info:
        game.apply(Decide(seat=0, decision="set", arg="Qh Qc|As Kd 7s 7d 2c"))
    assert "\n" not in str(info.value)
    with pytest.raises(FoulHand, match="exactly the seven cards"):
        game.apply(Decide(seat=0, decision="set", arg="Qh Qc|As Kd 7s 7d 3c"))
    with pytest.raises(FoulHand, match="2 cards and the high hand 5"):
        game.apply(Decide(seat=0, decision="set", arg="Qh|Qc As Kd 7s 7d 2c"))
    with pytest.raises(IllegalAction, match="unknown decision"):
        game.apply(Decide(seat=0, decision="fold"))
    assert game.view(0) == before
    game.apply(Decide(seat=0, decision="house-way"))
    assert game.is_over


def test_copies_go_to_the_banker(deal: Feed) -> None:
    # identical ranks in both hands: the player loses both copies
    game = start("pai-gow-pinnacle", {0: {"main": 1000}})
    deal(game, "As Kd Qh Qc 7s 7d 2c Ah Kc Qs Qd 7h 7c 2d")
    s = settled(list(game.apply(Decide(seat=0, decision="house-way"))))
    assert (s.result, s.net) == ("lose", -1000)


def test_one_hand_won_is_a_push(deal: Feed) -> None:
    game = start("pai-gow-pinnacle", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    s = settled(list(game.apply(Decide(seat=0, decision="set", arg="7s 2c|As Kd Qh Qc 7d"))))
    assert (s.result, s.net) == ("push", 0)  # queens beat jacks behind, 7-2 loses to K-9


@pytest.mark.parametrize(("stake", "fee"), [(600, 50), (1100, 75), (2000, 100)])
def test_online_commission_rounds_up_to_the_quarter(deal: Feed, stake: int, fee: int) -> None:
    game = start("pai-gow-online", {0: {"main": stake}})
    deal(game, PLAYER + " " + DEALER)
    s = settled(list(game.apply(Decide(seat=0, decision="set", arg="As Kd|Qh Qc 7s 7d 2c"))))
    assert (s.commission, s.net) == (fee, stake - fee)  # page 001: $6 -> 50c, $11 -> 75c


def test_bonus_pays_on_the_seven_cards_as_dealt_and_caps_the_payout(deal: Feed) -> None:
    game = start("pai-gow-bonus", {0: {"main": 1000, "bonus": 2000}})
    deal(game, "9h 8h 7h 6h 5h 4h 3h " + DEALER2)  # seven-card straight flush: 8000:1
    events = list(game.apply(Decide(seat=0, decision="house-way")))
    b = settled(events, "bonus")
    assert (b.returned, b.result) == (2000 + 2_500_000, "win")  # capped at 25,000 credits
    assert "capped" in b.note
    game = start("pai-gow-bonus", {0: {"main": 1000, "bonus": 100}})
    deal(game, "As Ks Qs Js Ts 2c 2d " + DEALER)
    b = settled(list(game.apply(Decide(seat=0, decision="house-way"))), "bonus")
    assert b.net == 2000 * 100  # royal flush plus a pair of deuces: 2000:1


def test_bonus_limits_and_needs_a_main_bet() -> None:
    game = pg.new_game(get_variant("pai-gow-bonus"))
    with pytest.raises(BetRefused, match="needs a main bet"):
        game.apply(PlaceBet(seat=0, bet="bonus", amount=100))
    game.apply(PlaceBet(seat=0, bet="main", amount=100))
    with pytest.raises(BetRefused, match=r"the maximum bet is \$20\.00"):
        game.apply(PlaceBet(seat=0, bet="bonus", amount=2100))
    game.apply(PlaceBet(seat=0, bet="bonus", amount=100))
    with pytest.raises(BetRefused, match="side bet down before"):
        game.apply(RemoveBet(seat=0, bet="main"))
    with pytest.raises(BetRefused, match="no 'fortune' bet"):
        game.apply(PlaceBet(seat=0, bet="fortune", amount=100))


def test_fortune_envy_is_paid_for_other_seats_at_five_dollars(deal: Feed) -> None:
    bets = {0: {"main": 500, "fortune": 500}, 1: {"main": 500, "fortune": 100}, 2: {"main": 500}}
    game = start("pai-gow-fortune", bets, seats=3)
    quads = "9s 9d 9h 9c 2s 5d Kh"
    deal(game, "Ah Kd Qc 8s 6d 4c 3h " + "As Ad 4s 8h 7c 3c 2d " + quads + " Jc Js Ts 6c 4h 3d Kc")
    for seat in (0, 1, 2):
        events = list(game.apply(Decide(seat=seat, decision="house-way")))
    f0 = settled(events, "fortune", 0)
    f1 = settled(events, "fortune", 1)
    assert f0.returned == 500 and "seat 2's four-of-a-kind" in f0.note  # $5 envy, own hand lost
    assert f1.returned == 0  # $1 on the Fortune: no envy
    assert not any(isinstance(e, BetSettled) and e.seat == 2 and e.bet == "fortune" for e in events)


def test_actions_out_of_turn_are_refused(deal: Feed) -> None:
    game = pg.new_game(get_variant("pai-gow-pinnacle"))
    with pytest.raises(IllegalAction, match="main bet before dealing"):
        game.apply(Deal(seat=0))
    with pytest.raises(IllegalAction, match="no card is wanted"):
        game.apply(DealCard(card=Card.parse("As")))
    with pytest.raises(IllegalAction, match="after the deal"):
        game.apply(Decide(seat=0, decision="house-way"))
    with pytest.raises(IllegalAction, match="no seat 3"):
        game.apply(PlaceBet(seat=3, bet="main", amount=100))
    with pytest.raises(BetRefused, match=r"the maximum bet is \$2,500\.00"):
        game.apply(PlaceBet(seat=0, bet="main", amount=250_100))
    game.apply(PlaceBet(seat=0, bet="main", amount=100))
    game.apply(Deal(seat=0))
    game.apply(DealCard(card=Card.parse("X")))
    with pytest.raises(IllegalAction, match="already dealt"):
        game.apply(DealCard(card=Card.parse("X")))
    with pytest.raises(IllegalAction, match="not allowed now"):
        game.apply(PlaceBet(seat=0, bet="main", amount=100))


def test_autoplay_finishes_a_game(deal: Feed) -> None:
    game = pg.new_game(get_variant("pai-gow-online"))
    for _ in range(10):
        action = pg.autoplay(game, 0)
        if action is None:
            deal(game, PLAYER + " " + DEALER)
            continue
        game.apply(action)
        if game.is_over:
            break
    assert game.is_over and game.settlements[0].stake == 500
    assert pg.autoplay(game, 0) is None


def test_land_table_surrender_loses_the_wager_and_hides_the_cards(deal: Feed) -> None:
    game = start("pai-gow-land", {0: {"main": 1000}, 1: {"main": 500}}, seats=2)
    other = "2h 3h 4d 6s 8c Tc Qd"
    deal(game, PLAYER + " " + other + " " + DEALER)
    assert "surrender" in game.legal_actions(0)
    game.apply(Decide(seat=0, decision="surrender"))
    events = list(game.apply(Decide(seat=1, decision="house-way")))
    s0 = settled(events, seat=0)
    assert (s0.result, s0.net, s0.note) == ("lose", -1000, "surrendered before the reveal")
    shown = {str(e.card) for e in events if isinstance(e, CardShown)}
    assert not shown & set(PLAYER.split())  # page 002: not exposed to the other players
    assert "As" not in repr(game.view(1)) and "As" in repr(game.view(0))
    s1 = settled(events, seat=1)
    assert s1.commission == 0  # page 002 pays even money and names no commission


def test_surrender_is_refused_where_the_page_has_none(deal: Feed) -> None:
    game = start("pai-gow-pinnacle", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    assert "surrender" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="has no surrender"):
        game.apply(Decide(seat=0, decision="surrender"))
