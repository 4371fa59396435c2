"""A restart sends every stack at a poker room home (issue 15's follow-up): the hand open
at the crash is recovered first (resumed from the log, or voided with every committed
chip back to its stack), then each stack goes back to its player's wallet as leaving does
(a ``stack-out`` record and its ledger rows in one unit), except the stacks of the seats
dealt into the resumed hand, which go home when it ends (unless their player comes
back). The audit derives it all from the log, the log verifies, and no stack is paid twice:
not to a player who sits back down, not over two restarts in a row."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core.engine import Engine
from games.core.records import Decide
from kiosk_ui.errors import SeatError
from kiosk_ui.store import ledger
from kiosk_ui.store.audit import audit_store
from kiosk_ui.table import runtime as runtime_module
from kiosk_ui.table.room import Room
from kiosk_ui.table.runtime import Runtime
from tests.kiosk_ui.conftest import seeded_outcomes, verified_lines

HOLDEM = "poker-room-holdem-2-4"
CASH = 50_000
BUY = {"ann": (0, 4_000), "bo": (3, 5_000), "cy": (6, 6_000), "dee": (8, 3_000)}


def _open(store: Path, url: str | None, *, create: bool = False) -> tuple[Runtime, Room]:
    rt = Runtime(store, synchronous="NORMAL", create=create, url=url)
    room = rt.open_table("room", HOLDEM, seeded_outcomes(3))
    assert isinstance(room, Room)
    return rt, room


def _crash_mid_hand(store: Path, url: str | None = None) -> str:
    """:func:`deal_mid_hand` at a new store's room; then the runtime stops as a crash
    leaves it (the hand open in the log)."""
    rt, room = _open(store, url, create=True)
    game = deal_mid_hand(rt, room)
    rt.close()
    return game


def deal_mid_hand(rt: Runtime, room: Room) -> str:
    """Four players buy in at ``room``, Dee sits out, a hand is dealt to the other three
    and one of them calls: the hand's game id."""
    for player, (seat, amount) in BUY.items():
        rt.create_player(player.title(), player)
        rt.cash_in(player, CASH, "op")
        room.buy_in(seat, player, amount)
    room.sit_out(8, "dee")
    room.start_hand()
    engine = room.engine
    assert engine is not None and 8 not in engine.seats_in  # type: ignore[attr-defined]
    room.act(Decide(seat=engine.to_act, decision="call"))  # type: ignore[attr-defined]
    game = room.game
    assert game is not None
    return game


def assert_every_stack_home(rt: Runtime, room: Room, engine: Engine) -> None:
    """Once the resumed hand has ended with nobody back: every seat free, each player's
    wallet their cash less their buy-in plus what their stack ended the hand with
    (``engine``'s), no stack left in the ledger or the audit, and the wallets and the
    house's revenue adding up to the cash paid in."""
    assert room.seats == {}  # freed at its end, every stack home
    for player, (seat, amount) in BUY.items():
        left = engine.chips.stack.get(seat, amount)  # type: ignore[attr-defined]
        assert room.stack(player) == 0
        assert rt.balance(player) == CASH - amount + left, player
    assert rt.audit()["stacks"] == 0
    with rt.db.read() as tx:
        revenue = tx.ledger.balance(ledger.REVENUE)
        assert tx.ledger.stacks("room") == {}
    assert sum(rt.balance(p) for p in BUY) + revenue == 4 * CASH


def assert_dee_home_first(store: Path) -> list[dict[str, object]]:
    """The log's ``stack-out`` records: Dee's first, at the restart (she sat out of the
    resumed hand), then the three dealt in, by seat, at the hand's end. Returned."""
    outs = _stack_outs(store)
    assert [(o["player"], o.get("after")) for o in outs] == [
        ("dee", "restart"),
        *((p, None) for p in sorted(set(BUY) - {"dee"}, key=lambda p: BUY[p][0])),
    ]
    return outs


def _finish(room: Room, mine: Callable[[int], bool] = lambda seat: False) -> None:
    """Play the resumed hand out: the seats ``mine`` names decide themselves (check or
    call), the others are the action clock's (the rules' default, source ``timeout``)."""
    rules = room.rt.seat_rules
    now = 0.0
    for _ in range(200):
        engine = room.engine
        assert engine is not None
        if engine.is_over:
            return
        seat = engine.to_act  # type: ignore[attr-defined]
        if mine(seat):
            names = engine.legal_actions(seat)
            room.act(Decide(seat=seat, decision="check" if "check" in names else "call"))
            continue
        now += rules.action_seconds + 1
        due = room.due(now, rules)
        if due:
            room.act_many(due, by="timeout")
    raise AssertionError("the resumed hand did not end")


