"""Casino War: exact edges against the published table, the engine's flows, chip conservation."""

from __future__ import annotations

import dataclasses
import tomllib
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.war as war
from games.core.cards import JOKER, Card, parse_cards
from games.core.errors import BetRefused, IllegalAction, PaytableError
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
from games.war.engine import Phase, WarRound
from games.war.exact import bet_returns
from games.war.paytable import loads

DATA = Path(__file__).resolve().parents[2] / "data" / "baccarat" / "published_odds.toml"
PUBLISHED = tomllib.loads(DATA.read_text())["war"]
STANDARD, BONUS = war.VARIANTS


def pct(x: Fraction) -> Decimal:
    return Decimal(round(x * 10_000)) / 100


# --- exact --------------------------------------------------------------------


@pytest.mark.parametrize("row", PUBLISHED["rows"], ids=[str(r[0]) for r in PUBLISHED["rows"]])
def test_edges_match_published_table_for_every_deck_count(row: list[Any]) -> None:
    decks, with_bonus, no_bonus, surrender, tie = row
    plain = bet_returns(dataclasses.replace(STANDARD.rules, decks=decks))
    bonus = bet_returns(dataclasses.replace(BONUS.rules, decks=decks))
    assert pct(-plain["main"]) == Decimal(no_bonus)
    assert pct(-bonus["main"]) == Decimal(with_bonus)
    assert pct(-plain["main-surrender"]) == Decimal(surrender)
    assert pct(-plain["tie"]) == Decimal(tie)


def test_six_deck_returns_match_published_to_six_places() -> None:
    want = PUBLISHED["return6"]
    got = {"no_bonus": war.house_edge(STANDARD), "with_bonus": war.house_edge(BONUS)}
    for key, edges in got.items():
        ret = -edges["main"].edge
        assert Decimal(round(ret * 10**6)) / 10**6 == Decimal(want[key])
        assert edges["main"].exact and "war" in edges["main"].note


def test_tie_edge_is_the_closed_form() -> None:
    # P(tie) = 23/311 in six decks; tie pays 10:1
    assert war.house_edge(STANDARD)["tie"].edge == 1 - 11 * Fraction(23, 311)


def test_declared_rtp_agrees_with_exact() -> None:
    for v in war.VARIANTS:
        edges = war.house_edge(v)
        for bet, bp in v.rules.declared_rtp_bp.items():
            assert round((1 - edges[bet].edge) * 10_000) == bp


def test_simulation_brackets_exact_edges() -> None:
    for v in war.VARIANTS:
        sim = war.simulate(v, 400_000, 11)
        exact = war.house_edge(v)
        for bet, s in sim.bets.items():
            assert s.ci_low < -float(exact[bet].edge) < s.ci_high, (v.id, bet)
    assert war.simulate(STANDARD, 1000, 5) == war.simulate(STANDARD, 1000, 5)


# --- pay tables -----------------------------------------------------------------

TEXT = resources.files("games.war").joinpath("paytables").joinpath("standard.toml").read_text()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("spec = 1", "spec = 3", "spec 3 is not supported"),
        ("burn_cards = 3", "burn_cards = -1", "burn_cards must be 0..10"),
        ('tie_after_war_bonus = "0:1"', "tie_after_war_bonus = 1", "must be str"),
        ('pays = "10:1"', 'pays = "ten"', "pays must be a string like"),
        ("[bets.raise]", "[bets.rise]", "bets must be exactly"),
        ("decks = 6", "decks = 9", "decks must be 1..8"),
    ],
)
def test_bad_pay_tables_are_refused(old: str, new: str, message: str) -> None:
    assert old in TEXT
    with pytest.raises(PaytableError) as info:
        loads(TEXT.replace(old, new, 1), "war.toml")
    assert str(info.value).startswith("war.toml") and message in str(info.value)


def test_tables_name_their_standard() -> None:
    for v in war.VARIANTS:
        assert "gap 9" in v.source and v.decks == 6
        assert all(n.startswith("Standard, not the page") for n in v.notes)


# --- engine -------------------------------------------------------------------------


def play(game: WarRound, cards: str, decisions: dict[int, str] | None = None) -> list[Any]:
    events: list[Any] = []
    it = iter(parse_cards(cards))
    while not game.is_over:
        if game.needs() is not None:
            events += game.apply(DealCard(card=next(it)))
        elif game.phase is Phase.DECIDING:
            seat = min(s for s in range(game.seats) if game.legal_actions(s))
            events += game.apply(Decide(seat=seat, decision=(decisions or {}).get(seat, "war")))
        else:
            raise AssertionError(f"stuck in {game.phase}")
    return events


def settled(events: list[Any]) -> dict[tuple[int, str], BetSettled]:
    return {(e.seat, e.bet): e for e in events if isinstance(e, BetSettled)}


