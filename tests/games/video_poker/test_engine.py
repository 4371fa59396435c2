"""The video poker round: page 001's machines and the README's base table, played hand by hand.

Cards and positions are fed as the runtime feeds them (``DealCard`` from a shoe,
``StartPosition`` for the fruit deck, the reel and the double-up), so each test fixes the
outcome and checks what the rules make of it.
"""

from __future__ import annotations

import pytest

from games.core.cards import Card
from games.core.engine import GameContext, NeedKind
from games.core.errors import BetRefused, IllegalAction, PaytableError
from games.core.records import Deal, DealCard, Decide, PlaceBet, StartPosition
from games.video_poker import VARIANTS, new_game
from games.video_poker.carry import FruitCarry, Machine
from games.video_poker.engine import VideoPokerRound
from games.video_poker.rules import SYMBOLS, loads

JOB, MYSTERY, ESP = VARIANTS


def deal(e: VideoPokerRound, cards: str) -> None:
    for c in cards.split():
        e.apply(DealCard(card=Card.parse(c)))


def position_of(e: VideoPokerRound, symbol: str, deck: tuple[int, ...] | None = None) -> int:
    """The 1-based position of the first ``symbol`` among the cards left (symbol order)."""
    deck = deck if deck is not None else e._deck
    i = SYMBOLS.index(symbol)
    assert deck[i] > 0
    return sum(deck[:i]) + 1


def fruit(e: VideoPokerRound, symbols: str) -> None:
    for s in symbols.split():
        e.apply(StartPosition(position=position_of(e, s)))


def test_jacks_or_better_is_the_readme_table() -> None:
    pays = {line.hand: line.pays for line in JOB.rules.lines}
    assert pays["royal-flush"] == (250, 500, 750, 1000, 4000)
    assert [pays[h][0] for h in ("straight-flush", "four-of-a-kind", "full-house", "flush")] == [
        50,
        25,
        9,
        6,
    ]
    assert [pays[h][0] for h in ("straight", "three-of-a-kind", "two-pair", "jacks-or-better")] == [
        4,
        3,
        2,
        1,
    ]
    assert JOB.decks == 1 and JOB.new_shoe_each_game and JOB.seats == 1


def test_a_hand_dealt_held_changed_drawn_and_paid() -> None:
    e = new_game(JOB)
    e.apply(PlaceBet(seat=0, bet="coin-25", amount=125))  # five quarters
    e.apply(Deal(seat=0))
    deal(e, "Jh Jd 4s 7c 9h")
    assert e.view(0)["auto_hold"] == [1, 2]  # the machine holds the pair of jacks
    e.apply(Decide(seat=0, decision="draw", arg="1 2 5"))  # the player keeps the 9 too
    assert e.needs() is not None and e.needs().kind is NeedKind.CARD
    deal(e, "Js 2c")
    assert e.cards == ["Jh", "Jd", "Js", "2c", "9h"]
    s = e.settlements[0]
    assert e.is_over and e.line == "three-of-a-kind"
    assert (s.stake, s.returned) == (125, 15 * 25)  # 15 credits for 5 coins


def test_five_coin_royal_pays_4000_and_a_loss_pays_nothing() -> None:
    e = new_game(JOB)
    e.apply(PlaceBet(seat=0, bet="coin-100", amount=500))
    e.apply(Deal(seat=0))
    deal(e, "Ah Kh Qh Jh Th")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))
    assert e.settlements[0].returned == 4000 * 100
    e = new_game(JOB)
    e.apply(PlaceBet(seat=0, bet="coin-25", amount=25))
    e.apply(Deal(seat=0))
    deal(e, "2h 5d 9s Tc 3h")
    e.apply(Decide(seat=0, decision="draw", arg=""))
    deal(e, "4c 6d 8h Kd 7s")
    assert e.settlements[0].returned == 0 and e.line is None


@pytest.mark.parametrize(
    ("bet", "amount", "why"),
    [
        ("coin-25", 150, "at most 5 coins"),
        ("coin-10", 10, "no credit value"),
        ("coin-25", 30, "whole coins"),
    ],
)
def test_bad_bets_are_refused_and_change_nothing(bet: str, amount: int, why: str) -> None:
    e = new_game(JOB)
    with pytest.raises(BetRefused, match=why):
        e.apply(PlaceBet(seat=0, bet=bet, amount=amount))
    assert not e.book


def test_one_credit_value_a_hand() -> None:
    e = new_game(JOB)
    e.apply(PlaceBet(seat=0, bet="coin-25", amount=25))
    with pytest.raises(BetRefused, match="one credit value"):
        e.apply(PlaceBet(seat=0, bet="coin-100", amount=100))


