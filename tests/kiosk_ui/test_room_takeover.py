"""A poker room taken over from another appliance of a shared store sends the stacks it
left home exactly as a restart does (test_room_restart.py): the takeover's recovery
(:meth:`Runtime.adopt_table`, ``recover(only=...)``, what the standby loop calls once the
holder's lease is free) resumes the room's open hand, returns at once the stacks of the
players not dealt into it, and keeps the others' for that hand, each sent home at its
end. No stack is paid twice: not to a player who sits back down with 0, not when the
appliance that took the room over stops in its turn and a third takes it over.

The appliances share one store: the workers of one appliance on its SQLite file
(``shared=True``, one chain each) and appliances on one PostgreSQL database. Each one
stops (``close``, its lease given up) with the hand open in the log, as a crash leaves it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk_ui.errors import SeatError
from kiosk_ui.table.room import Room
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes
from .test_floor import verify_floor
from .test_room_restart import (
    BUY,
    CASH,
    HOLDEM,
    _finish,
    _stack_outs,
    assert_dee_home_first,
    assert_every_stack_home,
    deal_mid_hand,
)

Appliance = Callable[[int], Runtime]


@pytest.fixture
def appliances(shared_store: tuple[Appliance, Path]) -> tuple[Appliance, Path]:
    """``start(i)``: the i-th appliance (a worker of the SQLite file, or an appliance with
    its copy of the store's keys on the PostgreSQL database), and the store to audit."""
    return shared_store


def _stop(rt: Runtime) -> None:
    """The appliance stops with the room's hand open in the log; its lease is free."""
    rt.close()


def _room_mid_hand(rt: Runtime) -> str:
    """A hand dealt at ``rt``'s room (:func:`deal_mid_hand`), open in the log."""
    room = rt.open_table("room", HOLDEM, seeded_outcomes(3))
    assert isinstance(room, Room)
    return deal_mid_hand(rt, room)


def _take_over(rt: Runtime, game: str) -> Room:
    room, done = rt.adopt_table("room", HOLDEM, seeded_outcomes(4))
    assert isinstance(room, Room)
    assert [(r.game, r.outcome) for r in done] == [(game, "resumed")]
    return room


def test_a_room_taken_over_sends_home_the_stacks_its_last_appliance_left(
    appliances: tuple[Appliance, Path],
) -> None:
    start, store = appliances
    a, b = start(0), start(1)
    game = _room_mid_hand(a)
    _stop(a)
    assert b.balance("dee") == CASH - BUY["dee"][1]  # her stack is still at the room

    room = _take_over(b, game)
    # Dee sat out of the hand: her stack is home at once, her seat free
    assert b.balance("dee") == CASH and room.stack("dee") == 0 and 8 not in room.seats
    assert sorted(room.seats) == [0, 3, 6]  # the three dealt in keep theirs for the hand
    engine = room.engine
    assert engine is not None
    _finish(room)  # nobody came back: the clock plays their defaults
    assert_every_stack_home(b, room, engine)
    _stop(b)
    report = verify_floor(store)  # the audit from the log, and log verify, every chain
    assert report["stacks"] == 0 and report["open_games"] == 0
    assert_dee_home_first(store)


def test_two_takeovers_in_a_row_and_a_re_sit_pay_no_stack_twice(
    appliances: tuple[Appliance, Path],
) -> None:
    start, store = appliances
    a, b, c = start(0), start(1), start(2)
    game = _room_mid_hand(a)
    _stop(a)

    room = _take_over(b, game)
    assert b.balance("dee") == CASH
    with pytest.raises(SeatError, match="no chips"):
        room.buy_in(8, "dee", 0)  # her chips went home: nothing to sit down with again
    assert b.balance("dee") == CASH and 8 not in room.seats
    held = {p: room.stack(p) for p in ("ann", "bo", "cy")}
    _stop(b)  # b stops in its turn, the hand still open

    room = _take_over(c, game)
    assert c.balance("dee") == CASH  # not paid again
    assert {p: room.stack(p) for p in held} == held
    assert room.buy_in(0, "ann", 0) == held["ann"]  # Ann is back: her seat stays hers
    engine = room.engine
    assert engine is not None
    _finish(room, mine=lambda seat: seat == 0)
    assert sorted(room.seats) == [0]  # Bo and Cy freed at the end, Ann plays on
    assert room.stack("ann") == engine.chips.stack[0] > 0  # type: ignore[attr-defined]
    assert c.leave("room", 0, "ann") == "now"
    for player, (seat, amount) in BUY.items():
        left = engine.chips.stack.get(seat, amount)  # type: ignore[attr-defined]
        assert c.balance(player) == CASH - amount + left, player
    wallets = {p: c.balance(p) for p in BUY}
    _stop(c)

    d = start(3)  # a fourth takes the room over and finds nothing left to return
    room, done = d.adopt_table("room", HOLDEM, seeded_outcomes(5))
    assert done == [] and room.seats == {}
    assert {p: d.balance(p) for p in BUY} == wallets
    _stop(d)
    outs = _stack_outs(store)
    assert sorted(str(o["player"]) for o in outs) == sorted(BUY)  # one stack-out each
    assert verify_floor(store)["stacks"] == 0
