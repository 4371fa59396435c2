"""The Caribbean Stud family round: the page's examples, chips conserved, hidden cards, refusals."""

from __future__ import annotations

from importlib import resources
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.caribbean_stud as cs
from games.caribbean_stud.engine import StudRound
from games.caribbean_stud.rules import loads
from games.core.cards import Card, parse_cards
from games.core.errors import BetRefused, IllegalAction
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    JackpotContribution,
    JackpotWin,
    PlaceBet,
    RemoveBet,
)
from tests.games.caribbean_stud.data import load

VARIANTS = {v.id: v for v in cs.VARIANTS}


def _dealt(
    variant: str, bets: dict[str, int], player: str, dealer: str
) -> tuple[StudRound, list[Event]]:
    game = cs.new_game(VARIANTS[variant])
    for bet in ("ante", "jackpot"):
        if bet in bets:
            game.apply(PlaceBet(seat=0, bet=bet, amount=bets[bet]))
    game.apply(Deal(seat=0))
    events: list[Event] = []
    for p, d in zip(parse_cards(player), parse_cards(dealer), strict=True):
        events += game.apply(DealCard(card=p))
        events += game.apply(DealCard(card=d))
    return game, events


@pytest.mark.parametrize("case", load("rounds.json")["rounds"], ids=lambda c: c["name"][:50])
def test_worked_rounds(case: dict[str, Any]) -> None:
    game, events = _dealt(case["variant"], case["bets"], case["player"], case["dealer"])
    draws = list(parse_cards(case["draw"])) if case["draw"] else []
    for decision, arg in case["decisions"]:
        events += game.apply(Decide(seat=0, decision=decision, arg=arg))
        while game.needs() is not None:
            events += game.apply(DealCard(card=draws.pop(0)))
    assert game.is_over
    assert {s.bet: s.returned for s in game.settlements} == case["returned"]
    wins = [e for e in events if isinstance(e, JackpotWin)]
    if case["jackpot_win"] is None:
        assert not wins
    else:
        assert [(w.fixed, w.share_bp) for w in wins] == [tuple(case["jackpot_win"])]
        contributions = [e for e in events if isinstance(e, JackpotContribution)]
        assert [c.amount for c in contributions] == [75]


def test_jackpot_uses_the_original_five_cards_not_the_draw() -> None:
    game, events = _dealt(
        "oasis-poker", {"ante": 500, "jackpot": 100}, "2h 5d 9c Jh Kc", "Ac Kd 3c 4s 8d"
    )
    assert [s.bet for s in game.settlements] == ["jackpot"]  # resolved on the deal
    game.apply(Decide(seat=0, decision="draw", arg="0 1 2"))
    for c in parse_cards("Js Jd Jc"):
        events += game.apply(DealCard(card=c))
    events += game.apply(Decide(seat=0, decision="call"))
    assert not [e for e in events if isinstance(e, JackpotWin)]  # four jacks came by the draw
    assert game.original_hand(0) == parse_cards("2h 5d 9c Jh Kc")
    call = next(s for s in game.settlements if s.bet == "call")
    assert call.returned == 1000 + 20 * 1000  # the call pays on the drawn hand


def test_always_contribute_places_the_jackpot_bet() -> None:
    game = cs.new_game(VARIANTS["pinnacle-stud-poker"], always_contribute=[0])
    game.apply(PlaceBet(seat=0, bet="ante", amount=500))
    events = game.apply(Deal(seat=0))
    assert BetPlaced(seat=0, bet="jackpot", amount=100) in events
    off = cs.new_game(VARIANTS["pinnacle-stud-poker"])
    off.apply(PlaceBet(seat=0, bet="ante", amount=500))
    assert not [e for e in off.apply(Deal(seat=0)) if isinstance(e, BetPlaced)]


def test_cards_stay_hidden_from_other_seats_and_before_the_reveal() -> None:
    game = cs.new_game(VARIANTS["caribbean-stud"], 2)
    game.apply(PlaceBet(seat=0, bet="ante", amount=100))
    game.apply(PlaceBet(seat=1, bet="ante", amount=100))
    game.apply(Deal(seat=0))
    deal = parse_cards("Ah 2c Kd 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac")
    for card in deal:
        assert game.needs() is not None
        game.apply(DealCard(card=card))
    seat0, seat1, public = game.view(0), game.view(1), game.view(None)
    assert seat0["hand"] == ["Ah", "3c", "6c", "9c", "Qc"]
    assert seat0["dealer"] == seat1["dealer"] == public["dealer"] == ["Kd"]
    for v in (seat0, seat1, public):
        text = repr(v)
        for hidden in ("5c", "8c", "Jc", "Ac"):  # the dealer's hole cards
            assert f"'{hidden}'" not in text
    assert not set(seat0["hand"]) & set(seat1["hand"])
    assert public["hand"] == []
    game.apply(Decide(seat=0, decision="call"))
    game.apply(Decide(seat=1, decision="fold"))
    assert game.view(1)["dealer"] == ["Kd", "5c", "8c", "Jc", "Ac"]


def test_dealer_card_hidden_when_configured_not_to_show() -> None:
    text = (
        resources.files("games.caribbean_stud") / "paytables" / "caribbean-stud.toml"
    ).read_text()
    variant = loads(text.replace("dealer_shows_card = true", "dealer_shows_card = false"))
    game = cs.new_game(variant)
    game.apply(PlaceBet(seat=0, bet="ante", amount=100))
    game.apply(Deal(seat=0))
    game.apply(DealCard(card=Card.parse("2c")))
    assert game.needs() is not None and game.needs().hidden  # type: ignore[union-attr]
    game.apply(DealCard(card=Card.parse("Kd")))
    assert game.view(0)["dealer"] == []


