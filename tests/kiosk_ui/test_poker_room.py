"""Poker rooms through the real runtime (issue 15, the room): stacks bought in from the
wallet and returned on leaving, the pot and revenue accounts, the action clock and
sitting out, the crash rule (resume from the log, or void with every committed chip
back), and the ledger audit over all of it, forgeries included."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from certification.log.replay import render_recall
from games.core.records import Decide
from kiosk_ui.errors import AuditError, InsufficientFunds, SeatError
from kiosk_ui.store import ledger
from kiosk_ui.store.audit import audit_store
from kiosk_ui.table.hand_history import session_hands
from kiosk_ui.table.room import Room
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.table.seats import SeatRules
from tests.kiosk_ui.conftest import seeded_outcomes

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")
HOLDEM = "poker-room-holdem-2-4"  # $2/$4, buy-in $20 - $100, 10% rake up to $4
PLAYERS = ("ann", "bo", "cy")


def _room(rt: Runtime, variant: str = HOLDEM, seed: int = 3) -> Room:
    room = rt.open_table("room", variant, seeded_outcomes(seed))
    assert isinstance(room, Room)
    for p in PLAYERS:
        rt.create_player(p.title(), p)
        rt.cash_in(p, 50_000, "op")
    return room


def _seated(rt: Runtime, variant: str = HOLDEM) -> Room:
    """The room with Ann, Bo and Cy bought in at seats 0, 3 and 6 for $40, $50 and $60."""
    room = _room(rt, variant)
    for seat, (player, amount) in enumerate(zip(PLAYERS, (4_000, 5_000, 6_000), strict=True)):
        room.buy_in(seat * 3, player, amount)
    return room


def _dealt(rt: Runtime) -> Room:
    """The seated hold'em room with its first hand dealt (the blinds in the pot)."""
    room = _seated(rt)
    room.start_hand()
    return room


def _engine(room: Room) -> Any:
    """The hand in play (a poker room's engine: ``to_act``, ``chips``, ``seats_in``)."""
    engine = room.engine
    assert engine is not None
    return engine


@pytest.fixture
def room(runtime: Runtime) -> Room:
    return _seated(runtime)


@pytest.fixture
def dealt(runtime: Runtime) -> Room:
    return _dealt(runtime)


def _play_out(room: Room, pick: str = "call") -> None:
    """Every seat calls (or checks) until the hand ends."""
    while not (engine := _engine(room)).is_over:
        seat = engine.to_act
        names = engine.legal_actions(seat)
        choice = pick if pick in names else "check" if "check" in names else "call"
        room.act(Decide(seat=seat, decision=choice))


def test_buy_in_moves_wallet_to_stack_within_the_variant_limits(runtime: Runtime) -> None:
    room = _room(runtime)
    with pytest.raises(SeatError, match=r"minimum buy-in .* is \$20.00"):
        room.buy_in(0, "ann", 1_999)
    with pytest.raises(SeatError, match=r"maximum buy-in .* is \$100.00"):
        room.buy_in(0, "ann", 10_001)
    assert room.seats == {} and runtime.balance("ann") == 50_000  # refused: nothing moved
    assert room.buy_in(0, "ann", 4_000) == 4_000
    assert runtime.balance("ann") == 46_000
    with pytest.raises(SeatError, match="one seat a player"):
        room.buy_in(1, "ann", 2_000)
    with pytest.raises(SeatError, match=r"add at most \$60.00"):
        room.buy_in(0, "ann", 6_001)  # an add-on tops up to the maximum at most
    assert room.buy_in(0, "ann", 6_000) == 10_000
    runtime.cash_out("bo", 49_000, "op")
    with pytest.raises(InsufficientFunds):
        room.buy_in(1, "bo", 2_000)  # the wallet holds $10
    assert 1 not in room.seats  # the refused buy-in seats nobody
    with pytest.raises(SeatError, match="buy in"):
        room.sit(1, "bo")  # a poker seat is taken by buying in, never by a bet


def test_a_hand_moves_chips_through_the_pot_and_the_audit_balances(
    runtime: Runtime, room: Room
) -> None:
    assert len(room.ready()) == 3
    room.start_hand()
    with runtime.db.read() as tx:
        pot = tx.ledger.balance(ledger.pot("room"))
    assert pot == 300  # the blinds: $1 and $2
    _play_out(room)
    engine = _engine(room)
    assert engine.is_over
    stacks = room.stacks()
    assert stacks == {s * 3: engine.chips.stack[s * 3] for s in range(3)}
    with runtime.db.read() as tx:
        assert tx.ledger.balance(ledger.pot("room")) == 0
        revenue = tx.ledger.balance(ledger.REVENUE)
        house = tx.ledger.balance(ledger.HOUSE)
    assert sum(stacks.values()) + revenue == 15_000  # chips are conserved, less the rake
    assert house == 0 and revenue == engine.collection
    report = runtime.audit()
    assert report["revenue"] == revenue and report["stacks"] == sum(stacks.values())
    # leaving returns the whole stack to the wallet
    assert runtime.leave("room", 0, "ann") == "now"
    assert runtime.balance("ann") == 46_000 + stacks[0]
    assert room.stack("ann") == 0
    runtime.audit()