def one_seat(main: int = 1000, tie: int = 0, variant: Any = STANDARD) -> WarRound:
    game = war.new_game(variant)
    game.apply(PlaceBet(seat=0, bet="main", amount=main))
    if tie:
        game.apply(PlaceBet(seat=0, bet="tie", amount=tie))
    game.apply(Deal(seat=0))
    return game


def test_higher_card_wins_even_money_aces_high() -> None:
    s = settled(play(one_seat(tie=200), "Ah Kd"))
    assert (s[0, "main"].returned, s[0, "main"].result) == (2000, "win")
    assert (s[0, "tie"].returned, s[0, "tie"].result) == (0, "lose")
    s = settled(play(one_seat(), "2h 3d"))
    assert (s[0, "main"].returned, s[0, "main"].result) == (0, "lose")


def test_tie_then_war_win_pays_the_raise_and_pushes_the_bet() -> None:
    game = one_seat(tie=200)
    events = play(game, "9h 9d 2c 3c 4c Kh Qd")
    assert BetPlaced(seat=0, bet="raise", amount=1000) in events
    s = settled(events)
    assert (s[0, "tie"].returned, s[0, "tie"].net) == (2200, 2000)  # 10 to 1
    assert (s[0, "main"].result, s[0, "main"].returned) == ("push", 1000)
    assert (s[0, "raise"].result, s[0, "raise"].returned) == ("win", 2000)
    assert isinstance(events[-1], RoundOver)


def test_war_tie_pushes_without_bonus_and_pays_with_it() -> None:
    s = settled(play(one_seat(), "9h 9d 2c 3c 4c Qh Qd"))
    assert (s[0, "main"].result, s[0, "raise"].net) == ("push", 1000)
    s = settled(play(one_seat(variant=BONUS), "9h 9d 2c 3c 4c Qh Qd"))
    assert (s[0, "main"].net, s[0, "raise"].net) == (1000, 1000)


def test_war_lost_loses_both_bets() -> None:
    s = settled(play(one_seat(), "9h 9d 2c 3c 4c 5h Qd"))
    assert (s[0, "main"].net, s[0, "raise"].net) == (-1000, -1000)


def test_surrender_returns_half() -> None:
    game = one_seat(main=1500)
    s = settled(play(game, "9h 9d", {0: "surrender"}))
    assert (s[0, "main"].returned, s[0, "main"].net, s[0, "main"].result) == (750, -750, "lose")
    assert ("raise" not in game.bets[0]) and game.is_over


def test_burn_cards_are_hidden_and_never_shown() -> None:
    game = one_seat()
    play_cards = parse_cards("9h 9d")
    for c in play_cards:
        game.apply(DealCard(card=c))
    game.apply(Decide(seat=0, decision="war"))
    burns = parse_cards("Jc Jd Js")
    events = []
    for c in burns:
        need = game.needs()
        assert need is not None and need.target == "burn" and need.hidden
        events += game.apply(DealCard(card=c))
    assert not any(isinstance(e, CardShown) for e in events)
    view = repr(game.view(0))
    assert "J" not in view and game.view(0)["burned"] == 3
    events += game.apply(DealCard(card=Card.parse("Kh")))
    events += game.apply(DealCard(card=Card.parse("2d")))
    assert "J" not in repr(game.view(None)) and game.is_over


def test_multi_seat_order_and_war_dealing() -> None:
    game = war.new_game(STANDARD, 3)
    for seat in range(3):
        game.apply(PlaceBet(seat=seat, bet="main", amount=100 * (seat + 1)))
    game.apply(Deal(seat=2))
    targets = []
    cards = iter(parse_cards("7h 9c 7d 7s 2c 3c 4c Ah 5d 6s"))
    while not game.is_over:
        if game.needs() is None:
            for seat in sorted(s for s in range(3) if game.legal_actions(s)):
                game.apply(Decide(seat=seat, decision="war"))
            continue
        targets.append(game.needs().target)  # type: ignore[union-attr]
        game.apply(DealCard(card=next(cards)))
    assert targets == ["seat0", "seat1", "seat2", "dealer", "burn", "burn", "burn", "seat0",
                       "seat2", "dealer"]  # fmt: skip
    s = game.settlements
    by = {(x.seat, x.bet): x.net for x in s}
    assert by == {(1, "main"): 200, (0, "main"): 0, (0, "raise"): 100, (2, "main"): -300,
                  (2, "raise"): -300}  # fmt: skip


