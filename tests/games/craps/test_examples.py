"""Worked examples from the Pinnacle craps page, played through the engine."""

from __future__ import annotations

import pytest

from games.catalog import get_variant
from games.core import (
    BetPlaced,
    BetRefused,
    BetReturned,
    BetSettled,
    Decide,
    Event,
    IllegalAction,
    NeedKind,
    PlaceBet,
    RemoveBet,
    RollDice,
    RoundOver,
    decode,
)
from games.craps import CrapsGame, new_game

VARIANT = get_variant("craps-pinnacle")


def game() -> CrapsGame:
    return new_game(VARIANT)


def bet(g: CrapsGame, name: str, dollars: float, seat: int = 0) -> None:
    g.apply(PlaceBet(seat=seat, bet=name, amount=round(dollars * 100)))


def roll(g: CrapsGame, a: int, b: int) -> tuple[Event, ...]:
    g.apply(Decide(seat=0, decision="roll"))
    need = g.needs()
    assert need is not None
    assert need.kind is NeedKind.DICE
    assert need.count == 2
    return g.apply(RollDice(faces=(a, b)))


def settled(events: tuple[Event, ...], name: str) -> BetSettled:
    found = [e for e in events if isinstance(e, BetSettled) and e.bet == name]
    assert len(found) == 1, events
    return found[0]


def with_point(point: int, pass_amount: float = 10) -> CrapsGame:
    g = game()
    bet(g, "pass", pass_amount)
    roll(g, point - min(point - 1, 6), min(point - 1, 6))
    assert g.table_point == point
    return g


# --- the page's worked examples --------------------------------------------------


def test_horn_8_dollars_on_12_wins_60_net() -> None:
    g = game()
    bet(g, "horn", 8)
    ev = roll(g, 6, 6)
    s = settled(ev, "horn")
    assert (s.net, s.returned, s.result) == (6000, 6800, "win")


@pytest.mark.parametrize(
    ("dice", "net"),
    [((1, 1), 6000), ((1, 2), 2600), ((5, 6), 2600), ((3, 4), -800), ((4, 4), -800)],
)
def test_horn_pays_on_a_quarter_of_the_bet(dice: tuple[int, int], net: int) -> None:
    g = game()
    bet(g, "horn", 8)
    assert settled(roll(g, *dice), "horn").net == net


def test_world_10_dollars_on_12_wins_58_net_and_7_is_a_push() -> None:
    g = game()
    bet(g, "world", 10)
    assert settled(roll(g, 6, 6), "world").net == 5800
    g = game()
    bet(g, "world", 10)
    s = settled(roll(g, 3, 4), "world")
    assert (s.result, s.returned, s.net) == ("push", 1000, 0)
    g = game()
    bet(g, "world", 10)
    assert settled(roll(g, 1, 2), "world").net == 2400  # 12:1 on $2
    g = game()
    bet(g, "world", 10)
    assert settled(roll(g, 4, 4), "world").net == -1000


def test_horn_and_world_increments() -> None:
    g = game()
    with pytest.raises(BetRefused, match=r"steps of \$4\.00"):
        bet(g, "horn", 5)
    with pytest.raises(BetRefused, match=r"steps of \$5\.00"):
        bet(g, "world", 4)
    bet(g, "horn", 500)
    bet(g, "world", 500)
    with pytest.raises(BetRefused, match="maximum"):
        bet(g, "horn", 4)


@pytest.mark.parametrize(
    ("name", "dice", "stake", "net"),
    [
        ("hard-4", (2, 2), 2, 1500),  # 15 to 2
        ("hard-10", (5, 5), 10, 7500),
        ("hard-6", (3, 3), 2, 1900),  # 19 to 2
        ("hard-8", (4, 4), 10, 9500),
        ("hard-8", (3, 5), 10, -1000),  # easy way loses
        ("hard-6", (3, 4), 10, -1000),  # seven loses
    ],
)
def test_hardways_15_to_2_and_19_to_2(
    name: str, dice: tuple[int, int], stake: int, net: int
) -> None:
    g = with_point(5)
    bet(g, name, stake)
    assert settled(roll(g, *dice), name).net == net