def test_leaving_during_a_hand_folds_then_frees_the_seat_at_its_end(
    runtime: Runtime, dealt: Room
) -> None:
    room, engine = dealt, _engine(dealt)
    first = engine.to_act
    player = room.seats[first]
    assert runtime.leave("room", first, player) == "after the game"
    assert first in room.sitting_out and first in room.seats  # dealt in: kept till the end
    # the action clock defaults a seat sitting out at once: folded (facing the big blind)
    due = room.due(0.0, runtime.seat_rules)
    assert [a.encode()["decision"] for a in due] == ["fold"]
    room.act_many(due, by="timeout")
    assert first in engine.chips.folded
    _play_out(room)
    assert first not in room.seats  # freed when the hand ended, its stack back home
    lost = engine.chips.total[first]
    assert room.stack(player) == 0 and runtime.balance(player) == 50_000 - lost
    runtime.audit()


def test_the_clock_checks_or_folds_then_the_seat_sits_out(tmp_path: Path) -> None:
    rules = SeatRules(per_table=1, floor=4, action_seconds=30.0)
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True, seat_rules=rules)
    try:
        room = _dealt(rt)
        late = _engine(room).to_act
        assert room.due(100.0, rules) == []  # the clock starts when the seat is asked
        due = room.due(131.0, rules)
        assert [(a.seat, a.encode()["decision"]) for a in due] == [(late, "fold")]
        room.act_many(due, by="timeout")
        assert late in room.sitting_out
        _play_out(room, pick="check")
        assert late not in room.ready()  # sitting out: not dealt the next hand
        room.come_back(late, room.seats[late])  # back
        assert late in room.ready()
        records = [r for r in rt._game_records(room.game or "") if r["type"] == "action"]
        assert any(r["source"] == "timeout" for r in records)  # logged as the clock's
    finally:
        rt.close()


def test_a_crashed_hand_resumes_exactly_from_the_log(tmp_path: Path) -> None:
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", create=True)
    room = _dealt(rt)
    room.act(Decide(seat=_engine(room).to_act, decision="call"))
    before = room.view(None)
    game = room.game
    rt.close()  # as a crash leaves it: the hand open in the log
    rt2 = Runtime(store, synchronous="NORMAL")
    try:
        again = rt2.open_table("room", HOLDEM, seeded_outcomes(3))
        assert isinstance(again, Room)
        outcome = rt2.recover()
        assert [(r.game, r.outcome) for r in outcome] == [(game, "resumed")]
        assert again.view(None)["state"] == before["state"]
        _play_out(again)
        assert _engine(again).is_over
        rt2.audit()
        assert session_hands(rt2, "room").count("PokerStars Hand #") == 1  # of this session
    finally:
        rt2.close()


def test_a_voided_hand_returns_every_committed_chip(runtime: Runtime) -> None:
    room = _seated(runtime, "poker-room-stud-2-4")  # antes, the bring-in, a seat fee
    stacks = room.stacks()
    room.start_hand()
    engine = _engine(room)
    seat = engine.to_act
    room.act(Decide(seat=seat, decision=sorted(engine.legal_actions(seat))[0]))
    assert room.stacks() != stacks
    room.suspend("test: the floor voids the hand")
    returned = runtime.void_table("room", reason="misdeal", by="operator:test")
    assert returned  # every seat's chips in the pot came back...
    assert sum(runtime.balance(p) for p in PLAYERS) == 150_000  # ...and, seats freed, home
    with runtime.db.read() as tx:
        assert tx.ledger.balance(ledger.pot("room")) == 0
        assert tx.ledger.balance(ledger.REVENUE) == 0  # the seat fee too: never played
    runtime.audit()


