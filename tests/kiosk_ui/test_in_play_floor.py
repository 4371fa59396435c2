"""What the store tells any server of a shared store about a player's money on a layout
(issue 18: a kiosk on one server must not end the session of a player whose chips are on
another server's table): ``tx.ledger.has_stack`` and ``tx.seats.in_open_game``, asked of
server A about a poker room served by server B, on both backends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kiosk_ui.table.room import Room
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes
from .test_room_restart import BUY, HOLDEM, _finish, deal_mid_hand


def test_any_server_sees_chips_at_another_servers_room(
    shared_store: tuple[Callable[[int], Runtime], Path],
) -> None:
    start, _ = shared_store
    a, b = start(0), start(1)
    room = b.open_table("room", HOLDEM, seeded_outcomes(3))
    assert isinstance(room, Room)
    deal_mid_hand(b, room)  # four buy in at B's room, three are dealt a hand, Dee sits out
    with a.db.read() as tx:
        assert all(tx.ledger.has_stack(p) for p in ("ann", "bo", "cy", "dee"))
        assert not tx.ledger.has_stack("an") and not tx.ledger.has_stack("nobody")
        assert not tx.seats.in_open_game("nobody")
    _finish(room)  # the hand ends (the clock plays it out)
    for player, (seat, _) in BUY.items():
        assert b.leave("room", seat, player) == "now"  # each stack home
    with a.db.read() as tx:
        assert not any(tx.ledger.has_stack(p) for p in ("ann", "bo", "cy", "dee"))
        assert not any(tx.seats.in_open_game(p) for p in ("ann", "bo", "cy", "dee"))