def test_buy_commission_is_5_percent_of_the_bet_on_a_win_only() -> None:
    g = with_point(6)
    bet(g, "buy-4", 25)
    s = settled(roll(g, 1, 3), "buy-4")
    # 2:1 on $25 = $50, commission 5% of $25 = $1.25
    assert (s.returned, s.commission, s.net) == (7500, 125, 4875)
    g = with_point(6)
    bet(g, "buy-5", 1)
    s = settled(roll(g, 4, 3), "buy-5")
    assert (s.commission, s.net) == (0, -100)


@pytest.mark.parametrize(
    ("name", "dice", "win", "commission"),
    [
        ("lay-4", (3, 4), 50, 3),  # $0.50 win, 2.5 cents rounds to 3
        ("lay-6", (3, 4), 83, 4),  # 5:6 of $1 = 83.33 -> 83; 5% = 4.15 -> 4
        ("lay-5", (3, 4), 67, 3),  # 2:3 of $1 = 66.67 -> 67; 5% = 3.35 -> 3
    ],
)
def test_lay_commission_is_5_percent_of_the_win_rounded_to_the_cent(
    name: str, dice: tuple[int, int], win: int, commission: int
) -> None:
    g = game()
    bet(g, name, 1)
    s = settled(roll(g, *dice), name)
    assert (s.returned - s.stake, s.commission) == (win, commission)


@pytest.mark.parametrize(
    ("name", "stake", "dice", "net"),
    [
        ("place-win-6", 1, (2, 4), 117),  # 7:6 -> 1.1667
        ("place-win-8", 5, (4, 4), 583),  # 5.8333
        ("place-win-5", 1, (1, 4), 140),
        ("place-win-4", 1, (1, 3), 180),
        ("place-lose-4", 1, (3, 4), 45),  # 5:11 -> 0.4545
        ("place-lose-5", 1, (3, 4), 63),  # 5:8 -> 0.625 rounds up
        ("place-lose-6", 1, (3, 4), 80),
    ],
)
def test_wins_round_to_the_nearest_cent(
    name: str, stake: int, dice: tuple[int, int], net: int
) -> None:
    g = with_point(9)
    bet(g, name, stake)
    assert settled(roll(g, *dice), name).net == net


# --- odds -------------------------------------------------------------------------


@pytest.mark.parametrize(("point", "cap"), [(4, 30), (10, 30), (5, 40), (9, 40), (6, 50), (8, 50)])
def test_pass_odds_capped_at_3_4_5x(point: int, cap: int) -> None:
    g = with_point(point)
    with pytest.raises(BetRefused, match=f"at most {cap // 10}x"):
        bet(g, "pass-odds", cap + 1)
    bet(g, "pass-odds", cap)
    assert g.bets[0]["pass-odds"] == cap * 100


@pytest.mark.parametrize("point", [4, 5, 6, 8, 9, 10])
def test_dont_pass_odds_capped_at_6x_on_every_point(point: int) -> None:
    g = game()
    bet(g, "dont-pass", 10)
    roll(g, point - min(point - 1, 6), min(point - 1, 6))
    with pytest.raises(BetRefused, match="at most 6x"):
        bet(g, "dont-pass-odds", 61)
    bet(g, "dont-pass-odds", 60)


@pytest.mark.parametrize(
    ("point", "dice", "odds_win"), [(4, (2, 2), 2000), (5, (2, 3), 1500), (6, (1, 5), 1200)]
)
def test_pass_odds_pay_true_odds(point: int, dice: tuple[int, int], odds_win: int) -> None:
    g = with_point(point)
    bet(g, "pass-odds", 10)
    ev = roll(g, *dice)
    assert settled(ev, "pass-odds").net == odds_win
    assert settled(ev, "pass").net == 1000
    assert g.is_over


