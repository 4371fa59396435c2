"""Backline bets on 21st Century Blackjack (page 004, Game Rules 7 and 8), through the engine."""

from __future__ import annotations

import pytest

from games.blackjack import VARIANTS, new_game
from games.blackjack.engine import BlackjackRound
from games.core import (
    BetRefused,
    BetReturned,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    IllegalAction,
    PlaceBet,
    RemoveBet,
    parse_cards,
)
from games.core.backline import backline_positions

BY_ID = {v.id: v for v in VARIANTS}
C21 = BY_ID["blackjack-21st-century"]


def _dealt(cards: str, *, seats: int = 2, backers: tuple[int, ...] = (500,)) -> BlackjackRound:
    """Seat 0 bets $10, each backer an amount on positions behind seat 0; the cards dealt."""
    game = new_game(C21, seats)
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    for position, amount in zip(game.backline_positions(0, "main"), backers, strict=False):
        game.apply(PlaceBet(seat=position, bet="main", amount=amount))
    game.apply(Deal(seat=0))
    for card in parse_cards(cards):
        game.apply(DealCard(card=card))
    return game


def _settled(events: list[Event] | tuple[Event, ...]) -> dict[int, tuple[int, int, str]]:
    return {e.seat: (e.stake, e.returned, e.result) for e in events if isinstance(e, BetSettled)}


def test_several_players_bet_on_one_seated_hand() -> None:
    """004, 21st Century Blackjack, Game Rules 7: "Multiple Players may bet on the same
    hand." Two backline bets ride on seat 0's hand and are settled with its result."""
    game = _dealt("Ts 9d 9h 8c", backers=(500, 200))  # seat 19 against dealer 17
    first, second = list(game.backline_positions(0, "main"))[:2]
    events = game.apply(Decide(seat=0, decision="stand"))
    assert _settled(events) == {
        0: (1000, 2000, "win"),
        first: (500, 1000, "win"),
        second: (200, 400, "win"),
    }
    assert game.is_over
    assert [b["position"] for b in game.view(None)["backline"]] == [first, second]


def test_the_seated_player_makes_every_decision() -> None:
    """004, 21st Century Blackjack, Game Rules 8: "The seated Player will make the final
    decision on the hand." A backline position has no decision and cannot deal."""
    game = new_game(C21, 2)
    back = game.backline_positions(0, "main")[0]
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(PlaceBet(seat=back, bet="main", amount=500))
    assert game.legal_actions(back) == {"place-bet", "remove-bet"}
    with pytest.raises(IllegalAction, match="seated player will make the final decision"):
        game.apply(Deal(seat=back))
    game.apply(Deal(seat=0))
    for card in parse_cards("Ts 9d 6h 8c"):
        game.apply(DealCard(card=card))
    assert game.legal_actions(back) == frozenset()
    with pytest.raises(IllegalAction, match="seated player will make the final decision"):
        game.apply(Decide(seat=back, decision="stand"))
    with pytest.raises(BetRefused, match="bets are closed"):
        game.apply(RemoveBet(seat=back, bet="main"))
    assert game.turn == (0, 0)


def test_backline_follows_the_first_hand_and_is_not_doubled() -> None:
    """004 Game Rules 8 ("The seated Player will make the final decision on the hand"),
    read as the variant's notes say: the seat doubles its own bet; the backline bet stays
    at its stake and is settled with that hand's result."""
    game = _dealt("6s 9d 5h 7c")  # seat 11 against dealer 9 up
    back = game.backline_positions(0, "main")[0]
    game.apply(Decide(seat=0, decision="double"))
    events = game.apply(DealCard(card=parse_cards("Ts")[0]))  # 21; dealer 9 7 = 16 draws
    events += game.apply(DealCard(card=parse_cards("Th")[0]))  # dealer busts with 26
    assert _settled(events)[0] == (2000, 4000, "win")
    assert _settled(events)[back] == (500, 1000, "win")


def test_backline_stays_on_the_first_hand_of_a_split() -> None:
    """004 Game Rules 7 and 8 ("Multiple Players may bet on the same hand"; "The seated
    Player will make the final decision on the hand"): after a split the backline bet
    follows the first hand only; the seat's second hand is its own."""
    game = _dealt("8s 9d 8h 7c")  # seat 8 8 against dealer 9 up (hole 7: 16)
    back = game.backline_positions(0, "main")[0]
    events = list(game.apply(Decide(seat=0, decision="split", hand=0)))
    for card in parse_cards("Tc"):  # hand 0: 8 T = 18
        events += game.apply(DealCard(card=card))
    events += game.apply(Decide(seat=0, decision="stand", hand=0))
    events += game.apply(DealCard(card=parse_cards("5c")[0]))  # hand 1: 8 5 = 13
    events += game.apply(Decide(seat=0, decision="stand", hand=1))
    events += game.apply(DealCard(card=parse_cards("4d")[0]))  # dealer 9 7 4 = 20
    settled = [(e.seat, e.bet, e.returned) for e in events if isinstance(e, BetSettled)]
    assert settled == [(0, "main", 0), (back, "main", 0), (0, "main.1", 0)]


def test_a_natural_pays_six_to_five_behind_and_a_surrender_returns_half() -> None:
    """004 THE PLAY 8 ("it is a "natural" and will be paid 6 to 5") for the hand the
    backline bet is on ("Multiple Players may bet on the same hand")."""
    game = _dealt("As 9d Kh 7c")
    back = game.backline_positions(0, "main")[0]
    assert next(s for s in game.settlements if s.seat == back).returned == 500 + 600
    game = _dealt("Ts 9d 6h 7c")
    events = game.apply(Decide(seat=0, decision="surrender"))
    assert _settled(events)[back] == (500, 250, "lose")


def test_a_backline_bet_behind_a_seat_without_a_hand_is_returned_at_the_deal() -> None:
    """004 Game Rules 7: "Multiple Players may bet on the same hand": with no hand to
    follow (the seat placed no bet) the backline bet goes back at the deal."""
    game = new_game(C21, 2)
    behind_1 = game.backline_positions(1, "main")[0]
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(PlaceBet(seat=behind_1, bet="main", amount=500))
    events = game.apply(Deal(seat=0))
    assert BetReturned(seat=behind_1, bet="main", amount=500) in events


def test_backline_limits_and_side_bets() -> None:
    """A backline bet is a bet on the hand: within the table's main limits, and never on
    insurance or the Buster Bet ("The seated Player will make the final decision")."""
    game = new_game(C21, 2)
    back = game.backline_positions(0, "main")[0]
    with pytest.raises(BetRefused):
        game.apply(PlaceBet(seat=back, bet="main", amount=50))
    with pytest.raises(BetRefused, match="seated hand"):
        game.apply(PlaceBet(seat=back, bet="buster", amount=100))
    with pytest.raises(BetRefused, match="main"):
        backline_positions(game, 0, "buster")


@pytest.mark.parametrize("vid", ["blackjack-pinnacle", "blackjack-high-stakes"])
def test_other_tables_take_no_backline_bet(vid: str) -> None:
    """Only 21st Century Blackjack's page says "Multiple Players may bet on the same hand"."""
    game = new_game(BY_ID[vid], 2)
    with pytest.raises(BetRefused, match="no backline bets"):
        backline_positions(game, 0, "main")
    with pytest.raises(BetRefused, match="no seat"):
        game.apply(PlaceBet(seat=2, bet="main", amount=1000))
    assert "backline" not in game.view(None)
