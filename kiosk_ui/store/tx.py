"""The store's unit of work: a connection with the repositories bound to it.

:class:`SqliteTx` *is* the SQLite store's ``sqlite3.Connection`` (the connection
factory makes it); :class:`kiosk_ui.store.pg.PgTx` is the PostgreSQL store's. Both
carry the same repositories (:class:`Repositories`: one copy of every query, run on
either engine through :mod:`kiosk_ui.store.sql`), so the store's own modules (the
ledger, the audit) run their statements on it directly, while the table runtime and
the web routes see only the :class:`~kiosk_ui.store.protocol.Tx` protocol:
``tx.games``, ``tx.shoes``, ``tx.log``, ... One store has one connection, so one Tx
serves every unit of work, each under the store's lock
(:meth:`kiosk_ui.store.group.GroupCommit.transaction` / ``read``).
"""

from __future__ import annotations

import sqlite3
from typing import Any, cast

from kiosk_ui.store.checkpoints import SqliteCheckpoints
from kiosk_ui.store.game_seats import SqliteGameSeats
from kiosk_ui.store.games import SqliteGames
from kiosk_ui.store.idempotency import SqliteIdempotency
from kiosk_ui.store.leases import SqliteLeases
from kiosk_ui.store.ledger import SqliteLedger
from kiosk_ui.store.lockouts import SqliteLockouts
from kiosk_ui.store.log_records import SqliteLog
from kiosk_ui.store.operators import SqliteOperators
from kiosk_ui.store.players import SqlitePlayers
from kiosk_ui.store.shoes import SqliteShoes
from kiosk_ui.store.sql import Conn
from kiosk_ui.store.vouchers import SqliteVouchers


class Repositories:
    """The repositories of a unit of work, bound to the connection that is the Tx.

    A repository added here is on both backends at once (its SQL must be portable:
    see :mod:`kiosk_ui.store.sql`)."""

    #: the writer whose rows of the house's accounts this connection updates on a
    #: shared store (:mod:`kiosk_ui.store.ledger`); "" on a one-writer store
    shard: str = ""

    def _attach(self) -> None:
        conn = cast(Conn, self)
        self.log = SqliteLog(conn)
        self.checkpoints = SqliteCheckpoints(conn)
        self.games = SqliteGames(conn)
        self.seats = SqliteGameSeats(conn)
        self.shoes = SqliteShoes(conn)
        self.ledger = SqliteLedger(conn)
        self.players = SqlitePlayers(conn)
        self.idempotency = SqliteIdempotency(conn)
        self.operators = SqliteOperators(conn)
        self.vouchers = SqliteVouchers(conn)
        self.lockouts = SqliteLockouts(conn)
        self.leases = SqliteLeases(conn)  # shared stores only (kiosk_ui.store.leases)


class SqliteTx(sqlite3.Connection, Repositories):
    """A connection that carries the store's repositories (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._attach()
