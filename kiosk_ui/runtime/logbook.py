"""The runtime's handle on the game log: appends records inside store transactions.

Every write goes through :meth:`LogBook.transaction`, which opens one SQLite
transaction for log records and ledger rows together and rolls the in-memory
chain head back if the transaction fails, so the head never runs ahead of disk.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from certification.log import sqlite_store
from certification.log.chain import JournalWriter, StoredRecord
from certification.log.keys import KeyStore, SigningKey, public_pem
from kiosk_ui.errors import StoreError
from kiosk_ui.store.db import Database


def wall_clock_us() -> int:
    return time.time_ns() // 1000


class LogBook:
    def __init__(
        self,
        db: Database,
        *,
        checkpoint_every: int = 1000,
        clock: Callable[[], int] = wall_clock_us,
    ) -> None:
        self.db = db
        self.clock = clock
        self._pending: list[StoredRecord] = []  # the current unit's records, written at its end
        self._depth = 0
        self.keys = KeyStore(db.directory)
        key = self.keys.current()
        if key is None:
            key = SigningKey.generate()
            self.keys.save(key)
        with db.lock:
            seq, head, leaves = sqlite_store.head(db.conn)
        self.writer = JournalWriter(
            key,
            head_seq=seq,
            head_hash=head,
            pending_leaves=leaves,
            checkpoint_every=checkpoint_every,
        )
        if seq == 0:
            with self.transaction() as conn:
                sqlite_store.insert(conn, self.writer.start(self.clock()))

    @contextmanager
    def transaction(self, *, defer: bool = False) -> Iterator[sqlite3.Connection]:
        """One unit of work for log and ledger. The unit's log records are written with
        one statement when it ends (nothing reads the log inside a unit). ``defer``: see
        :meth:`Database.transaction`; whoever commits a deferred group that fails must
        call :meth:`resync`."""
        try:
            with self.db.transaction(defer=defer) as conn:
                mark = self.writer.mark()
                start = len(self._pending)
                self._depth += 1
                try:
                    yield conn
                    if self._depth == 1 and self._pending:
                        sqlite_store.insert(conn, self._pending)
                        self._pending.clear()
                except BaseException:
                    self.writer.reset(mark)
                    del self._pending[start:]
                    raise
                finally:
                    self._depth -= 1
        except StoreError:
            # The group commit holding this work failed: the chain head on disk is the
            # truth (the other units of the group were rolled back too).
            self.resync()
            raise

    def resync(self) -> None:
        with self.db.lock:
            seq, head, leaves = sqlite_store.head(self.db.conn)
        self.writer.reset((seq, head, 0))
        self.writer.restore_leaves(leaves)

    def append(
        self,
        conn: sqlite3.Connection,
        source: str,
        type_: str,
        body: Mapping[str, Any],
        game: str = "",
    ) -> int:
        """Append one record (and a checkpoint if due); return the record's seq."""
        return self.append_record(conn, source, type_, body, game).seq

    def append_record(
        self,
        conn: sqlite3.Connection,
        source: str,
        type_: str,
        body: Mapping[str, Any],
        game: str = "",
    ) -> StoredRecord:
        """:meth:`append`, returning the record itself (its seq and hash name it in the
        ledger rows it causes)."""
        records = self.writer.append(self.clock(), source, type_, body, game)
        self._write(conn, records)
        return records[0]

    def checkpoint(self, conn: sqlite3.Connection) -> None:
        if self.writer.unsigned:
            self._write(conn, [self.writer.checkpoint(self.clock())])

    def _write(self, conn: sqlite3.Connection, records: list[StoredRecord]) -> None:
        if self._depth:
            self._pending.extend(records)
        else:  # outside a unit (first start): write at once
            sqlite_store.insert(conn, records)

    def rotate_key(self, operator: str) -> str:
        """Make a new signing key, recorded in the log and signed by the old one."""
        new_key = SigningKey.generate()
        with self.transaction() as conn:
            self._write(conn, self.writer.rotate(new_key, self.clock(), f"operator:{operator}"))
            self.keys.save(new_key)
        return new_key.key_id

    def public_key_pem(self) -> str:
        return public_pem(self.writer.key.public)