def test_the_audit_names_a_forged_pot_or_stack_posting(tmp_path: Path) -> None:
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", create=True)
    _play_out(_dealt(rt))
    rt.close()
    assert audit_store(store)["total"] == 0
    conn = sqlite3.connect(store / "croupier.db")
    with conn:  # move a dollar of a pot won from one stack to the revenue account
        txn, account = conn.execute(
            "SELECT p.txn, p.account FROM postings p JOIN txns t ON t.id = p.txn "
            "WHERE t.kind = 'pot-won' AND p.account LIKE 'stack:%' LIMIT 1"
        ).fetchone()
        conn.execute(
            "UPDATE postings SET amount = amount - 100 WHERE txn = ? AND account = ?",
            (txn, account),
        )
        conn.execute(
            "INSERT INTO postings (txn, account, amount) VALUES (?, 'revenue', 100)", (txn,)
        )
        conn.execute("UPDATE accounts SET balance = balance - 100 WHERE name = ?", (account,))
        conn.execute("UPDATE accounts SET balance = balance + 100 WHERE name = 'revenue'")
    conn.close()
    with pytest.raises(AuditError, match=f"ledger transaction {txn} \\(pot-won\\) differs"):
        audit_store(store)


def test_every_hand_is_in_each_players_history_and_recall(runtime: Runtime, dealt: Room) -> None:
    room = dealt
    folder = _engine(room).to_act
    room.act(Decide(seat=folder, decision="fold"))  # folds with nothing in the pot
    _play_out(room)
    game = room.game
    records = list(runtime._game_records(game or ""))
    folded = {r["body"]["card"] for r in records if r["body"].get("to") == str(folder)}
    assert len(folded) == 2
    for seat, player in enumerate(PLAYERS):
        (row,) = runtime.history(player)
        assert row["game"] == game and row["status"] == "settled"
        rep = runtime.replay(game or "")
        assert rep is not None and rep.matches
        shown = set(CARD.findall(render_recall(rep, {seat * 3})))
        if seat * 3 != folder:
            assert not shown & folded  # a folded hand stays private
        else:
            assert folded <= shown  # its own cards, to its player


def test_a_player_new_to_the_game_posts_a_big_blind_to_come_in(
    runtime: Runtime, room: Room
) -> None:
    """The variant's [room] entry rule ("a new player posts a big blind (live) to be
    dealt in"): Cy sits out the first hand and is dealt the second with a big blind."""
    room.sit_out(6, "cy")
    room.start_hand()
    assert 6 not in _engine(room).seats_in
    _play_out(room)
    room.come_back(6, "cy")
    room.start_hand()
    records = list(runtime._game_records(room.game or ""))
    start = next(r["body"] for r in records if r["body"].get("kind") == "hand-start")
    assert [s for s, _ in start["stacks"]] == [0, 3, 6]
    assert start["posts"] == [[6, "bb"]]  # the room asks the post of Cy alone
    blinds = {
        r["body"]["seat"]: r["body"]["what"]
        for r in records
        if r["body"].get("kind") == "chips-in" and r["body"]["what"].endswith("-blind")
    }
    assert 6 in blinds  # its big blind, or the blind its seat owes this hand (the engine's)


def test_sitting_out_by_choice_keeps_this_hands_decisions(runtime: Runtime, dealt: Room) -> None:
    """Sit out mid-hand: the player still decides this hand (the clock does not fold it
    at once), is not dealt the next, and is dealt again once back."""
    room = dealt
    seat = _engine(room).to_act
    room.sit_out(seat, room.seats[seat])
    assert room.due(0.0, runtime.seat_rules) == []  # its clock runs as anybody's
    room.act(Decide(seat=seat, decision="call"))  # acting does not cancel the sit out
    _play_out(room)
    assert seat not in room.ready() and room.is_sitting_out(seat)
    room.come_back(seat, room.seats[seat])
    assert seat in room.ready()


def test_back_after_missing_the_blinds_posts_both(runtime: Runtime, dealt: Room) -> None:
    """The variant's [room] missed_blinds = "post-both": Cy sits out while the big blind
    goes past the seat, and comes back posting the big blind live and the small dead."""
    room = dealt
    _play_out(room)
    room.sit_out(6, "cy")
    for _ in range(4):  # heads-up between seats 0 and 3 until the big blind passes seat 6
        room.start_hand()
        _play_out(room)
        if 6 in room._missed:
            break
    assert 6 in room._missed
    room.come_back(6, "cy")
    room.start_hand()
    records = list(runtime._game_records(room.game or ""))
    start = next(r["body"] for r in records if r["body"].get("kind") == "hand-start")
    assert start["posts"] == [[6, "bb+sb"]]
    assert 6 not in room._missed  # dealt in: it owes nothing now
    _play_out(room)
    text = session_hands(room.rt, "room").split("\n\n\n")[-1]
    assert "Cy: posts small & big blinds $3" in text  # PokerStars' words for both posts
    runtime.audit()
