"""The rules pages' worked flows (tests/data/blackjack/flows.toml) played through the engine."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from games.blackjack import VARIANTS, new_game
from games.blackjack.engine import BlackjackRound
from games.core import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Card,
    CardShown,
    Deal,
    DealCard,
    Decide,
    Event,
    PlaceBet,
    parse_cards,
)

DATA = Path(__file__).parents[2] / "data" / "blackjack" / "flows.toml"
FLOWS: list[dict[str, Any]] = tomllib.loads(DATA.read_text())["flow"]
BY_ID = {v.id: v for v in VARIANTS}


def run_flow(flow: dict[str, Any]) -> tuple[BlackjackRound, list[Event]]:
    game = new_game(BY_ID[flow["variant"]])
    events: list[Event] = []
    for bet, amount in flow["bets"].items():
        events += game.apply(PlaceBet(seat=0, bet=bet, amount=amount))
    events += game.apply(Deal(seat=0))
    cards = list(parse_cards(flow["cards"]))
    actions = list(flow["actions"])
    while not game.is_over:
        if game.needs() is not None:
            assert cards, f"flow ran out of cards at {game.view(None)}"
            events += game.apply(DealCard(card=cards.pop(0)))
            continue
        assert actions, f"flow ran out of decisions at {game.view(0)}"
        name, _, arg = actions.pop(0).partition(":")
        turn = game.turn
        hand = turn[1] if turn else 0
        events += game.apply(Decide(seat=0, decision=name, arg=arg, hand=hand))
    assert not actions, f"decisions left over: {actions}"
    return game, events


def nets(events: list[Event]) -> dict[str, int]:
    placed: dict[str, int] = {}
    out: dict[str, int] = {}
    for e in events:
        if isinstance(e, BetPlaced):
            placed[e.bet] = placed.get(e.bet, 0) + e.amount
        elif isinstance(e, BetReturned):
            placed[e.bet] -= e.amount
        elif isinstance(e, BetSettled):
            assert e.bet not in out, f"{e.bet} settled twice"
            assert e.stake == placed[e.bet], f"{e.bet}: settled stake {e.stake} != placed"
            out[e.bet] = e.net
    assert set(out) == set(placed), f"unsettled spots: {set(placed) - set(out)}"
    return out


@pytest.mark.parametrize("flow", FLOWS, ids=[f["name"] for f in FLOWS])
def test_page_flow(flow: dict[str, Any]) -> None:
    _, events = run_flow(flow)
    assert nets(events) == flow["net"], flow["page"]


def test_split_aces_take_no_more_cards_and_are_not_blackjack() -> None:
    game = new_game(BY_ID["blackjack-pinnacle"])
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(Deal())
    for c in parse_cards("As 9d Ah Tc"):
        game.apply(DealCard(card=c))
    game.apply(Decide(seat=0, decision="split"))
    events = game.apply(DealCard(card=Card.parse("Kd")))
    # the first ace hand stands at once on two cards; the next card goes to the second ace
    need = game.needs()
    assert need is not None and need.target == "seat0.1"
    assert game.seat_state(0).hands[0].done
    settled = [e for e in events if isinstance(e, BetSettled)]
    assert not settled  # a split-aces 21 is not paid as a blackjack at once
    events = game.apply(DealCard(card=Card.parse("Ac")))
    assert game.is_over  # dealer 19 stands: ace hands get no decisions at all
    win = next(e for e in events if isinstance(e, BetSettled) and e.bet == "main")
    assert win.returned == 2000 and win.note.startswith("21 against")


def test_single_split_only_at_pinnacle() -> None:
    game = new_game(BY_ID["blackjack-pinnacle"])
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(Deal())
    for c in parse_cards("8s 6d 8h Tc"):
        game.apply(DealCard(card=c))
    game.apply(Decide(seat=0, decision="split"))
    game.apply(DealCard(card=Card.parse("8c")))
    assert "split" not in game.legal_actions(0)
    with pytest.raises(ValueError, match="at most 2 hands"):
        game.apply(Decide(seat=0, decision="split"))


def test_ten_and_king_split_at_pinnacle_but_not_in_21st_century() -> None:
    for vid, allowed in (("blackjack-pinnacle", True), ("blackjack-21st-century", False)):
        game = new_game(BY_ID[vid])
        game.apply(PlaceBet(seat=0, bet="main", amount=1000))
        game.apply(Deal())
        for c in parse_cards("Ts 6d Kh 7c"):
            game.apply(DealCard(card=c))
        assert ("split" in game.legal_actions(0)) is allowed, vid


def test_21st_century_splits_two_different_faces() -> None:
    game = new_game(BY_ID["blackjack-21st-century"])
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(Deal())
    for c in parse_cards("Js 6d Qh 7c"):
        game.apply(DealCard(card=c))
    assert "split" in game.legal_actions(0)


def test_no_double_on_a_natural_and_no_surrender_at_pinnacle() -> None:
    game = new_game(BY_ID["blackjack-pinnacle"])
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(Deal())
    for c in parse_cards("Ts 6d 6h 7c"):
        game.apply(DealCard(card=c))
    with pytest.raises(ValueError, match="no surrender"):
        game.apply(Decide(seat=0, decision="surrender"))
    with pytest.raises(ValueError, match="no double for less"):
        game.apply(Decide(seat=0, decision="double", arg="500"))


def test_double_only_on_first_two_cards() -> None:
    game = new_game(BY_ID["blackjack-pinnacle"])
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(Deal())
    for c in parse_cards("2s 6d 3h 7c"):
        game.apply(DealCard(card=c))
    game.apply(Decide(seat=0, decision="hit"))
    game.apply(DealCard(card=Card.parse("4c")))
    assert game.legal_actions(0) == {"hit", "stand"}


def test_hole_card_shown_only_when_turned_over() -> None:
    flow = next(f for f in FLOWS if f["name"].startswith("dealer stands on soft 17"))
    _, events = run_flow(flow)
    shown = [e.card for e in events if isinstance(e, CardShown) and e.hand == "dealer"]
    assert shown == list(parse_cards("6d Ac"))  # up card at the deal, hole at the dealer's turn