def _stack_outs(store: Path) -> list[dict[str, object]]:
    """Every ``stack-out`` record of the signed log, once the log verifies."""
    records = [json.loads(line) for line in verified_lines(store)]
    return [r["body"] for r in records if r["type"] == "stack-out"]


def test_a_restart_mid_hand_sends_every_stack_home_once_the_hand_is_recovered(
    tmp_path: Path, store_url: str | None
) -> None:
    store = tmp_path / "store"
    game = _crash_mid_hand(store, store_url)
    rt, room = _open(store, store_url)
    try:
        assert [(r.game, r.outcome) for r in rt.recover()] == [(game, "resumed")]
        # Dee sat out of the hand: her stack is home at once, her seat free
        assert rt.balance("dee") == CASH and room.stack("dee") == 0
        assert 8 not in room.seats
        # the three dealt in keep their seats and stacks for the resumed hand
        assert sorted(room.seats) == [0, 3, 6]
        engine = room.engine
        assert engine is not None
        _finish(room)  # nobody came back: the clock plays their defaults
        assert_every_stack_home(rt, room, engine)
    finally:
        rt.close()
    if store_url is None:  # the SQLite file: the audit from the log, and log verify
        assert audit_store(store)["stacks"] == 0
        outs = assert_dee_home_first(store)
        assert outs[0]["amount"] == BUY["dee"][1] and outs[0]["seat"] == 8


def test_a_hand_voided_at_the_restart_returns_its_chips_then_every_stack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store"
    game = _crash_mid_hand(store)
    rt, _room = _open(store, None)
    try:
        with monkeypatch.context() as m:  # as after a software change: no replay matches
            m.setattr(runtime_module, "replay_game", lambda records: None)
            assert [(r.game, r.outcome) for r in rt.recover()] == [(game, "voided")]
        for player in BUY:  # the pot back to the stacks, then the stacks home
            assert rt.balance(player) == CASH, player
        assert rt.audit()["stacks"] == 0
    finally:
        rt.close()
    assert audit_store(store)["stacks"] == 0
    assert {str(o["player"]) for o in _stack_outs(store)} == set(BUY)


def test_no_stack_is_paid_twice_by_a_re_sit_or_two_restarts_in_a_row(tmp_path: Path) -> None:
    store = tmp_path / "store"
    game = _crash_mid_hand(store)
    rt, room = _open(store, None)
    rt.recover()
    assert rt.balance("dee") == CASH
    with pytest.raises(SeatError, match="no chips"):
        room.buy_in(8, "dee", 0)  # her chips went home: nothing to sit down with again
    assert rt.balance("dee") == CASH and 8 not in room.seats
    held = {p: room.stack(p) for p in ("ann", "bo", "cy")}
    rt.close()  # a second crash, the hand still open

    rt, room = _open(store, None)
    try:
        assert [(r.game, r.outcome) for r in rt.recover()] == [(game, "resumed")]
        assert rt.balance("dee") == CASH  # not paid again
        assert {p: room.stack(p) for p in held} == held
        assert room.buy_in(0, "ann", 0) == held["ann"]  # Ann is back: her seat stays hers
        engine = room.engine
        assert engine is not None
        _finish(room, mine=lambda seat: seat == 0)
        assert sorted(room.seats) == [0]  # Bo and Cy freed at the end, Ann plays on
        ann_left = room.stack("ann")
        assert ann_left == engine.chips.stack[0] > 0  # type: ignore[attr-defined]
        assert rt.leave("room", 0, "ann") == "now"
        for player, (seat, amount) in BUY.items():
            left = engine.chips.stack.get(seat, amount)  # type: ignore[attr-defined]
            assert rt.balance(player) == CASH - amount + left, player
    finally:
        rt.close()
    rt, room = _open(store, None)  # a third restart finds nothing left to return
    try:
        assert rt.recover() == []
    finally:
        rt.close()
    outs = _stack_outs(store)
    assert sorted(str(o["player"]) for o in outs) == sorted(BUY)  # one stack-out each
    assert audit_store(store)["stacks"] == 0
