"""The California collection (issue 14 points 6 and 12) through the engines, the ledger,
the runtime's refusal, the view, the history, the recall and the ledger audit.

Page 004 (shared/rules/004_20f479e9f2752085.txt) opens UTH with "The appropriate
collection must be paid", and EZ Baccarat, Fortune Pai Gow and Three Card Poker with
"paying the appropriate collection". The rules README ("Collection, not commission, in
the California games") reads it as "a fixed fee per hand from each seat that plays, win
or lose", the default schedule "$1.00 per seat per hand when the seat's wagers total $100
or less, $2.00 up to $300 and $3.00 above" (the project's own, stated as such).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from certification.log.replay import render_recall, replay_game
from games import catalog
from games.core.cards import deck
from games.core.collection import README_DEFAULT, cost_per_hand
from games.core.engine import NeedKind
from games.core.records import (
    BetPlaced,
    CollectionCharged,
    Deal,
    DealCard,
    Event,
    PlaceBet,
    StartPosition,
)
from kiosk_ui.errors import InsufficientFunds
from kiosk_ui.store import ledger, log_records
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.money import Outstanding, event_entries
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes

#: page 004's tables, and the bets that make a seat's hand (UTH: ante and blind, equal)
CALIFORNIA = {
    "ultimate-texas-holdem": ("ante", "blind"),
    "baccarat-ez": ("banker",),
    "pai-gow-fortune": ("main",),
    "three-card-poker": ("ante",),
    "blackjack-21st-century": ("main",),
    "baccarat-california": ("player",),
}


def test_every_california_table_and_only_those_take_the_readme_default() -> None:
    """004: "paying the appropriate collection" on each California game; README: "$1.00
    per seat per hand when the seat's wagers total $100 or less, $2.00 up to $300 and $3.00
    above" (the project's own default, named in each variant's notes)."""
    taking = {v for v in catalog.variants() if catalog.get_variant(v).collection is not None}
    assert taking == set(CALIFORNIA)
    for vid in CALIFORNIA:
        variant = catalog.get_variant(vid)
        assert variant.collection == README_DEFAULT
        assert any("collection" in n and "$1.00" in n for n in variant.notes)
    assert [README_DEFAULT.fee(w) for w in (100, 10_000, 10_100, 30_000, 30_100)] == [
        100,
        100,
        200,
        200,
        300,
    ]


def _play(vid: str, amounts: list[int], seed: int) -> tuple[list[Event], dict[int, int]]:
    """One hand of ``vid`` with each seat's hand bets at ``amounts[seat]``, played by the
    family's scripted player from a shuffled deck; the events and each seat's wagers at
    the deal."""
    variant = catalog.get_variant(vid)
    family = catalog.family_of(variant)
    seats = max(len(amounts), 2 if vid == "baccarat-california" else 1)
    game = family.new_game(variant, seats=seats)
    events: list[Event] = []
    for seat, amount in enumerate(amounts):
        for bet in CALIFORNIA[vid]:
            events += game.apply(PlaceBet(seat=seat, bet=bet, amount=amount))
    wagers = {s: sum(b.values()) for s, b in game.bets.items()}
    events += game.apply(Deal(seat=0))
    rng = random.Random(seed)
    cards = list(deck() * max(variant.decks, 1)) + list(deck(variant.jokers)[52:])
    rng.shuffle(cards)
    for _ in range(500):
        if game.is_over:
            break
        need = game.needs()
        if need is not None:
            if need.kind is NeedKind.POSITION:
                events += game.apply(StartPosition(position=1 + rng.randrange(need.count)))
            else:
                events += game.apply(DealCard(card=cards.pop()))
            continue
        acted = False
        for seat in range(seats):
            action = family.autoplay(game, seat)
            if action is not None and game.can(action):
                events += game.apply(action)
                acted = True
                break
        assert acted, f"{vid}: nobody can act ({game.view(0)})"
    assert game.is_over
    return events, wagers


AMOUNTS = st.sampled_from([500, 10_000, 10_100, 20_000, 30_000, 30_100, 50_000])


@settings(max_examples=30, deadline=None)
@given(
    vid=st.sampled_from(sorted(CALIFORNIA)),
    amounts=st.lists(AMOUNTS, min_size=1, max_size=3),
    seed=st.integers(0, 2**32),
)
def test_fee_once_per_seat_per_hand_chips_conserved(
    vid: str, amounts: list[int], seed: int
) -> None:
    """README: "a fixed fee per hand from each seat that plays, win or lose": one
    CollectionCharged per playing seat, at the deal (before any settlement), for the
    schedule's fee on its wagers; every chip conserved, the collection account included,
    and every bet settled once (no stake settles twice or stays on the layout)."""
    events, wagers = _play(vid, amounts, seed)
    fees = [e for e in events if isinstance(e, CollectionCharged)]
    assert sorted(f.seat for f in fees) == sorted(s for s, w in wagers.items() if w)
    for f in fees:
        assert f.amount == README_DEFAULT.fee(wagers[f.seat]) or vid == "baccarat-california"
    first_settle = next((i for i, e in enumerate(events) if e.kind == "bet-settled"), len(events))
    assert all(events.index(f) < first_settle for f in fees)
    out = Outstanding()
    totals: dict[str, int] = {}
    for ev in events:
        out.apply(ev)
        assert all(v >= 0 for v in out.stakes.values()), f"settled twice: {ev}"
        for entry in event_entries(ev, table="t", player=f"p{getattr(ev, 'seat', 0)}"):
            assert sum(p.amount for p in entry.postings) == 0
            for p in entry.postings:
                totals[p.account] = totals.get(p.account, 0) + p.amount
    assert not any(out.stakes.values()), out.stakes
    assert totals.get(ledger.COLLECTION, 0) == sum(f.amount for f in fees)
    assert totals.get(ledger.stakes("t"), 0) == 0
    assert sum(totals.values()) == 0