def test_forged_cards_and_holds_are_refused() -> None:
    e = new_game(JOB)
    e.apply(PlaceBet(seat=0, bet="coin-25", amount=25))
    with pytest.raises(IllegalAction):
        e.apply(DealCard(card=Card.parse("Ah")))  # before the deal
    e.apply(Deal(seat=0))
    with pytest.raises(IllegalAction, match="from the machine"):
        e.apply(DealCard(seat=0, card=Card.parse("Ah")))  # a player dealing himself a card
    deal(e, "Ah Kd 4s 7c 9h")
    for arg in ("0", "6", "1 1", "x"):
        with pytest.raises(IllegalAction, match="positions 1 to 5"):
            e.apply(Decide(seat=0, decision="draw", arg=arg))
    e.apply(Decide(seat=0, decision="draw", arg="1"))
    with pytest.raises(IllegalAction, match="already dealt"):
        e.apply(DealCard(card=Card.parse("Kd")))  # a discarded card cannot come back
    with pytest.raises(IllegalAction, match="joker"):
        e.apply(DealCard(card=Card.from_index(52)))
    assert e.cards[1] == "Kd" and e.phase == "drawing"


def test_an_absent_player_draws_on_the_machine_hold() -> None:
    e = new_game(JOB)
    e.apply(PlaceBet(seat=0, bet="coin-25", amount=25))
    e.apply(Deal(seat=0))
    deal(e, "Qh Qd 4s 7c 9h")
    assert e.default_action(0) == Decide(seat=0, decision="draw", arg="1 2")


def test_the_mystery_reel_raises_its_line_for_the_hand() -> None:
    rules = MYSTERY.rules
    e = new_game(MYSTERY)
    e.apply(PlaceBet(seat=0, bet="coin-25", amount=125))
    e.apply(Deal(seat=0))
    need = e.needs()
    assert need is not None and need.kind is NeedKind.POSITION and need.count == rules.reel_weight
    e.apply(StartPosition(position=1))  # the first stop: flush pays 8, full house 6
    view = e.view(0)
    assert view["mystery"] is not None and view["mystery"]["raised"] == "flush"
    rows = {r["hand"]: r for r in view["paytable"]}
    assert rows["flush"]["raised"] and rows["flush"]["pays"][4] == 40
    assert rows["full-house"]["adjusted"] and rows["full-house"]["pays"][4] == 30
    deal(e, "2h 5h 9h Th 3h")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))
    assert e.settlements[0].returned == 40 * 25
    last = rules.reel_weight
    assert rules.stop_at(last) is rules.mystery[-1]
    with pytest.raises(ValueError, match="past the strip"):
        rules.stop_at(last + 1)


def esp_hand(carry: FruitCarry | None = None, coins: int = 10) -> VideoPokerRound:
    e = VideoPokerRound(ESP, carry)
    e.apply(PlaceBet(seat=0, bet="coin-25", amount=25 * coins))
    e.apply(Deal(seat=0))
    return e


def test_fruit_deck_shuffled_on_entry_then_kept_between_losing_hands() -> None:
    e = esp_hand()
    assert e.shuffled == ["entry"] and e.deck_left() == 141
    fruit(e, "bell watermelon plum lemon bar")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))  # no win, no two cherries
    assert e.settlements[0].returned == 0
    assert e.view(0)["deck_left"] == 136
    nxt = new_game(ESP, context=GameContext(previous=e))
    nxt.apply(PlaceBet(seat=0, bet="coin-25", amount=250))
    nxt.apply(Deal(seat=0))
    assert nxt.shuffled == [] and nxt.deck_left() == 136
    other = new_game(ESP, context=GameContext(previous=e))  # another bet: its own deck
    other.apply(PlaceBet(seat=0, bet="coin-25", amount=25))
    other.apply(Deal(seat=0))
    assert other.shuffled == ["entry"] and other.deck_left() == 141
    logged = new_game(ESP, context=GameContext(carry=e.carry().encode()))  # replay path
    assert logged.machines == nxt.machines
    fresh = new_game(ESP, context=GameContext(previous=e, new_players=frozenset({0})))
    assert fresh.machines == {}


def test_fruit_deck_shuffled_at_25_cards_or_fewer_and_after_a_win() -> None:
    low = (0, 0, 0, 0, 0, 5, 10, 10)  # 25 cards left
    e = esp_hand(FruitCarry({"25x10": Machine(deck=low)}))
    assert e.shuffled == ["low"] and e.deck_left() == 141
    e = esp_hand()
    fruit(e, "plum plum plum bell lemon")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))
    assert e.win == 10 * 25  # three of a kind, 10 coins: 10 credits
    assert "win" in e.shuffled and e.machines["25x10"].deck == ESP.rules.fruit.counts()