def test_dont_pass_odds_pay_1_to_2_on_4() -> None:
    g = game()
    bet(g, "dont-pass", 10)
    roll(g, 1, 3)
    bet(g, "dont-pass-odds", 12)
    ev = roll(g, 3, 4)
    assert settled(ev, "dont-pass-odds").net == 600
    assert settled(ev, "dont-pass").net == 1000


def test_odds_need_their_flat_bet() -> None:
    g = game()
    with pytest.raises(BetRefused, match="needs a pass line bet"):
        bet(g, "pass-odds", 10)
    g = with_point(4)
    with pytest.raises(BetRefused, match="needs a come 6 bet"):
        bet(g, "come-odds-6", 5)


# --- come bets travel, and their odds -----------------------------------------------


def test_come_bet_travels_to_its_point_and_takes_4x_odds() -> None:
    g = with_point(4)
    bet(g, "come", 10)
    ev = roll(g, 2, 3)
    assert g.bets[0]["come-5"] == 1000
    assert "come" not in g.bets[0]
    last = g.last_roll
    assert last is not None
    assert [(r.bet, r.result, r.moved_to) for r in last.resolved] == [("come", "moved", "come-5")]
    assert not [e for e in ev if isinstance(e, BetSettled)]
    with pytest.raises(BetRefused, match="at most 4x"):
        bet(g, "come-odds-5", 41)
    bet(g, "come-odds-5", 40)
    ev = roll(g, 1, 4)
    assert settled(ev, "come-5").net == 1000
    assert settled(ev, "come-odds-5").net == 6000


def test_come_odds_are_off_on_the_come_out_by_default() -> None:
    g = with_point(4)
    bet(g, "come", 10)
    roll(g, 4, 4)  # come -> 8
    bet(g, "come-odds-8", 10)
    roll(g, 2, 2)  # point 4 made: pass wins, table point off
    assert g.table_point is None
    ev = roll(g, 3, 4)  # come-out 7: come 8 loses, its odds are returned
    assert settled(ev, "come-8").result == "lose"
    assert [e for e in ev if isinstance(e, BetReturned)] == [
        BetReturned(seat=0, bet="come-odds-8", amount=1000)
    ]
    assert g.is_over


def test_come_odds_on_when_overridden() -> None:
    g = with_point(4)
    bet(g, "come", 10)
    roll(g, 4, 4)
    bet(g, "come-odds-8", 10)
    roll(g, 2, 2)
    g.apply(Decide(seat=0, decision="come-out-on", arg="come-odds"))
    ev = roll(g, 3, 4)
    assert settled(ev, "come-odds-8").result == "lose"


def test_dont_come_12_is_a_push_and_travels_otherwise() -> None:
    g = with_point(4)
    bet(g, "dont-come", 10)
    s = settled(roll(g, 6, 6), "dont-come")
    assert (s.result, s.returned) == ("push", 1000)
    bet(g, "dont-come", 10)
    roll(g, 3, 3)
    assert g.bets[0]["dont-come-6"] == 1000
    bet(g, "dont-come-odds-6", 60)
    ev = roll(g, 3, 4)
    assert settled(ev, "dont-come-6").net == 1000
    assert settled(ev, "dont-come-odds-6").net == 5000


# --- come-out On/Off defaults and overrides -------------------------------------------


def test_come_out_defaults_are_the_pages() -> None:
    g = game()
    assert g.working(0) == {
        "come-odds": False,
        "dont-come-odds": True,
        "place-win": False,
        "place-lose": True,
        "buy": False,
        "lay": True,
        "hard": False,
        "big": True,
    }
    g.apply(Decide(seat=0, decision="come-out-on", arg="buy"))
    g.apply(Decide(seat=0, decision="come-out-off", arg="big"))
    assert g.working(0)["buy"] is True
    assert g.working(0)["big"] is False
    bet(g, "field", 1)
    roll(g, 3, 4)
    assert g.is_over
    assert g.next_game().working(0) == g.working(0)  # the options carry to the next game


