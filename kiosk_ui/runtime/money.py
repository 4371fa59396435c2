"""Turn an engine's money events into ledger transactions (one rule per event kind)."""

from __future__ import annotations

import sqlite3

from games.core.records import BetPlaced, BetReturned, BetSettled, Event
from kiosk_ui.errors import LedgerError
from kiosk_ui.store import ledger
from kiosk_ui.store.ledger import Posting


def post_event(
    conn: sqlite3.Connection,
    event: Event,
    *,
    table: str,
    game: str,
    player: str,
    ts: int,
    log_seq: int,
) -> int:
    """Post the ledger rows for one event; return the player's net change in play (cents).

    BetPlaced: wallet -> stakes. BetReturned: stakes -> wallet. BetSettled: the stake
    leaves the layout; the player gets ``returned - commission``; the house takes
    ``stake - returned``; commission goes to its own account. Other events move no money.
    """
    w, s = ledger.wallet(player), ledger.stakes(table)
    if isinstance(event, BetPlaced):
        ledger.post(
            conn,
            "bet",
            [Posting(w, -event.amount), Posting(s, event.amount)],
            ts=ts,
            game=game,
            memo=f"seat {event.seat} {event.bet}",
            log_seq=log_seq,
        )
        return 0
    if isinstance(event, BetReturned):
        ledger.post(
            conn,
            "bet-returned",
            [Posting(s, -event.amount), Posting(w, event.amount)],
            ts=ts,
            game=game,
            memo=f"seat {event.seat} {event.bet}",
            log_seq=log_seq,
        )
        return 0
    if isinstance(event, BetSettled):
        if min(event.stake, event.returned, event.commission) < 0:
            raise LedgerError(f"negative amount in settlement {event}")
        ledger.post(
            conn,
            event.result if event.result in ("win", "lose", "push") else "settle",
            [
                Posting(s, -event.stake),
                Posting(w, event.returned - event.commission),
                Posting(ledger.HOUSE, event.stake - event.returned),
                Posting(ledger.COMMISSION, event.commission),
            ],
            ts=ts,
            game=game,
            memo=f"seat {event.seat} {event.bet} {event.result}",
            log_seq=log_seq,
        )
        return event.net
    return 0
