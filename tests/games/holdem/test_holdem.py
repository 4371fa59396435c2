"""Hold'em rounds: worked examples, hidden cards, refusals, engine vs simulation, edges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.holdem as he
from games.core.cards import Card, parse_cards
from games.core.errors import BetRefused, IllegalAction, PaytableError
from games.core.records import BetPlaced, BetReturned, BetSettled, Deal, DealCard, Decide, PlaceBet
from games.holdem.engine import HoldemRound
from games.holdem.rules import loads
from games.holdem.simulate import casino_nets, ultimate_nets
from games.sim import deal_cards

DATA = Path(__file__).resolve().parents[2] / "data" / "holdem"
VARIANTS = {v.id: v for v in he.VARIANTS}
ROUNDS = json.loads((DATA / "rounds.json").read_text())["rounds"]
PUBLISHED = json.loads((DATA / "published.json").read_text())


def _start(variant: str, bets: dict[str, int], seats: int = 1) -> HoldemRound:
    game = he.new_game(VARIANTS[variant], seats)
    for s in range(seats):
        for bet in ("ante", "blind", "bonus", "trips"):
            if bet in bets:
                game.apply(PlaceBet(seat=s, bet=bet, amount=bets[bet]))
    game.apply(Deal(seat=0))
    return game


@pytest.mark.parametrize("case", ROUNDS, ids=lambda c: c["name"][:50])
def test_worked_rounds(case: dict[str, Any]) -> None:
    game = _start(case["variant"], case["bets"])
    for c in parse_cards(case["deal"]):
        game.apply(DealCard(card=c))
    for d in case["decisions"]:
        game.apply(Decide(seat=0, decision=d))
    for c in parse_cards(case.get("later", "")) if case.get("later") else ():
        game.apply(DealCard(card=c))
    assert game.is_over
    assert {s.bet: s.returned for s in game.settlements} == case["returned"]


def test_uth_board_and_dealer_stay_hidden_until_turned() -> None:
    game = _start("ultimate-texas-holdem", {"ante": 100, "blind": 100}, seats=2)
    for c in parse_cards("Ah Kh Qh 2c 3d Jh 9s Th 9c 4d 5d"):
        game.apply(DealCard(card=c))
    v0, v1 = game.view(0), game.view(1)
    assert v0["board"] == [] and v0["dealer"] == []
    assert v0["hand"] == ["Jh", "Th"] and v1["hand"] == ["9s", "9c"]
    for text in (repr(v0), repr(v1), repr(game.view(None))):
        for hidden in ("Ah", "Kh", "4d", "5d"):
            assert f"'{hidden}'" not in text
    game.apply(Decide(seat=0, decision="check"))
    game.apply(Decide(seat=1, decision="check"))
    assert game.view(1)["board"] == ["Ah", "Kh", "Qh"]
    assert game.legal_actions(0) == {"bet-2x", "check"}


def test_refusals() -> None:
    game = he.new_game(VARIANTS["ultimate-texas-holdem"])
    with pytest.raises(BetRefused, match="before the trips"):
        game.apply(PlaceBet(seat=0, bet="trips", amount=100))
    game.apply(PlaceBet(seat=0, bet="ante", amount=500))
    game.apply(PlaceBet(seat=0, bet="blind", amount=300))
    with pytest.raises(BetRefused, match="blind must equal the ante"):
        game.apply(Deal(seat=0))
    with pytest.raises(BetRefused, match="no 'play' bet"):
        game.apply(PlaceBet(seat=0, bet="play", amount=100))
    game.apply(PlaceBet(seat=0, bet="blind", amount=200))
    game.apply(Deal(seat=0))
    with pytest.raises(IllegalAction, match="no decision"):
        game.apply(Decide(seat=0, decision="bet-4x"))
    for c in parse_cards("Ah Kh Qh 2c 3d Jh Th 4d 5d"):
        game.apply(DealCard(card=c))
    with pytest.raises(IllegalAction, match="may decide"):
        game.apply(Decide(seat=0, decision="bet-2x"))
    with pytest.raises(IllegalAction, match="may decide"):
        game.apply(Decide(seat=0, decision="fold"))  # no folding before the river
    game.apply(Decide(seat=0, decision="bet-3x"))
    assert game.is_over and game.bets[0]["play"] == 1500


def test_bad_tables() -> None:
    text = (Path(he.__file__).parent / "paytables" / "ultimate-texas-holdem.toml").read_text()
    with pytest.raises(PaytableError, match="style must be"):
        loads(text.replace('style = "ultimate"', 'style = "omaha"'))
    with pytest.raises(PaytableError, match="pays from a straight"):
        loads(text.replace('straight = "1:1"', 'straight = "1:1"\npair = "1:1"'))
    casino = (Path(he.__file__).parent / "paytables" / "pinnacle-holdem.toml").read_text()
    with pytest.raises(PaytableError, match="no pay for high card"):
        loads(casino.replace('high_card = "1:1"\n', ""))


def _play_out(game: HoldemRound, cards: list[int]) -> None:
    """Deal ``cards`` (player 2, dealer 2, board 5) in the engine's order, autoplaying."""
    hole, dealer, board = cards[:2], cards[2:4], cards[4:]
    order = hole + dealer + board[:3] + board[3:] if game.casino else board + hole + dealer
    queue = [Card.from_index(i) for i in order]
    while not game.is_over:
        if game.needs() is not None:
            game.apply(DealCard(card=queue.pop(0)))
        else:
            action = he.autoplay(game, 0)
            assert action is not None
            game.apply(action)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_engine_and_autoplay_agree_with_the_vectorised_simulation(variant: str) -> None:
    rules = VARIANTS[variant].rules
    cards = deal_cards(np.random.default_rng(4), 300, 9)
    nets = casino_nets(rules, cards) if rules.style == "casino" else ultimate_nets(rules, cards)
    for i, row in enumerate(cards.tolist()):
        game = he.new_game(VARIANTS[variant])
        while game.phase.value == "betting":
            action = he.autoplay(game, 0)
            assert action is not None
            game.apply(action)
        _play_out(game, row)
        main = sum(s.net for s in game.settlements if s.bet not in ("bonus", "trips"))
        assert main == round(nets["ante"][i] * 100), (row, game.settlements)


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32 - 1),
    picks=st.lists(st.integers(0, 5), min_size=1, max_size=8),
    side=st.booleans(),
)
def test_chips_conserved(variant: str, seed: int, picks: list[int], side: bool) -> None:
    seats = min(3, VARIANTS[variant].seats)
    game = he.new_game(VARIANTS[variant], seats)
    events = []
    for s in range(seats):
        events += game.apply(PlaceBet(seat=s, bet="ante", amount=100 * (s + 1)))
        if not game.casino:
            events += game.apply(PlaceBet(seat=s, bet="blind", amount=100 * (s + 1)))
        if side:
            events += game.apply(
                PlaceBet(seat=s, bet="bonus" if game.casino else "trips", amount=100)
            )
    events += game.apply(Deal(seat=0))
    deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
    k = 0
    while not game.is_over:
        if game.needs() is not None:
            events += game.apply(DealCard(card=deck.pop()))
            continue
        seat = next(s for s in range(seats) if game.legal_actions(s))
        options = sorted(game.legal_actions(seat))
        events += game.apply(
            Decide(seat=seat, decision=options[picks[k % len(picks)] % len(options)])
        )
        k += 1
    placed: dict[tuple[int, str], int] = {}
    for e in events:
        if isinstance(e, BetPlaced):
            placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
        elif isinstance(e, BetReturned):
            placed[(e.seat, e.bet)] -= e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    assert {(s.seat, s.bet): s.stake for s in settled} == placed
    assert len(settled) == len(placed)


def test_simulated_edges_against_the_published_figures() -> None:
    casino = he.simulate(VARIANTS["pinnacle-holdem"], 300_000, 1).bets["ante"]
    assert casino.ci_low < -PUBLISHED["casino_holdem_best_edge"] < casino.ci_high
    uth = he.simulate(VARIANTS["ultimate-texas-holdem"], 300_000, 2).bets
    assert uth["ante"].ci_low < -PUBLISHED["uth_best_edge"] < uth["ante"].ci_high
    assert uth["trips"].ci_low < -PUBLISHED["uth_trips_edge"] < uth["trips"].ci_high


def test_house_edge_contract() -> None:
    edges = he.house_edge(VARIANTS["ultimate-texas-holdem"])
    assert set(edges) == {"ante", "trips"}
    assert all(e.exact for e in edges.values())  # issue 14 point 11: both exact now
    assert 0 < edges["ante"].edge < 0.1 and 0 < edges["trips"].edge < 0.1