def test_dont_come_odds_working_by_default_on_the_come_out() -> None:
    g = with_point(4)
    bet(g, "dont-come", 10)
    roll(g, 4, 5)  # don't come -> 9
    bet(g, "dont-come-odds-9", 30)
    roll(g, 2, 2)  # point made, table point off
    ev = roll(g, 3, 4)  # come-out 7: don't come 9 and its (working) odds win
    assert settled(ev, "dont-come-9").net == 1000
    assert settled(ev, "dont-come-odds-9").net == 2000  # 2:3 on $30


def test_buy_bet_off_by_default_on_the_come_out() -> None:
    g = with_point(4)
    bet(g, "buy-10", 20)
    roll(g, 2, 2)
    ev = roll(g, 5, 5)  # no line bet: no table point, the off buy bet stays
    assert not [e for e in ev if isinstance(e, BetSettled)]
    assert g.bets[0] == {"buy-10": 2000}


def test_place_to_win_is_off_on_the_come_out_by_default_and_on_when_chosen() -> None:
    g = with_point(4)
    bet(g, "place-win-6", 6)
    roll(g, 1, 3)  # point made
    assert g.table_point is None
    ev = roll(g, 3, 4)  # come-out 7: place to win is off, stays
    assert g.bets[0] == {"place-win-6": 600}
    assert not [e for e in ev if isinstance(e, BetSettled)]
    g.apply(Decide(seat=0, decision="come-out-on", arg="place-win"))
    ev = roll(g, 3, 4)
    assert settled(ev, "place-win-6").result == "lose"


def test_off_place_bet_is_returned_when_its_number_becomes_the_table_point() -> None:
    g = with_point(4)
    bet(g, "place-win-6", 6)
    bet(g, "buy-8", 10)
    roll(g, 1, 3)
    bet(g, "pass", 10)  # a new line bet on the come-out
    ev = roll(g, 2, 4)
    assert g.table_point == 6
    assert BetReturned(seat=0, bet="place-win-6", amount=600) in ev
    assert g.bets[0] == {"pass": 1000, "buy-8": 1000}


def test_off_place_bet_stays_when_no_line_bet_sets_a_point() -> None:
    g = with_point(4)
    bet(g, "place-win-6", 6)
    roll(g, 1, 3)
    roll(g, 2, 4)
    assert g.table_point is None
    assert g.bets[0] == {"place-win-6": 600}


@pytest.mark.parametrize(
    ("name", "arg", "dice", "default_result"),
    [
        ("place-lose-6", "place-lose", (3, 4), "win"),
        ("lay-6", "lay", (3, 4), "win"),
        ("big-6", "big", (3, 3), "win"),
    ],
)
def test_working_by_default_and_off_when_chosen(
    name: str, arg: str, dice: tuple[int, int], default_result: str
) -> None:
    g = game()
    bet(g, name, 10)
    assert settled(roll(g, *dice), name).result == default_result
    g = game()
    bet(g, name, 10)
    g.apply(Decide(seat=0, decision="come-out-off", arg=arg))
    ev = roll(g, *dice)
    assert not [e for e in ev if isinstance(e, BetSettled)]
    assert g.bets[0] == {name: 1000}


def test_hardways_are_off_on_the_come_out_by_default() -> None:
    g = with_point(4)
    bet(g, "hard-6", 5)
    roll(g, 1, 3)
    ev = roll(g, 3, 3)  # come-out hard 6: off, stays
    assert g.bets[0] == {"hard-6": 500}
    assert not [e for e in ev if isinstance(e, BetSettled)]
    g.apply(Decide(seat=0, decision="come-out-on", arg="hard"))
    assert settled(roll(g, 3, 3), "hard-6").net == 4750


def test_every_bet_off_means_rolls_change_nothing() -> None:
    g = game()
    bet(g, "place-lose-6", 10)
    g.apply(Decide(seat=0, decision="come-out-off", arg="place-lose"))
    for dice in [(3, 4), (3, 3), (1, 1), (6, 6)]:
        roll(g, *dice)
    assert g.bets[0] == {"place-lose-6": 1000}
    assert not g.is_over