def test_double_up_won_then_lost_with_half_gamble() -> None:
    e = esp_hand()
    fruit(e, "plum plum plum bell lemon")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))
    assert e.phase == "double-up" and e.legal_actions(0) >= {"high", "low", "half", "collect"}
    du = e.view(0)["double_up"]
    assert du is not None and du["high_left"] == du["low_left"] == 71 and du["cards_left"] == 141
    e.apply(Decide(seat=0, decision="high"))
    deck = e._double_deck
    e.apply(StartPosition(position=position_of(e, "bell", deck)))  # High wins
    assert e.at_risk == 500 and e.double_wins == 1
    du = e.view(0)["double_up"]
    assert du is not None and du["high_left"] == 70 and du["low_left"] == 71
    e.apply(Decide(seat=0, decision="half"))
    assert (e.banked, e.at_risk) == (250, 250)
    e.apply(Decide(seat=0, decision="low"))
    e.apply(StartPosition(position=position_of(e, "lemon", e._double_deck)))  # Low loses
    s = e.settlements[0]
    assert e.is_over and s.returned == 250  # the half sent to the credits


def test_joker_wins_either_call_and_five_wins_collect() -> None:
    e = esp_hand()
    fruit(e, "plum plum plum bell lemon")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))
    e.apply(Decide(seat=0, decision="low"))
    e.apply(StartPosition(position=1))  # the joker
    assert e.double_cards[-1] == {"call": "low", "card": "joker", "won": True}
    for _ in range(4):
        e.apply(Decide(seat=0, decision="low"))
        e.apply(StartPosition(position=position_of(e, "diamond", e._double_deck)))
    assert e.is_over and e.settlements[0].returned == 250 * 32  # doubled five times


def test_cherry_bonus_fills_the_meter_and_shuffles() -> None:
    hits = ESP.rules.fruit.cherry_hits
    e = esp_hand(FruitCarry({"25x10": Machine(deck=ESP.rules.fruit.counts(), cherry=hits - 1)}))
    fruit(e, "cherry cherry bell lemon bar")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))
    assert e.bonuses == {"cherry": ESP.rules.fruit.cherry_bonus[9] * 25}
    assert "cherry-bonus" in e.shuffled and e.machines["25x10"].cherry == 0
    e.apply(Decide(seat=0, decision="collect"))
    assert e.settlements[0].returned == e.bonuses["cherry"]


def test_fruit_bonus_once_all_four_fruits_are_collected() -> None:
    have = ("plum", "watermelon", "bell")
    e = esp_hand(FruitCarry({"25x10": Machine(deck=ESP.rules.fruit.counts(), collected=have)}))
    fruit(e, "cherry cherry cherry cherry lemon")
    e.apply(Decide(seat=0, decision="draw", arg="1 2 3 4 5"))
    assert e.bonuses["fruit"] == ESP.rules.fruit.fruit_bonus[9] * 25
    assert e.machines["25x10"].collected == ()


def test_fruit_positions_out_of_range_are_refused() -> None:
    e = esp_hand()
    with pytest.raises(IllegalAction, match=r"1\.\.141"):
        e.apply(StartPosition(position=142))
    with pytest.raises(IllegalAction, match="by position"):
        e.apply(DealCard(card=Card.parse("Ah")))


def test_bad_tables_are_one_line_errors() -> None:
    from games.core.tomlread import packaged

    text, _ = packaged("games.video_poker", "european_slot_poker")
    with pytest.raises(PaytableError, match="deck"):
        loads(text.replace("joker = 1, ", ""), "x.toml")
    with pytest.raises(PaytableError, match="pays must be 10"):
        loads(text.replace("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "[1, 2]"), "x.toml")
    text, _ = packaged("games.video_poker", "mystery_bonus")
    with pytest.raises(PaytableError, match="raise"):
        loads(text.replace('raise = "flush"', 'raise = "five-aces"'), "x.toml")


def test_the_shipped_long_run_is_of_todays_table() -> None:
    from games.video_poker import house_edge

    edges = house_edge(ESP)
    main = edges["main"]
    assert not main.exact and main.simulation is not None
    assert main.simulation.rounds >= 10_000_000
    assert main.simulation.low <= main.edge <= main.simulation.high


def test_the_floor_of_machines_plays_as_one_machine() -> None:
    """The vectorised long run (2,000 machines at once) and the one-player reference play
    the same rules: their returns over 20,000 hands agree within their errors."""
    from collections import Counter

    from games.sim import bet_statistics
    from games.video_poker.simulate import FruitPlayer, simulate

    player, tally = FruitPlayer(ESP.rules, 1, seed=3), Counter[int]()
    for _ in range(20_000):
        tally[sum(player.hand())] += 1
    one = bet_statistics(20_000, [(c - 1.0, n) for c, n in tally.items()])
    floor = simulate(ESP, 20_000, seed=4, coins=1).bets["main"]
    spread = (one.std_error**2 + floor.std_error**2) ** 0.5
    assert abs(one.mean - floor.mean) < 4 * spread
