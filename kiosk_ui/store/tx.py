"""The SQLite store's unit of work: its connection, with the repositories bound to it.

:class:`SqliteTx` *is* the store's ``sqlite3.Connection`` (the connection factory
makes it), so the store's own modules (the ledger, the audit) run their statements on
it directly, while the table runtime and the web routes see only the
:class:`~kiosk_ui.store.protocol.Tx` protocol: ``tx.games``, ``tx.shoes``, ``tx.log``,
... One store has one connection, so one ``SqliteTx`` serves every unit of work, each
under the store's lock (:meth:`kiosk_ui.store.db.Database.transaction` / ``read``).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from kiosk_ui.store.checkpoints import SqliteCheckpoints
from kiosk_ui.store.game_seats import SqliteGameSeats
from kiosk_ui.store.games import SqliteGames
from kiosk_ui.store.idempotency import SqliteIdempotency
from kiosk_ui.store.ledger import SqliteLedger
from kiosk_ui.store.log_records import SqliteLog
from kiosk_ui.store.operators import SqliteOperators
from kiosk_ui.store.players import SqlitePlayers
from kiosk_ui.store.shoes import SqliteShoes


class SqliteTx(sqlite3.Connection):
    """A connection that carries the store's repositories (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log = SqliteLog(self)
        self.checkpoints = SqliteCheckpoints(self)
        self.games = SqliteGames(self)
        self.seats = SqliteGameSeats(self)
        self.shoes = SqliteShoes(self)
        self.ledger = SqliteLedger(self)
        self.players = SqlitePlayers(self)
        self.idempotency = SqliteIdempotency(self)
        self.operators = SqliteOperators(self)
