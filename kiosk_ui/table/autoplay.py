"""Scripted play through the real runtime, as labs do for in-situ RTP checks and soak tests.

Each family documents its scripted player (``games.<family>.autoplay``); this
module only loops it through a :class:`~kiosk_ui.table.table.Table`, so every
round goes through the wallet, the ledger and the signed log like a player's.
"""

from __future__ import annotations

from kiosk_ui.errors import TableError
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
