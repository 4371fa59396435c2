"""A table's money, split from :mod:`kiosk_ui.table.table` to keep one job a module.

A California table's collection (:mod:`games.core.collection`): shown in the view while
bets are open, and a deal refused that a seated player cannot pay it for. Each money
event the engine emits (:data:`~kiosk_ui.table.money.MONEY_EVENTS`; a poker room's own:
:class:`~kiosk_ui.table.room.Room`) becomes its ledger rows, each naming the log record
that caused it, and what the seat staked and won goes to its row of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.core.engine import Engine
from games.core.records import BetPlaced, BetReturned, Event, JackpotWin
from kiosk_ui.store import ledger
from kiosk_ui.store.protocol import Tx
from kiosk_ui.table.money import (
    MONEY_EVENTS,
    RowKeys,
    check_collection,
    collection_due,
    post_event,
)
from kiosk_ui.table.suspension import Suspension

if TYPE_CHECKING:
    from certification.log.chain import StoredRecord


class TableMoney(Suspension):
    """The money half of :class:`~kiosk_ui.table.table.Table`."""

    money_events: tuple[type[Event], ...] = MONEY_EVENTS  # a poker room has its own

    def _show_collection(self, base: dict[str, Any], engine: Engine) -> None:
        """A California table's view: the collection each seat will pay for its wagers
        now placed (``collection``: seat as text -> cents), while bets are still open."""
        if self.variant.collection is None:
            return
        open_ = any("deal" in engine.legal_actions(s) for s in range(self.variant.seats))
        due = collection_due(engine) if open_ else []
        base["collection"] = {str(c.seat): c.amount for c in due}

    def _check_collection(self, conn: Tx, engine: Engine) -> None:
        """Refuse a deal a seated player cannot pay the collection for."""
        wallets = {s: conn.ledger.balance(ledger.wallet(p)) for s, p in self.seats.items() if p}
        check_collection(collection_due(engine), wallets)

    def _post(self, conn: Tx, ev: Event, seat: int | None, rec: StoredRecord, ts: int) -> None:
        """A money event's ledger rows (the family's: :meth:`_post_rows`), each naming the
        log record ``rec``, and what it staked and won in the seat's row of the game."""
        assert self.game is not None
        player = self.player_at(seat) if seat is not None else ""
        keys = RowKeys(
            table=self.id, game=self.game, player=player, ts=ts, log_seq=rec.seq, log_hash=rec.hash
        )
        staked, net = self._post_rows(conn, ev, seat, keys)
        if seat is not None:
            conn.seats.add(self.game, seat, player, staked, net)

    def _post_rows(self, conn: Tx, ev: Event, seat: int | None, keys: RowKeys) -> tuple[int, int]:
        """A house-banked game's rows for a seat's money event (a poker room posts its
        own); returns (staked, net) for the seat's row. A jackpot win's paid amount is
        logged (``jackpot-paid``): engines state the award, the meter sets the amount."""
        assert self.game is not None and seat is not None
        reset = self.variant.jackpots.get(getattr(ev, "meter", ""), 0)
        net = post_event(conn, ev, **keys, reset=reset)
        if isinstance(ev, JackpotWin):
            body = {"seat": seat, "meter": ev.meter, "amount": net}
            self.rt.log.append(conn, "runtime", "jackpot-paid", body, self.game)
        staked = ev.amount if isinstance(ev, BetPlaced) else 0
        staked -= ev.amount if isinstance(ev, BetReturned) else 0
        return staked, net