def test_refusals_change_nothing() -> None:
    game = cs.new_game(VARIANTS["oasis-poker"])
    with pytest.raises(BetRefused, match="ante bet before the jackpot"):
        game.apply(PlaceBet(seat=0, bet="jackpot", amount=100))
    game.apply(PlaceBet(seat=0, bet="ante", amount=500))
    with pytest.raises(BetRefused, match=r"exactly \$1.00"):
        game.apply(PlaceBet(seat=0, bet="jackpot", amount=200))
    with pytest.raises(BetRefused, match="maximum"):
        game.apply(PlaceBet(seat=0, bet="ante", amount=50000))
    with pytest.raises(IllegalAction, match="no seat"):
        game.apply(PlaceBet(seat=1, bet="ante", amount=100))
    with pytest.raises(IllegalAction, match="no decision"):
        game.apply(Decide(seat=0, decision="call"))
    with pytest.raises(IllegalAction, match="no card"):
        game.apply(DealCard(card=Card.parse("2c")))
    assert game.bets == {0: {"ante": 500}}
    game.apply(Deal(seat=0))
    game.apply(DealCard(card=Card.parse("2c")))
    with pytest.raises(IllegalAction, match="already dealt"):
        game.apply(DealCard(card=Card.parse("2c")))
    with pytest.raises(IllegalAction, match="not allowed now"):
        game.apply(RemoveBet(seat=0, bet="ante"))
    for c in parse_cards("3c 4c 5c 6c 7c 8c 9c Tc Jc"):
        game.apply(DealCard(card=c))
    for arg in ("", "5", "0 0", "x"):
        with pytest.raises(IllegalAction, match="draw"):
            game.apply(Decide(seat=0, decision="draw", arg=arg))
    with pytest.raises(IllegalAction, match="may decide"):
        game.apply(Decide(seat=0, decision="raise"))
    game.apply(Decide(seat=0, decision="draw", arg="0"))
    with pytest.raises(IllegalAction, match="no decision"):
        game.apply(Decide(seat=0, decision="call"))  # the bought card comes first
    game.apply(DealCard(card=Card.parse("Ah")))
    assert game.legal_actions(0) == {"call", "fold"}  # one draw per game


def _play(variant: str, seats: int, seed: int, choices: list[int], jackpot: bool) -> StudRound:
    game = cs.new_game(VARIANTS[variant], seats)
    for s in range(seats):
        game.apply(PlaceBet(seat=s, bet="ante", amount=100 * (s + 1)))
        if jackpot:
            game.apply(PlaceBet(seat=s, bet="jackpot", amount=100))
    game.apply(Deal(seat=0))
    deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
    k = 0
    while not game.is_over:
        if game.needs() is not None:
            game.apply(DealCard(card=deck.pop()))
            continue
        seat = next(s for s in range(seats) if game.legal_actions(s))
        options = sorted(game.legal_actions(seat))
        pick = options[choices[k % len(choices)] % len(options)]
        k += 1
        arg = (
            " ".join(str(i) for i in range(choices[k % len(choices)] % 5 + 1))
            if pick == "draw"
            else ""
        )
        game.apply(Decide(seat=seat, decision=pick, arg=arg))
    return game


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32 - 1),
    choices=st.lists(st.integers(0, 10), min_size=1, max_size=6),
    jackpot=st.booleans(),
)
def test_chips_conserved_and_every_bet_settled(
    variant: str, seed: int, choices: list[int], jackpot: bool
) -> None:
    seats = VARIANTS[variant].seats if VARIANTS[variant].seats < 3 else 3
    game = cs.new_game(VARIANTS[variant], seats)
    placed: dict[tuple[int, str], int] = {}
    events: list[Event] = []
    replay = _play(variant, seats, seed, choices, jackpot)
    # replay the same round recording every event, then account for the money
    for s in range(seats):
        events += game.apply(PlaceBet(seat=s, bet="ante", amount=100 * (s + 1)))
        if jackpot:
            events += game.apply(PlaceBet(seat=s, bet="jackpot", amount=100))
    events += game.apply(Deal(seat=0))
    deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
    k = 0
    while not game.is_over:
        if game.needs() is not None:
            events += game.apply(DealCard(card=deck.pop()))
            continue
        seat = next(s for s in range(seats) if game.legal_actions(s))
        options = sorted(game.legal_actions(seat))
        pick = options[choices[k % len(choices)] % len(options)]
        k += 1
        arg = (
            " ".join(str(i) for i in range(choices[k % len(choices)] % 5 + 1))
            if pick == "draw"
            else ""
        )
        events += game.apply(Decide(seat=seat, decision=pick, arg=arg))
    for e in events:
        if isinstance(e, BetPlaced):
            placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
        elif isinstance(e, BetReturned):
            placed[(e.seat, e.bet)] -= e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    assert {(s.seat, s.bet): s.stake for s in settled} == placed  # each bet settled once, in full
    assert len(settled) == len(placed)
    assert settled == list(replay.settlements)  # the engine is deterministic
    for s in settled:
        assert s.returned >= 0
    assert all(not game.legal_actions(s) for s in range(seats))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_autoplay_finishes_rounds(variant: str) -> None:
    for seed in range(20):
        game = cs.new_game(VARIANTS[variant])
        deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
        while not game.is_over:
            action = cs.autoplay(game, 0) if game.needs() is None else DealCard(card=deck.pop())
            assert action is not None
            game.apply(action)
        assert cs.autoplay(game, 0) is None
        assert game.settlements
