"""Scripted play through the real runtime, as labs do for in-situ RTP checks and soak tests.

Each family documents its scripted player (``games.<family>.autoplay``); this
module only loops it through a :class:`~kiosk_ui.table.table.Table`, so every
round goes through the wallet, the ledger and the signed log like a player's.
"""

from __future__ import annotations

from games.core.records import Action, Decide, PlaceBet
from kiosk_ui.errors import TableError
from kiosk_ui.table.room import Room
from kiosk_ui.table.room_engine import buy_in_limits, to_act
from kiosk_ui.table.table import Table

MAX_STEPS = 10_000


def play_round(table: Table, seat: int) -> str:
    """Play one game to its end with the family's scripted player; return the game id."""
    for _ in range(MAX_STEPS):
        engine = table.current_engine()
        action = table.family.autoplay(engine, seat)
        if action is None:
            raise TableError(
                f"autoplay for {table.variant.id} stopped with the game unfinished "
                f"(legal: {sorted(engine.legal_actions(seat))})"
            )
        result = table.act(action)
        if result.over:
            return result.game
    raise TableError(f"autoplay for {table.variant.id} did not finish in {MAX_STEPS} steps")


def play_seats(table: Table, seats: int, bank: int | None = None) -> str:
    """Play one game with the scripted player at seats ``0..seats-1``; with ``bank``,
    seat 0 takes page 004's Player/Dealer position with ``bank`` cents whenever it is
    offered (the others decline it by betting and dealing).

    Seat 0 banks first, then every seat's bets go down before anyone deals, so the bank
    covers the other seats' wagers in order from its left. This is the kill test's drive
    for a player/dealer bank on the layout (``croupier table autoplay --bank``)."""
    for _ in range(MAX_STEPS):
        engine = table.current_engine()
        wanted: list[Action] = []
        for seat in range(seats):
            action: Action | None
            if seat == 0 and bank is not None and "bank" in engine.legal_actions(seat):
                action = Decide(seat=seat, decision="bank", arg=str(bank))
            else:
                action = table.family.autoplay(engine, seat)
            if action is not None:
                wanted.append(action)
        if not wanted:
            raise TableError(f"autoplay for {table.variant.id}: no seat can act")
        banks = [a for a in wanted if isinstance(a, Decide) and a.decision == "bank"]
        bets = [a for a in wanted if isinstance(a, PlaceBet)]
        result = table.act((banks or bets or wanted)[0])
        if result.over:
            return result.game
    raise TableError(f"autoplay for {table.variant.id} did not finish in {MAX_STEPS} steps")


def play_room_hand(room: Room, players: dict[int, str]) -> str:
    """Play one poker room hand with the family's scripted player at every seat of
    ``players`` (seat -> player): between hands each tops its stack up to the maximum
    buy-in, then the room deals (or a hand a restart resumed plays on) until it ends."""
    engine = room.engine
    if engine is None or engine.is_over or room.game is None:
        high = buy_in_limits(room.variant)[1]
        for seat, player in sorted(players.items()):
            if room.seats.get(seat) != player or room.stack(player) < high:
                room.buy_in(seat, player, max(0, high - room.stack(player)))
        room.start_hand()
    for _ in range(MAX_STEPS):
        engine = room.engine
        assert engine is not None and room.game is not None
        if engine.is_over:
            return room.game
        acting = to_act(engine)
        action = room.family.autoplay(engine, acting) if acting is not None else None
        if action is None:
            raise TableError(f"autoplay for {room.variant.id}: no seat can act")
        room.act(action)
    raise TableError(f"autoplay for {room.variant.id} did not finish in {MAX_STEPS} steps")
