"""Issue 14's pai gow rules, each as its page prints it (``shared/rules/*.txt``).

Fortune's collection in place of a commission (004), fouls lost on the land and
California tables and set again online (002, 004, 001, 000, 003), no house-way
button online (001), and a Fortune player's second seat played the house way (004).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games.pai_gow as pg
from games.core.engine import GameContext
from games.core.errors import FoulHand, IllegalAction
from games.core.records import BetSettled, Deal, Decide, Message, PlaceBet
from games.pai_gow.engine import PaiGowRound, Phase
from games.pai_gow.house_way import house_way
from games.pai_gow.rules import ExtraHands, Foul

get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__

Feed = Callable[..., list[Any]]
PLAYER = "As Kd Qh Qc 7s 7d 2c"
FOUL = "Qh Qc|As Kd 7s 7d 2c"  # queens in front of sevens: the low hand ranks above
DEALER = "Jh Jd 9s 6c 4h 3d Kc"  # a pair of jacks, K-9 in front
WEAK = "9h 8d 5s 4c 3s 2d Jc"  # no pair: the foul setting above would beat it both ways
OTHER = "2h 3h 4d 6s 8c Tc Qd"


def start(variant_id: str, bets: dict[int, dict[str, int]], seats: int = 1) -> PaiGowRound:
    game = pg.new_game(get_variant(variant_id), seats)
    for seat, spots in bets.items():
        for bet, amount in spots.items():
            game.apply(PlaceBet(seat=seat, bet=bet, amount=amount))
    game.apply(Deal(seat=0))
    return game


def settled(events: list[Any], bet: str = "main", seat: int = 0) -> BetSettled:
    return next(e for e in events if isinstance(e, BetSettled) and e.bet == bet and e.seat == seat)


# --- point 2: Fortune takes a collection, not a commission ---------------------------


def test_fortune_win_pays_even_money_with_no_commission(deal: Feed) -> None:
    """004, Fortune Pai Gow Poker, THE PLAY: "Begin by placing a bet on a betting circle
    that is within the table limits and paying the appropriate collection." A California
    collection is a fee per hand, not a commission: a $10 win nets $10 (it netted $9.50)."""
    game = start("pai-gow-fortune", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    s = settled(list(game.apply(Decide(seat=0, decision="set", arg="As Kd|Qh Qc 7s 7d 2c"))))
    assert (s.result, s.returned, s.commission, s.net) == ("win", 2000, 0, 1000)
    assert "commission" not in s.note
    variant = get_variant("pai-gow-fortune")
    assert variant.rules.commission_bp == 0
    assert any("collection" in n and "replaces the commission" in n for n in variant.notes)


# --- point 3: fouls lose on the land and California tables -----------------------------


def test_land_foul_loses_the_wager_even_against_a_weaker_dealer(deal: Feed) -> None:
    """002, The Hands: "Any player's hand that is set incorrectly automatically loses."
    and 001, Physical vs. Online: "Physical: Splitting the seven-card hand incorrectly so
    the two-card hand has a higher poker rank than the five-card hand forfeits the game."
    """
    game = start("pai-gow-land", {0: {"main": 1000}, 1: {"main": 500}}, seats=2)
    deal(game, PLAYER + " " + OTHER + " " + WEAK)
    assert game.can(Decide(seat=0, decision="set", arg=FOUL))  # played, not refused
    game.apply(Decide(seat=0, decision="set", arg=FOUL))
    assert "foul" not in repr(game.view(1))  # nothing is told before the reveal
    events = list(game.apply(Decide(seat=1, decision="house-way")))
    s = settled(events)
    assert (s.result, s.returned, s.net) == ("lose", 0, -1000)
    assert s.note.startswith("foul hand (the low hand (pair of queens) ranks above")
    assert "a hand set incorrectly loses its wager" in s.note
    assert str(game.setting(0)) in game.view(1)["hands"].values()  # shown as it was set


def test_fortune_foul_loses_the_main_wager_and_keeps_the_bonus_on_the_seven_cards(
    deal: Feed,
) -> None:
    """004, Fortune Game Rules: "If a Player's hand is set with the low hand having a
    higher value than the high hand it will be a fouled hand. A fouled hand will result
    in loss of wager." The Fortune bonus is on the seven cards, not the setting: "Players
    do not have to set their bonus hand as their high hand in order to receive the bonus
    payout." """
    game = start("pai-gow-fortune", {0: {"main": 1000, "fortune": 500}})
    flush = "Ah Kh Qh Th 6h 6c 2s"  # a flush (3:1) with a pair of sixes
    deal(game, flush + " " + WEAK)
    events = list(game.apply(Decide(seat=0, decision="set", arg="6h 6c|Ah Kh Qh Th 2s")))
    main, bonus = settled(events), settled(events, "fortune")
    assert (main.result, main.net) == ("lose", -1000) and main.note.startswith("foul hand")
    assert (bonus.result, bonus.net, bonus.note) == ("win", 1500, "flush pays 3:1")