def test_cost_per_hand_adds_the_collection_to_the_edge() -> None:
    """Issue 14 point 12: "report both the game's edge on the wagers and the cost per hand
    including the collection" (the table minimum as the stated typical wager)."""
    variant = catalog.get_variant("three-card-poker")
    edge = catalog.family_of(variant).house_edge(variant)["ante"].edge
    minimum = variant.limits["ante"].minimum
    assert cost_per_hand(variant.collection, edge, minimum) == edge * minimum + 100
    assert cost_per_hand(None, Fraction(1, 100), 500) == 5


def _table(rt: Runtime, vid: str, cash: int) -> tuple[str, object]:
    player = rt.create_player("lab")
    rt.cash_in(player, cash, operator="lab")
    table = rt.open_table("t", vid, seeded_outcomes(7))
    table.sit(0, player)
    return player, table


def test_runtime_posts_the_fee_shows_it_and_audits(tmp_path: Path) -> None:
    """004 UTH rule 1: "The appropriate collection must be paid": charged when the hand is
    dealt, from the wallet to the ledger's collection account; the page's view shows the
    fee before the deal; the history and the recall show it; the audit derives it."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        player, table = _table(rt, "ultimate-texas-holdem", 100_000)
        table.act(PlaceBet(seat=0, bet="ante", amount=10_000))
        table.act(PlaceBet(seat=0, bet="blind", amount=10_000))
        assert table.view(0)["collection"] == {"0": 200}  # $200 of wagers: the $2.00 tier
        game = play_round(table, 0)
        with rt.db.read() as tx:
            assert tx.ledger.balance(ledger.COLLECTION) == 200
        rt.audit()
        (row,) = [h for h in rt.history(player) if h["game"] == game]
        assert row["collection"] == 200
        records = [json.loads(x) for x in log_records.game_lines(rt.db.conn, game)]
        rep = replay_game(records)
        assert rep is not None and rep.matches, rep and rep.mismatch
        assert "seat 0 pays the collection, $2.00" in render_recall(rep)
        end = next(r for r in records if r["type"] == "game-end")["body"]
        won = sum(
            e["returned"] - e["commission"] - e["stake"]
            for e in rep.events
            if e["kind"] == "bet-settled"
        )
        assert end["net"]["0"] == won - 200  # the seat's net is its wallet's change
    finally:
        rt.close()


def test_a_seat_short_of_the_fee_is_refused_before_the_deal(tmp_path: Path) -> None:
    """README: the fee is paid "from each seat that plays": a player whose balance covers
    the wagers but not the collection is refused at the deal, with the reason, and nothing
    moves (the wagers stay placed, no collection is posted)."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        player, table = _table(rt, "three-card-poker", 1_000)
        table.act(PlaceBet(seat=0, bet="ante", amount=1_000))
        with pytest.raises(InsufficientFunds, match=r"cannot pay the collection.*\$1\.00"):
            table.act(Deal(seat=0))
        with rt.db.read() as tx:
            assert tx.ledger.balance(ledger.COLLECTION) == 0
            assert tx.ledger.balance(ledger.wallet(player)) == 0
        assert table.current_engine().bets[0] == {"ante": 1_000}
        rt.audit()
    finally:
        rt.close()


def test_no_collection_off_the_california_tables(tmp_path: Path) -> None:
    """The pages' other tables (000-003) name no collection: none is charged or shown."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        _player, table = _table(rt, "tri-card-poker", 100_000)
        play_round(table, 0)
        assert "collection" not in table.view(0)
        with rt.db.read() as tx:
            assert tx.ledger.balance(ledger.COLLECTION) == 0
    finally:
        rt.close()


def test_bet_placed_is_still_the_only_debit_before_the_deal() -> None:
    """The fee never touches the layout: a CollectionCharged moves wallet -> collection."""
    (entry,) = event_entries(CollectionCharged(seat=0, amount=300), table="t", player="p")
    assert {p.account: p.amount for p in entry.postings} == {"wallet:p": -300, "collection": 300}
    (bet,) = event_entries(BetPlaced(seat=0, bet="ante", amount=5), table="t", player="p")
    assert ledger.COLLECTION not in {p.account for p in bet.postings}


def test_a_voided_hand_returns_its_collection(tmp_path: Path) -> None:
    """The fee is for a hand played ("charged when the hand is dealt", README): a hand the
    operator voids returns the collection with the stakes, and the audit derives both."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        player, table = _table(rt, "ultimate-texas-holdem", 100_000)
        table.act(PlaceBet(seat=0, bet="ante", amount=500))
        table.act(PlaceBet(seat=0, bet="blind", amount=500))
        game = table.act(Deal(seat=0)).game
        with rt.db.read() as tx:
            assert tx.ledger.balance(ledger.COLLECTION) == 100
        rt.void(game, reason="test", by="operator:lab")
        with rt.db.read() as tx:
            assert tx.ledger.balance(ledger.COLLECTION) == 0
            assert tx.ledger.balance(ledger.wallet(player)) == 100_000
        rt.audit()
    finally:
        rt.close()