# --- what may be placed and removed when -------------------------------------------------


def test_pass_line_cannot_be_removed_once_a_point_is_set() -> None:
    g = game()
    bet(g, "pass", 10)
    g.apply(RemoveBet(seat=0, bet="pass", amount=500))  # before the come-out roll: fine
    assert g.bets[0] == {"pass": 500}
    roll(g, 2, 2)
    with pytest.raises(BetRefused, match="cannot be removed once the table point is set"):
        g.apply(RemoveBet(seat=0, bet="pass"))
    with pytest.raises(BetRefused, match="no table point"):
        bet(g, "pass", 5)


def test_come_bet_on_a_number_cannot_be_removed() -> None:
    g = with_point(4)
    bet(g, "come", 10)
    roll(g, 3, 3)
    with pytest.raises(BetRefused, match="resolved only by its come point or a 7"):
        g.apply(RemoveBet(seat=0, bet="come-6"))


def test_dont_pass_may_come_down_after_the_point_and_not_go_back_up() -> None:
    g = game()
    bet(g, "dont-pass", 10)
    roll(g, 2, 2)
    bet(g, "dont-pass-odds", 60)
    with pytest.raises(BetRefused, match="reduce the odds first"):
        g.apply(RemoveBet(seat=0, bet="dont-pass", amount=500))
    with pytest.raises(BetRefused, match="only when there is no table point"):
        bet(g, "dont-pass", 5)
    ev = g.apply(RemoveBet(seat=0, bet="dont-pass"))
    assert ev[:2] == (
        BetReturned(seat=0, bet="dont-pass", amount=1000),
        BetReturned(seat=0, bet="dont-pass-odds", amount=6000),
    )
    assert isinstance(ev[-1], RoundOver)
    assert g.is_over
    nxt = g.next_game()
    assert nxt.table_point is None
    bet(nxt, "dont-pass", 10)


def test_place_and_buy_need_a_point_and_never_on_the_table_point() -> None:
    g = game()
    with pytest.raises(BetRefused, match="only when there is a table point"):
        bet(g, "place-win-6", 6)
    with pytest.raises(BetRefused, match="only when there is a table point"):
        bet(g, "hard-8", 5)
    with pytest.raises(BetRefused, match="only when there is a table point"):
        bet(g, "come", 5)
    bet(g, "place-lose-6", 6)  # place to lose and lay: any time
    bet(g, "lay-10", 10)
    g = with_point(6)
    with pytest.raises(BetRefused, match="cannot be placed on the table point 6"):
        bet(g, "place-win-6", 6)
    with pytest.raises(BetRefused, match="cannot be placed on the table point 6"):
        bet(g, "buy-6", 6)
    bet(g, "place-win-8", 6)


def test_standing_place_bet_may_grow_on_the_come_out() -> None:
    g = with_point(4)
    bet(g, "place-win-6", 6)
    roll(g, 2, 2)
    bet(g, "place-win-6", 6)
    assert g.bets[0] == {"place-win-6": 1200}


def test_500_dollar_maximum_per_bet_but_not_on_odds() -> None:
    g = game()
    bet(g, "pass", 500)
    with pytest.raises(BetRefused, match=r"the maximum bet is \$500\.00"):
        bet(g, "pass", 1)
    roll(g, 3, 3)
    bet(g, "pass-odds", 2500)  # 5x on 6: above $500, allowed
    with pytest.raises(BetRefused, match=r"steps of \$1\.00"):
        bet(g, "field", 0.5)


def test_refused_action_changes_nothing() -> None:
    g = with_point(6)
    before = g.view(0)
    for action in [
        PlaceBet(seat=0, bet="place-win-6", amount=600),
        PlaceBet(seat=0, bet="no-such-bet", amount=100),
        PlaceBet(seat=0, bet="field", amount=150),
        RemoveBet(seat=0, bet="pass"),
        RemoveBet(seat=0, bet="field"),
        RollDice(faces=(3, 4)),
        Decide(seat=0, decision="come-out-on", arg="pass"),
        PlaceBet(seat=3, bet="field", amount=100),
    ]:
        assert not g.can(action)
        with pytest.raises(IllegalAction):
            g.verify(action)
        with pytest.raises(IllegalAction):
            g.apply(action)
        assert g.view(0) == before


