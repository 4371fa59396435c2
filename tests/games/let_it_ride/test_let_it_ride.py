"""Let'Em Ride: worked rounds, the exact edge against the published figure, simulation, refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.let_it_ride as lr
from games.core.cards import Card, parse_cards
from games.core.errors import BetRefused, IllegalAction, PaytableError
from games.core.records import (
    BetPlaced,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    JackpotWin,
    PlaceBet,
)
from games.let_it_ride.exact import raise_first, raise_second
from games.let_it_ride.rules import loads

VARIANTS = {v.id: v for v in lr.VARIANTS}
DATA = Path(__file__).resolve().parents[2] / "data" / "let_it_ride"
PUBLISHED = json.loads((DATA / "published.json").read_text())
ROUNDS = json.loads((DATA / "rounds.json").read_text())["rounds"]


def _round(
    variant: str, cards: str, decisions: list[str], progressive: bool = False
) -> list[Event]:
    game = lr.new_game(VARIANTS[variant])
    events: list[Event] = list(game.apply(PlaceBet(seat=0, bet="ante", amount=1000)))
    if progressive:
        events += game.apply(PlaceBet(seat=0, bet="progressive", amount=100))
    events += game.apply(Deal(seat=0))
    for c in parse_cards(cards):
        events += game.apply(DealCard(card=c))
    view = game.view(0)
    assert view["board"] == [] and len(view["hand"]) == 3  # community cards face down
    for d in decisions:
        events += game.apply(Decide(seat=0, decision=d))
    assert game.is_over
    return events


@pytest.mark.parametrize("case", ROUNDS, ids=lambda c: c["name"][:40])
def test_worked_rounds(case: dict[str, Any]) -> None:
    events = _round(case["variant"], case["cards"], case["decisions"])
    assert [e.returned for e in events if isinstance(e, BetSettled)] == case["returned"]


def test_progressive_pays_from_the_meter() -> None:
    events = _round("lets-em-ride", "Ts Js Qs Ks As", ["raise", "raise"], progressive=True)
    wins = [e for e in events if isinstance(e, JackpotWin)]
    assert [(w.fixed, w.share_bp) for w in wins] == [(0, 10_000)]
    ante = next(e for e in events if isinstance(e, BetSettled) and e.bet == "ante")
    assert ante.returned == 1000 * 1001


def test_exact_edge_matches_the_published_figure() -> None:
    edges = lr.house_edge(VARIANTS["lets-em-ride"])
    assert edges["ante"].exact
    assert round(float(edges["ante"].edge), 4) == PUBLISHED["standard_edge"]


def test_simulation_agrees_with_the_enumeration() -> None:
    v = VARIANTS["lets-em-ride"]
    sim = lr.simulate(v, 400_000, 11).bets["ante"]
    assert sim.ci_low < -float(lr.house_edge(v)["ante"].edge) < sim.ci_high


def test_strategy_lookups() -> None:
    rules = VARIANTS["lets-em-ride"].rules
    idx = [c.index for c in parse_cards("Th Td 2c")]
    assert raise_first(rules, idx)  # a paying pair rides
    assert not raise_first(rules, [c.index for c in parse_cards("2h 7d 9c")])
    assert raise_second(rules, [c.index for c in parse_cards("2h 7h 9h Jh")])  # four to a flush


def test_refusals_and_autoplay() -> None:
    game = lr.new_game(VARIANTS["lets-em-ride"])
    with pytest.raises(BetRefused, match="ante bet before the progressive"):
        game.apply(PlaceBet(seat=0, bet="progressive", amount=100))
    with pytest.raises(BetRefused, match="no 'raise-1' bet"):
        game.apply(PlaceBet(seat=0, bet="raise-1", amount=100))
    with pytest.raises(IllegalAction, match="no decision"):
        game.apply(Decide(seat=0, decision="raise"))
    for seed in range(10):
        game = lr.new_game(VARIANTS["lets-em-ride"])
        deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
        while not game.is_over:
            action = lr.autoplay(game, 0) if game.needs() is None else DealCard(card=deck.pop())
            assert action is not None
            game.apply(action)
        assert {s.bet for s in game.settlements} >= {"ante"}


def test_bad_table_is_refused() -> None:
    text = (Path(lr.__file__).parent / "paytables" / "lets-em-ride.toml").read_text()
    with pytest.raises(PaytableError, match=r"needs exactly pair\.\.royal_flush"):
        loads(text.replace('flush = "8:1"\n', ""))
    with pytest.raises(PaytableError, match="spec 3"):
        loads(text.replace("spec = 1", "spec = 3"))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    picks=st.lists(st.booleans(), min_size=1, max_size=6),
    progressive=st.booleans(),
)
def test_chips_conserved_and_cards_hidden(seed: int, picks: list[bool], progressive: bool) -> None:
    seats = 3
    game = lr.new_game(VARIANTS["lets-em-ride"], seats)
    events: list[Event] = []
    for s in range(seats):
        events += game.apply(PlaceBet(seat=s, bet="ante", amount=100 * (s + 1)))
        if progressive:
            events += game.apply(PlaceBet(seat=s, bet="progressive", amount=100))
    events += game.apply(Deal(seat=0))
    deck = [Card.from_index(int(i)) for i in np.random.default_rng(seed).permutation(52)]
    k = 0
    while not game.is_over:
        if game.needs() is not None:
            events += game.apply(DealCard(card=deck.pop()))
            continue
        for s in range(seats):
            others = {c for o in range(seats) if o != s for c in game.view(o)["hand"]}
            assert not others & set(game.view(s)["hand"])
        assert len(game.view(None)["board"]) == game.stage  # one community card per stage
        seat = next(s for s in range(seats) if game.legal_actions(s))
        events += game.apply(
            Decide(seat=seat, decision="raise" if picks[k % len(picks)] else "continue")
        )
        k += 1
    placed: dict[tuple[int, str], int] = {}
    for e in events:
        if isinstance(e, BetPlaced):
            placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    assert {(s.seat, s.bet): s.stake for s in settled} == placed
    assert len(settled) == len(placed)