@pytest.mark.parametrize(
    ("action", "error", "reason"),
    [
        (PlaceBet(seat=0, bet="raise", amount=100), BetRefused, "no 'raise' bet to place"),
        (PlaceBet(seat=0, bet="main", amount=60000), BetRefused, "maximum bet"),
        (PlaceBet(seat=0, bet="tie", amount=20000), BetRefused, "the maximum bet is \\$100.00"),
        (PlaceBet(seat=9, bet="main", amount=100), IllegalAction, "no seat 9"),
        (Decide(seat=0, decision="war"), IllegalAction, "no war decision"),
        (DealCard(card=Card.parse("2c")), IllegalAction, "no card is wanted"),
        (RemoveBet(seat=0, bet="tie"), BetRefused, "no 'tie' bet"),
    ],
)
def test_illegal_actions_change_nothing(action: Any, error: type, reason: str) -> None:
    game = war.new_game(STANDARD)
    game.apply(PlaceBet(seat=0, bet="main", amount=100))
    before = (game.view(0), game.bets, game.phase)
    with pytest.raises(error, match=reason):
        game.apply(action)
    assert (game.view(0), game.bets, game.phase) == before and not game.can(action)


def test_card_checks_and_deal_needs_a_bet() -> None:
    game = war.new_game(STANDARD)
    with pytest.raises(IllegalAction, match="place a bet"):
        game.apply(Deal(seat=0))
    game.apply(PlaceBet(seat=0, bet="main", amount=100))
    assert game.apply(RemoveBet(seat=0, bet="main")) == (
        BetReturned(seat=0, bet="main", amount=100),
    )
    game.apply(PlaceBet(seat=0, bet="main", amount=100))
    game.apply(Deal(seat=0))
    with pytest.raises(IllegalAction, match="no joker"):
        game.apply(DealCard(card=JOKER))
    with pytest.raises(IllegalAction, match="not from a seat"):
        game.apply(DealCard(seat=0, card=Card.parse("2c")))


def test_events_round_trip() -> None:
    events = play(one_seat(tie=100), "9h 9d 2c 3c 4c Kh Qd")
    for e in events:
        assert decode(e.encode()) == e


def test_autoplay_goes_to_war() -> None:
    game = war.new_game(STANDARD)
    rng = np.random.default_rng(4)
    cards = iter(Card.from_index(int(i) % 52) for i in rng.permutation(312))
    # force a tie first
    first = [Card.parse("8h"), Card.parse("8d")]
    steps = 0
    while not game.is_over:
        steps += 1
        if game.needs() is not None:
            game.apply(DealCard(card=first.pop(0) if first else next(cards)))
        else:
            action = war.autoplay(game, 0)
            assert action is not None
            if isinstance(action, Decide):
                assert action.decision == "war"
            game.apply(action)
    assert steps < 20 and "raise" in game.bets[0]
    assert war.autoplay(game, 0) is None
    with pytest.raises(TypeError):
        war.autoplay(object(), 0)  # type: ignore[arg-type]


# --- properties -----------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    idx=st.lists(st.integers(0, 311), min_size=30, max_size=30, unique=True),
    bets=st.lists(
        st.tuples(st.integers(0, 3), st.sampled_from(["main", "tie"]), st.integers(1, 600)),
        min_size=1,
        max_size=8,
    ),
    choices=st.lists(st.sampled_from(["war", "surrender"]), min_size=4, max_size=4),
)
def test_chips_are_conserved_and_hidden_cards_stay_hidden(
    idx: list[int], bets: list[tuple[int, str, int]], choices: list[str]
) -> None:
    game = war.new_game(STANDARD, 4)
    events: list[Any] = []
    for seat, bet, dollars in bets:
        action = PlaceBet(seat=seat, bet=bet, amount=dollars * 100)
        if game.can(action):
            events += game.apply(action)
    if not game.can(Deal(seat=0)):
        return
    events += game.apply(Deal(seat=0))
    cards = [Card.from_index(i % 52) for i in idx]
    burned: list[Card] = []
    it = iter(cards)
    while not game.is_over:
        need = game.needs()
        if need is None:
            seat = min(s for s in range(4) if game.legal_actions(s))
            events += game.apply(Decide(seat=seat, decision=choices[seat]))
            continue
        card = next(it)
        if need.hidden:
            burned.append(card)
        events += game.apply(DealCard(card=card))
        shown = {str(e.card) for e in events if isinstance(e, CardShown)}
        text = repr(game.view(None))
        for b in burned:
            if str(b) not in shown:
                assert f"'{b}'" not in text
    placed: Counter[tuple[int, str]] = Counter()
    for e in events:
        if isinstance(e, BetPlaced):
            placed[e.seat, e.bet] += e.amount
    done = [e for e in events if isinstance(e, BetSettled)]
    assert len({(s.seat, s.bet) for s in done}) == len(done)
    assert {(s.seat, s.bet): s.stake for s in done} == dict(placed)
    for s in done:
        assert s.returned >= 0 and s.net == s.returned - s.commission - s.stake