def test_dice_are_checked() -> None:
    g = game()
    bet(g, "field", 5)
    g.apply(Decide(seat=0, decision="roll"))
    assert g.legal_actions(0) == frozenset()
    for faces in [(0, 3), (3, 7), (1, 2, 3), (4,)]:
        with pytest.raises(IllegalAction, match="two dice showing 1-6"):
            g.apply(RollDice(faces=faces))
    with pytest.raises(IllegalAction, match="dice are rolling"):
        bet(g, "field", 5)


def test_roll_needs_bets() -> None:
    g = game()
    assert "roll" not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="only when bets are on the table"):
        g.apply(Decide(seat=0, decision="roll"))


# --- the crap game and "What just happened?" ------------------------------------------


def test_a_crap_game_can_be_a_single_roll() -> None:
    g = game()
    bet(g, "pass", 10)
    ev = roll(g, 1, 1)
    assert settled(ev, "pass").net == -1000
    assert g.is_over
    assert isinstance(ev[-1], RoundOver)
    with pytest.raises(IllegalAction, match="over"):
        bet(g, "pass", 10)
    assert g.game_result(0) == -1000
    assert g.bet_amount(0) == 1000


def test_a_crap_game_spans_come_out_and_point_rolls_until_no_bets_remain() -> None:
    g = game()
    bet(g, "pass", 10)
    roll(g, 2, 3)
    assert not g.is_over
    bet(g, "place-win-8", 6)
    roll(g, 4, 4)
    assert not g.is_over  # pass still up on the 5
    assert g.bet_amount(0) == 600
    roll(g, 1, 4)  # point made
    assert g.table_point is None
    assert g.is_over
    assert g.game_result(0) == 700 + 1000
    assert len(g.history) == 3
    with pytest.raises(IllegalAction, match="still running"):
        game().next_game()


def test_what_just_happened_lists_every_resolution_with_win_amounts() -> None:
    g = game()
    bet(g, "pass", 10)
    bet(g, "field", 5)
    bet(g, "horn", 4)
    bet(g, "place-lose-4", 11)
    roll(g, 1, 1)
    report = g.last_roll
    assert report is not None
    assert (report.roll, report.dice, report.total, report.come_out) == (1, (1, 1), 2, True)
    rows = {r.bet: (r.result, r.win) for r in report.resolved}
    assert rows == {"pass": ("lose", -1000), "field": ("win", 1000), "horn": ("win", 3000)}
    assert report.bets_remaining == 1100
    view = g.view(0)
    assert view["what_just_happened"]["resolved"][1]["win"] == 1000
    assert view["puck"] == "OFF"


def test_view_is_json_and_public_view_lists_seats() -> None:
    import json

    g = new_game(VARIANT, seats=2)
    bet(g, "field", 5, seat=1)
    public = g.view(None)
    assert public["bets"] == {"0": {}, "1": {"field": 500}}
    json.dumps(g.view(1))


def test_actions_replay_from_the_log() -> None:
    g = game()
    log = [
        PlaceBet(seat=0, bet="pass", amount=1000),
        Decide(seat=0, decision="roll"),
        RollDice(faces=(2, 4)),
        PlaceBet(seat=0, bet="pass-odds", amount=5000),
        PlaceBet(seat=0, bet="come", amount=500),
        Decide(seat=0, decision="roll"),
        RollDice(faces=(4, 5)),
        Decide(seat=0, decision="roll"),
        RollDice(faces=(3, 4)),
    ]
    events = [e for a in log for e in g.apply(a)]
    again = game()
    replayed = [e for a in log for e in again.apply(decode(a.encode()))]  # type: ignore[arg-type]
    assert replayed == events
    assert again.is_over
    assert sum(e.amount for e in events if isinstance(e, BetPlaced)) == 6500
