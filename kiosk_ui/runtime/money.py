"""Turn an engine's money events into ledger transactions (one rule per event kind)."""

from __future__ import annotations

import sqlite3

from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Event,
    JackpotContribution,
    JackpotWin,
)
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
    reset: int = 0,
) -> int:
    """Post the ledger rows for one event; return the player's net change in play (cents).

    BetPlaced: wallet -> stakes. BetReturned: stakes -> wallet. BetSettled: the stake
    leaves the layout; the player gets ``returned - commission``; the house takes
    ``stake - returned``; commission goes to its own account. JackpotContribution: house ->
    meter. JackpotWin: meter -> wallet (see :func:`pay_jackpot`). Other events move no money.
    """
    w, s = ledger.wallet(player), ledger.stakes(table)
    memo = f"seat {event.seat}" if hasattr(event, "seat") else ""
    if isinstance(event, BetPlaced):
        moves = [Posting(w, -event.amount), Posting(s, event.amount)]
        ledger.post(
            conn, "bet", moves, ts=ts, game=game, memo=f"{memo} {event.bet}", log_seq=log_seq
        )
        return 0
    if isinstance(event, BetReturned):
        moves = [Posting(s, -event.amount), Posting(w, event.amount)]
        ledger.post(
            conn,
            "bet-returned",
            moves,
            ts=ts,
            game=game,
            memo=f"{memo} {event.bet}",
            log_seq=log_seq,
        )
        return 0
    if isinstance(event, BetSettled):
        if min(event.stake, event.returned, event.commission) < 0:
            raise LedgerError(f"negative amount in settlement {event}")
        moves = [
            Posting(s, -event.stake),
            Posting(w, event.returned - event.commission),
            Posting(ledger.HOUSE, event.stake - event.returned),
            Posting(ledger.COMMISSION, event.commission),
        ]
        kind = event.result if event.result in ("win", "lose", "push") else "settle"
        ledger.post(
            conn, kind, moves, ts=ts, game=game, memo=f"{memo} {event.bet}", log_seq=log_seq
        )
        return event.net
    if isinstance(event, JackpotContribution):
        if event.amount < 0:
            raise LedgerError(f"negative jackpot contribution {event}")
        moves = [
            Posting(ledger.HOUSE, -event.amount),
            Posting(ledger.jackpot(event.meter), event.amount),
        ]
        ledger.post(
            conn, "jackpot-contribution", moves, ts=ts, game=game, memo=memo, log_seq=log_seq
        )
        return 0
    if isinstance(event, JackpotWin):
        return pay_jackpot(
            conn, event, player=player, game=game, ts=ts, log_seq=log_seq, reset=reset
        )
    return 0


def jackpot_award(meter_balance: int, event: JackpotWin) -> int:
    """Cents a progressive award pays: the fixed part plus its share of the meter.

    >>> jackpot_award(2_500_000, JackpotWin(seat=0, meter="m", share_bp=1_000))
    250000
    >>> jackpot_award(2_500_000, JackpotWin(seat=0, meter="m", fixed=50_000))
    50000
    """
    return event.fixed + meter_balance * event.share_bp // 10_000


def pay_jackpot(
    conn: sqlite3.Connection,
    event: JackpotWin,
    *,
    player: str,
    game: str,
    ts: int,
    log_seq: int,
    reset: int,
) -> int:
    """Pay a progressive award from its meter, then refill the meter to ``reset`` from the house."""
    meter = ledger.jackpot(event.meter)
    balance = ledger.balance(conn, meter)
    amount = jackpot_award(balance, event)
    top_up = max(0, amount - balance)  # the house guarantees a fixed award a low meter cannot
    postings = [Posting(ledger.HOUSE, -top_up), Posting(meter, top_up)] if top_up else []
    postings += [Posting(meter, -amount), Posting(ledger.wallet(player), amount)]
    ledger.post(conn, "jackpot-win", postings, ts=ts, game=game, memo=event.hand, log_seq=log_seq)
    refill = max(0, reset - ledger.balance(conn, meter))
    if refill:
        ledger.post(
            conn,
            "jackpot-reset",
            [Posting(ledger.HOUSE, -refill), Posting(meter, refill)],
            ts=ts,
            game=game,
            memo=f"meter {event.meter} back to its reset value",
            log_seq=log_seq,
        )
    return amount