def test_a_foul_player_banker_loses_to_every_hand_set_correctly(deal: Feed) -> None:
    """002, The Hands: "Any player's hand that is set incorrectly automatically loses."
    The player-banker is a player: its foul hands lose to every wager against them (and
    to the house's wager), and a player's own foul still loses to it."""
    land = get_variant("pai-gow-land")
    first = pg.new_game(land, 3)
    for seat in (0, 1, 2):
        first.apply(PlaceBet(seat=seat, bet="main", amount=1000))
    first.apply(Deal(seat=0))
    deal(first, PLAYER + " " + OTHER + " " + "5h 5d 8h 9d Js Qs Ks " + DEALER)
    for seat in (0, 1, 2):
        first.apply(Decide(seat=seat, decision="house-way"))
    game = pg.new_game(land, 3, context=GameContext(previous=first))
    game.apply(Decide(seat=0, decision="bank", arg="100000 1000"))
    game.apply(PlaceBet(seat=1, bet="main", amount=1000))
    game.apply(PlaceBet(seat=2, bet="main", amount=2000))
    game.apply(Deal(seat=1))
    deal(game, PLAYER + " " + OTHER + " " + "5h 5d 8h 9d Js Qs Ks " + DEALER)
    game.apply(Decide(seat=0, decision="set", arg=FOUL))  # the Banker fouls
    game.apply(Decide(seat=1, decision="house-way"))
    events = list(game.apply(Decide(seat=2, decision="set", arg="5h 5d|8h 9d Js Qs Ks")))
    s1, s2 = settled(events, seat=1), settled(events, seat=2)
    assert (s1.result, s1.net) == ("win", 1000)  # 2-3 high beats a foul Banker
    assert "the Banker's hands are foul" in s1.note
    assert (s2.result, s2.net) == ("lose", -2000)  # its own foul loses even so
    bank = settled(events, "bank")
    assert game.house_result == 1000  # the house's wager beats the foul bank
    assert bank.net == -1000 + 2000 - 1000
    assert any(isinstance(e, Message) and "hands are foul" in e.text for e in events)


