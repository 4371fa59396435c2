"""The baccarat round: bets, limits, dealing by DealCard only, settlement in cents."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

import games.baccarat as bac
from games.baccarat.engine import BaccaratRound, DealerMode, Phase
from games.baccarat.paytable import loads
from games.core.cards import JOKER, Card
from games.core.engine import GameContext, NeedKind
from games.core.errors import BetRefused, IllegalAction
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    CardShown,
    Deal,
    DealCard,
    Decide,
    PlaceBet,
    RemoveBet,
    RoundOver,
    decode,
)

Feed = Callable[..., list[Any]]
VARIANTS = {v.id: v for v in bac.VARIANTS}


def table(vid: str = "baccarat-pinnacle", seats: int = 1, **bets: int) -> BaccaratRound:
    game = bac.new_game(VARIANTS[vid], seats)
    for bet, amount in bets.items():
        game.apply(PlaceBet(seat=0, bet=bet, amount=amount))
    return game


def settled(events: list[Any]) -> dict[tuple[int, str], BetSettled]:
    return {(e.seat, e.bet): e for e in events if isinstance(e, BetSettled)}


def snapshot(game: BaccaratRound) -> dict[str, Any]:
    return {**game.view(0), "legal": sorted(game.legal_actions(0)), "needs": game.needs()}


def test_a_full_coup_asks_for_each_card_and_settles(deal: Feed) -> None:
    game = table(player=1000, banker=1000, tie=500)
    assert game.needs() is None
    game.apply(Deal(seat=0))
    wanted = []
    cards = iter(Card.parse(c) for c in ["6c", "3d", "Kh", "2s", "4c"])
    events = []
    while (need := game.needs()) is not None:
        assert need.kind is NeedKind.CARD and not need.hidden
        wanted.append(need.target)
        events.extend(game.apply(DealCard(card=next(cards))))
    assert wanted == ["player", "banker", "player", "banker", "banker"]
    shown = [(e.hand, str(e.card)) for e in events if isinstance(e, CardShown)]
    assert shown == [("player", "6c"), ("banker", "3d"), ("player", "Kh"), ("banker", "2s"),
                     ("banker", "4c")]  # fmt: skip
    s = settled(events)
    # banker 9 beats player 6: banker 1000 wins 1000 less 5% (50 cents), player and tie lose
    assert (s[0, "banker"].returned, s[0, "banker"].commission, s[0, "banker"].net) == (
        2000,
        50,
        950,
    )
    assert s[0, "banker"].result == "win" and "5% commission" in s[0, "banker"].note
    assert (s[0, "player"].returned, s[0, "player"].result) == (0, "lose")
    assert (s[0, "tie"].returned, s[0, "tie"].net) == (0, -500)
    assert isinstance(events[-1], RoundOver) and game.is_over
    assert game.outcome() is not None and game.outcome().banker_score == 9  # type: ignore[union-attr]
    assert game.legal_actions(0) == frozenset() and game.needs() is None


def test_tie_pays_eight_to_one_and_pushes_player_and_banker(deal: Feed) -> None:
    game = table(player=2500, banker=1000, tie=700)
    game.apply(Deal(seat=0))
    s = settled(deal(game, "7c 7d Kh Ks"))
    assert (s[0, "tie"].returned, s[0, "tie"].net, s[0, "tie"].result) == (6300, 5600, "win")
    assert (s[0, "player"].returned, s[0, "player"].result) == (2500, "push")
    assert (s[0, "banker"].returned, s[0, "banker"].commission, s[0, "banker"].result) == (
        1000,
        0,
        "push",
    )


def test_player_win_pays_even_money(deal: Feed) -> None:
    game = table(player=50000)
    game.apply(Deal(seat=0))
    s = settled(deal(game, "9c 8d Kh Ks"))
    assert (s[0, "player"].returned, s[0, "player"].net) == (100000, 50000)


def test_ez_banker_three_card_seven_pushes_and_pays_dragon(deal: Feed) -> None:
    game = table("baccarat-ez", player=1000, banker=1000, dragon7=500, panda8=500)
    game.apply(Deal(seat=0))
    s = settled(deal(game, "2c 3d 3h Ks 9c 4d"))  # player 4, banker 3 + 4 = 7 with three cards
    assert (s[0, "banker"].result, s[0, "banker"].returned, s[0, "banker"].commission) == (
        "push",
        1000,
        0,
    )
    assert s[0, "player"].result == "lose"
    assert (s[0, "dragon7"].returned, s[0, "dragon7"].net) == (500 * 41, 500 * 40)
    assert s[0, "panda8"].result == "lose"


def test_ez_banker_wins_even_money_without_commission(deal: Feed) -> None:
    game = table("baccarat-ez", banker=1000)
    game.apply(Deal(seat=0))
    s = settled(deal(game, "Kc 9d Kh Ks"))  # banker natural 9
    assert (s[0, "banker"].returned, s[0, "banker"].commission) == (2000, 0)


def test_ez_panda_eight_pays_twenty_five_to_one(deal: Feed) -> None:
    game = table("baccarat-ez", player=1000, panda8=200)
    game.apply(Deal(seat=0))
    s = settled(deal(game, "Ac 2d 2h 4s 5c"))  # player A+2+5 = 8 with three cards, banker 6
    assert (s[0, "panda8"].returned, s[0, "player"].returned) == (200 * 26, 2000)


@pytest.mark.parametrize(
    ("bet", "amount", "reason"),
    [
        ("banker", 50, r"the minimum bet is \$1.00"),
        ("banker", 50100, r"the maximum bet is \$500.00"),
        ("banker", 150, r"bets go in steps of \$1.00"),
        ("banker", 0, "positive amount"),
        ("dragon7", 100, "no 'dragon7' bet"),
    ],
)
def test_bets_outside_the_table_are_refused_and_change_nothing(
    bet: str, amount: int, reason: str
) -> None:
    game = table()
    before = snapshot(game)
    with pytest.raises(BetRefused, match=reason):
        game.apply(PlaceBet(seat=0, bet=bet, amount=amount))
    assert snapshot(game) == before
    assert not game.can(PlaceBet(seat=0, bet=bet, amount=amount))


def test_adding_chips_counts_against_the_limit() -> None:
    game = table(banker=49000)
    with pytest.raises(BetRefused, match=r"banker bet of \$501.00 refused: the maximum"):
        game.apply(PlaceBet(seat=0, bet="banker", amount=1100))
    assert game.bets[0]["banker"] == 49000
    events = game.apply(PlaceBet(seat=0, bet="banker", amount=1000))
    assert (
        events == (BetPlaced(seat=0, bet="banker", amount=1000),)
        and game.bets[0]["banker"] == 50000
    )


def test_remove_bet_returns_chips() -> None:
    game = table(banker=1000, tie=200)
    assert game.apply(RemoveBet(seat=0, bet="banker", amount=400)) == (
        BetReturned(seat=0, bet="banker", amount=400),
    )
    assert game.apply(RemoveBet(seat=0, bet="tie")) == (BetReturned(seat=0, bet="tie", amount=200),)
    assert game.bets[0] == {"banker": 600}
    with pytest.raises(BetRefused, match="no 'tie' bet"):
        game.apply(RemoveBet(seat=0, bet="tie"))
    with pytest.raises(BetRefused, match=r"left at \$0\.50"):
        game.apply(RemoveBet(seat=0, bet="banker", amount=550))


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (DealCard(card=Card.parse("Ah")), "no card is wanted now"),
        (Deal(seat=3), "no seat 3"),
        (Deal(seat=None), "no seat None"),
        (Decide(seat=0, decision="hit"), "no decision 'hit'"),
        (Decide(seat=0, decision="dealer", arg="croupier"), "dealer must be"),
        (Decide(seat=0, decision="position", arg="8"), "position must be 1..7"),
    ],
)
def test_illegal_actions_are_refused_with_a_reason(action: Any, reason: str) -> None:
    game = table(banker=1000)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=reason):
        game.apply(action)
    assert snapshot(game) == before


def test_deal_needs_a_bet_and_bets_close_at_the_deal(deal: Feed) -> None:
    game = table()
    with pytest.raises(IllegalAction, match="place a bet before dealing"):
        game.apply(Deal(seat=0))
    game.apply(PlaceBet(seat=0, bet="player", amount=100))
    game.apply(Deal(seat=0))
    before = snapshot(game)
    for action in (
        PlaceBet(seat=0, bet="tie", amount=100),
        RemoveBet(seat=0, bet="player"),
        Deal(seat=0),
        Decide(seat=0, decision="dealer", arg="player"),
    ):
        with pytest.raises(IllegalAction, match="not allowed now: the round is dealing"):
            game.apply(action)
    assert snapshot(game) == before
    deal(game, "9c 8d Kh Ks")
    with pytest.raises(IllegalAction, match="no card is wanted"):
        game.apply(DealCard(card=Card.parse("2c")))


def test_cards_the_shoe_cannot_hold_are_refused() -> None:
    text = resources.files("games.baccarat").joinpath("paytables").joinpath("pinnacle.toml")
    one_deck = loads(text.read_text().replace("decks = 6", "decks = 1"))
    game = bac.new_game(one_deck)
    game.apply(PlaceBet(seat=0, bet="player", amount=100))
    game.apply(Deal(seat=0))
    with pytest.raises(IllegalAction, match="no joker"):
        game.apply(DealCard(card=JOKER))
    game.apply(DealCard(card=Card.parse("Ks")))
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="a 1-deck shoe holds only 1 of Ks"):
        game.apply(DealCard(card=Card.parse("Ks")))
    assert snapshot(game) == before
    game.apply(DealCard(card=Card.parse("Kd")))
    assert game.view(0)["banker"] == ["Kd"]


def test_player_as_dealer_waits_for_the_player(deal: Feed) -> None:
    game = table(banker=1000)
    game.apply(Decide(seat=0, decision="dealer", arg="player"))
    game.apply(Deal(seat=0))
    assert game.dealer is DealerMode.PLAYER
    assert game.legal_actions(0) == frozenset({"deal-card"})
    assert game.view(0)["dealer"] == "player" and game.view(0)["next_card_to"] == "player"
    game.apply(DealCard(seat=0, card=Card.parse("9c")))  # the player clicks the shoe
    game.apply(DealCard(card=Card.parse("8d")))  # or the source delivers it: same engine
    deal(game, "Kh Ks")
    assert game.is_over


def test_only_the_dealing_seat_may_deal() -> None:
    game = bac.new_game(VARIANTS["baccarat-ez"], 2)
    game.apply(PlaceBet(seat=1, bet="player", amount=100))
    game.apply(Deal(seat=1))
    with pytest.raises(IllegalAction, match="seat 1 is not dealing"):
        game.apply(DealCard(seat=1, card=Card.parse("2c")))


def test_seat_position_changes_nothing_but_the_view(deal: Feed) -> None:
    results = []
    for position in ("1", "5"):
        game = table(banker=1000, player=500)
        game.apply(Decide(seat=0, decision="position", arg=position))
        assert game.view(0)["position"] == int(position)
        game.apply(Deal(seat=0))
        results.append(
            sorted(
                (e.bet, e.returned, e.commission)
                for e in settled(deal(game, "6c 3d Kh 2s 4c")).values()
            )
        )
    assert results[0] == results[1]


def test_view_shows_only_dealt_cards(deal: Feed) -> None:
    game = table(banker=1000)
    game.apply(Deal(seat=0))
    cards = ["6c", "3d", "Kh", "2s", "4c"]
    for i, c in enumerate(cards):
        v = game.view(None)
        assert sorted(v["player"] + v["banker"]) == sorted(cards[:i])
        text = repr(v)
        for later in cards[i:]:
            assert later not in text
        game.apply(DealCard(card=Card.parse(c)))
    assert game.view(0)["result"] == "player 6 (6c Kh) vs banker 9 (3d 2s 4c): banker wins"


def test_events_round_trip_through_the_record_codec(deal: Feed) -> None:
    game = table(banker=1000, tie=100)
    events = [*game.apply(Deal(seat=0)), *deal(game, "7c 7d Kh Ks")]
    for e in events:
        assert decode(e.encode()) == e


def test_next_round_keeps_mode_and_counts_hands(deal: Feed) -> None:
    game = table(banker=1000)
    game.apply(Decide(seat=0, decision="dealer", arg="player"))
    with pytest.raises(IllegalAction, match="not over"):
        game.next_round()
    game.apply(Deal(seat=0))
    deal(game, "9c 8d Kh Ks")
    nxt = game.next_round()
    assert (nxt.hand, nxt.dealer, nxt.phase, nxt.bets[0]) == (
        1,
        DealerMode.PLAYER,
        Phase.BETTING,
        {},
    )


def test_new_game_checks_seats() -> None:
    with pytest.raises(ValueError, match=r"seats must be 1\.\.7"):
        bac.new_game(VARIANTS["baccarat-ez"], 8)
    with pytest.raises(ValueError, match="at least 2 seats"):
        bac.new_game(VARIANTS["baccarat-california"], 1)


def test_player_banked_coverage_worked_example(deal: Feed) -> None:
    """Bank $20 at seat 0: seat 1 player $10 (covered, $10 left), seat 2 tie $5 (greatest win
    $40 does not fit: the house covers it), seat 2 banker $10 (covered, $0 left)."""
    game = bac.new_game(VARIANTS["baccarat-california"], 3)
    assert game.bank_seat == 0
    game.apply(PlaceBet(seat=0, bet="bank", amount=2000))
    with pytest.raises(BetRefused, match="covers the table"):
        game.apply(PlaceBet(seat=0, bet="player", amount=100))
    game.apply(PlaceBet(seat=1, bet="player", amount=1000))
    game.apply(PlaceBet(seat=2, bet="tie", amount=500))
    game.apply(PlaceBet(seat=2, bet="banker", amount=1000))
    msgs = [e.text for e in game.apply(Deal(seat=1)) if hasattr(e, "text")]
    assert any("covers seat 1 player, seat 2 banker" in m for m in msgs)
    s = settled(deal(game, "9c 8d Kh Ks"))  # player natural 9 wins
    assert (s[1, "player"].net, s[2, "banker"].net, s[2, "tie"].net) == (1000, -1000, -500)
    # the bank pays the covered player win and takes the covered banker loss: net 0
    assert (s[0, "bank"].stake, s[0, "bank"].returned, s[0, "bank"].result) == (2000, 2000, "push")


def test_the_banking_seat_may_decline_by_betting() -> None:
    game = bac.new_game(VARIANTS["baccarat-california"], 2, context=GameContext(hand=2))
    assert game.bank_seat == 1
    game.apply(PlaceBet(seat=1, bet="banker", amount=100))
    with pytest.raises(BetRefused, match="declined the bank"):
        game.apply(PlaceBet(seat=1, bet="bank", amount=1000))
    with pytest.raises(BetRefused, match=r"only the banking seat \(1\)"):
        game.apply(PlaceBet(seat=0, bet="bank", amount=1000))
    assert game.bets == {0: {}, 1: {"banker": 100}}


@pytest.mark.parametrize(("rounding", "fee"), [("up", 7), ("down", 6), ("nearest", 6)])
def test_commission_rounding_is_the_named_rule(deal: Feed, rounding: str, fee: int) -> None:
    """A $1.25 banker win carries 6.25 cents of commission: the table's rule settles it."""
    text = resources.files("games.baccarat").joinpath("paytables").joinpath("pinnacle.toml")
    quarter = (
        text.read_text()
        .replace("increment = 100", "increment = 25")
        .replace('rounding = "up"', f'rounding = "{rounding}"')
    )
    game = bac.new_game(loads(quarter))
    game.apply(PlaceBet(seat=0, bet="banker", amount=125))
    game.apply(Deal(seat=0))
    s = settled(deal(game, "Kc 9d Kh Ks"))
    assert (s[0, "banker"].returned, s[0, "banker"].commission) == (250, fee)
    assert s[0, "banker"].net == 125 - fee