@pytest.mark.parametrize(
    ("vid", "page_line"),
    [
        ("pai-gow-pinnacle", "000: the game will prompt the Player to re-build their hands"),
        ("pai-gow-online", "001: Online: The player may re-split the hand."),
        ("pai-gow-bonus", "003: The system informs you if your Low Hand selection is invalid."),
    ],
)
def test_online_tables_refuse_a_foul_and_ask_for_it_again(
    deal: Feed, vid: str, page_line: str
) -> None:
    """000, Game Details: "If it does not, then their hands are determined to be "Foul",
    and the game will prompt the Player to re-build their hands."; 001, Online: "The
    player may re-split the hand. The game only continues when the five-card hand has a
    higher poker rank than the two-card hand."; 003: "The system informs you if your Low
    Hand selection is invalid." """
    assert get_variant(vid).rules.foul is Foul.RESET, page_line
    game = start(vid, {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    with pytest.raises(FoulHand, match="foul hand, set it again"):
        game.apply(Decide(seat=0, decision="set", arg=FOUL))
    assert not game.is_over and game.phase is Phase.SETTING


def test_foul_is_table_data() -> None:
    """002 "automatically loses" and 004 "loss of wager" (loses); 000, 001 and 003 ask for
    the hand again (reset): the TOML's ``[rules] foul``."""
    assert {v.id: str(v.rules.foul) for v in pg.VARIANTS} == {
        "pai-gow-pinnacle": "reset",
        "pai-gow-online": "reset",
        "pai-gow-bonus": "reset",
        "pai-gow-fortune": "loses",
        "pai-gow-land": "loses",
    }


def test_a_malformed_setting_is_refused_even_where_fouls_are_played(deal: Feed) -> None:
    """002: a foul is a setting of the seven cards with the low hand above; cards that are
    not the seven dealt, or not two and five, are no setting at all and are refused."""
    game = start("pai-gow-land", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    with pytest.raises(FoulHand, match="exactly the seven cards"):
        game.apply(Decide(seat=0, decision="set", arg="Qh Qc|As Kd 7s 7d 3c"))
    with pytest.raises(FoulHand, match="2 cards and the high hand 5"):
        game.apply(Decide(seat=0, decision="set", arg="Qh|Qc As Kd 7s 7d 2c"))


# --- point 4: no house-way button online ------------------------------------------------


def test_online_offers_no_house_way_and_refuses_it(deal: Feed) -> None:
    """001, Physical vs. Online: "Physical: The player can ask the house for help when
    deciding how to split the hand." / "Online: The online version does not support
    asking the house for help." """
    game = start("pai-gow-online", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    assert game.legal_actions(0) == frozenset({"set"})
    assert game.view(0)["legal"] == ["set"]  # the table page draws its buttons from this
    with pytest.raises(IllegalAction, match="no house-way button"):
        game.apply(Decide(seat=0, decision="house-way"))
    for vid in ("pai-gow-pinnacle", "pai-gow-bonus", "pai-gow-fortune", "pai-gow-land"):
        other = start(vid, {0: {"main": 1000}})
        deal(other, PLAYER + " " + DEALER)
        assert "house-way" in other.legal_actions(0), vid


def test_online_absent_seat_still_gets_the_house_way_as_a_plain_set(deal: Feed) -> None:
    """001: "The online version does not support asking the house for help." The rules'
    default for a seat that does not act is still the house way (the action clock, an
    empty chair): a ``set`` of the house-way setting, which no player is refused."""
    game = start("pai-gow-online", {0: {"main": 1000}})
    deal(game, PLAYER + " " + DEALER)
    default = game.default_action(0)
    assert isinstance(default, Decide) and default.decision == "set"
    expected = house_way(game.hand(0), game.rules.joker, game.rules.wheel_second)
    assert default.arg == str(expected)
    game.apply(default)
    assert game.is_over and game.setting(0) == expected
    assert game.default_action(0) is None


# --- point 5: a Fortune player's several seats -------------------------------------------


def test_fortune_second_seat_of_a_player_plays_the_house_way(deal: Feed) -> None:
    """004, Fortune Game Rules: "If a Player chooses to play multiple hands they may only
    set the first hand that is viewed. Their other hands will be played "house way"."
    Which seats are one player's comes from the runtime, logged before the deal."""
    variant = get_variant("pai-gow-fortune")
    assert variant.rules.extra_hands is ExtraHands.HOUSE_WAY
    game = pg.new_game(variant, 3)
    for seat in (0, 1, 2):
        game.apply(PlaceBet(seat=seat, bet="main", amount=1000))
    same = Decide(seat=None, decision="same-player", arg="2 0")
    events = list(game.apply(same))
    assert any(isinstance(e, Message) and "seats 0, 2 are one player's" in e.text for e in events)
    game.apply(Deal(seat=0))
    third = "5h 5d 8h 9d Js Qs Ks"
    events = deal(game, PLAYER + " " + OTHER + " " + third + " " + DEALER)
    expected = house_way(game.hand(2), variant.rules.joker, variant.rules.wheel_second)
    assert game.setting(2) == expected  # set by the dealer, the house way
    assert game.legal_actions(2) == frozenset()
    assert any(isinstance(e, Message) and "seat 2 is its player's second" in e.text for e in events)
    assert "set" in game.legal_actions(0) and "set" in game.legal_actions(1)
    game.apply(Decide(seat=0, decision="set", arg="As Kd|Qh Qc 7s 7d 2c"))
    game.apply(Decide(seat=1, decision="house-way"))
    assert game.is_over and len(game.settlements) == 3


def test_same_player_comes_only_from_the_runtime_and_before_the_deal(deal: Feed) -> None:
    """004: "they may only set the first hand that is viewed": the seats are the runtime's
    to name (a player's action always names its seat), once each, before the deal."""
    game = pg.new_game(get_variant("pai-gow-fortune"), 3)
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    with pytest.raises(IllegalAction):
        game.apply(Decide(seat=0, decision="same-player", arg="0 1"))
    for arg in ("0", "0 0", "0 7", "a b"):
        with pytest.raises(IllegalAction, match="same-player"):
            game.apply(Decide(seat=None, decision="same-player", arg=arg))
    game.apply(Decide(seat=None, decision="same-player", arg="0 1"))
    with pytest.raises(IllegalAction, match="seat 1 is already a player's"):
        game.apply(Decide(seat=None, decision="same-player", arg="1 2"))
    game.apply(Deal(seat=0))
    with pytest.raises(IllegalAction, match="before the deal"):
        game.apply(Decide(seat=None, decision="same-player", arg="0 2"))
    deal(game, PLAYER + " " + DEALER)
    assert "set" in game.legal_actions(0)  # seat 1 has no bet: seat 0 is the first hand


def test_other_tables_let_a_player_set_every_seat(deal: Feed) -> None:
    """002 names no such rule: a player holding two land seats sets both."""
    game = pg.new_game(get_variant("pai-gow-land"), 2)
    for seat in (0, 1):
        game.apply(PlaceBet(seat=seat, bet="main", amount=1000))
    game.apply(Decide(seat=None, decision="same-player", arg="0 1"))
    game.apply(Deal(seat=0))
    deal(game, PLAYER + " " + OTHER + " " + DEALER)
    assert "set" in game.legal_actions(1) and game.setting(1) is None


def test_the_new_rules_keys_are_checked() -> None:
    """The readings are table data: a value the loader does not know is refused, naming
    the file and the key."""
    from games.core.errors import PaytableError
    from games.pai_gow.rules import loads

    base = (
        'spec = 1\nid = "t"\ntitle = "t"\nsource = "t"\n[rules]\njoker = "wild"\n'
        'wheel_second = true\nseats = 2\n{extra}\n[commission]\nbp = 0\nrounding = "down"\n'
        "[bets.main]\nminimum = 100\nmaximum = 1000\nincrement = 100\n"
    )
    assert loads(base.format(extra="")).rules.foul is Foul.RESET  # the online reading
    for extra, key in (('foul = "maybe"', "foul"), ('extra_hands = "dealer"', "extra_hands")):
        with pytest.raises(PaytableError, match=f"t.toml: \\[rules\\]: {key} must be one of"):
            loads(base.format(extra=extra), "t.toml")
    with pytest.raises(PaytableError, match="house_way_button"):
        loads(base.format(extra="house_way_button = 1"), "t.toml")
