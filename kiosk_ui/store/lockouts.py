"""Guessing counts as stored: the ``lockouts`` table, one row per throttled key.

A row is a :class:`kiosk_ui.backoff.Backoff` entry kept where every process of the
store sees it (:class:`kiosk_ui.backoff.StoreBackoff`): the workers of ``serve
--workers`` on one SQLite file and the appliances of a floor on one PostgreSQL
database share one count per user name, client address or kiosk, so spreading guesses
over the floor's servers buys no more tries than sending them all to one, and a restart
forgets no lock. ``scope`` names the counter (``sign-in-user``, ``sign-in-address``,
``voucher``), ``key`` what it counts; times are microseconds since the epoch (the
processes share no monotonic clock). An attempt is charged here when it is let in,
before its password work, so ``failures`` counts the tries under way as well as the
failed ones (``StoreBackoff.admit``).
"""

from __future__ import annotations

from typing import NamedTuple

from kiosk_ui.store.schema import LOCKOUTS_DDL
from kiosk_ui.store.sql import Conn, add_table


class LockoutRow(NamedTuple):
    """One key's failures since its last success, the locks they imposed, and when."""

    failures: int
    locks: int
    locked_at: int  # µs; 0 while no lock was imposed
    last: int  # µs of the last failure


class SqliteLockouts:
    """The guessing-counts repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def ensure_table(self) -> None:
        """Stores made before the counts were shared get the table."""
        add_table(self._conn, "lockouts", LOCKOUTS_DDL)

    def get(self, scope: str, key: str) -> LockoutRow | None:
        row = self._conn.execute(
            "SELECT failures, locks, locked_at, last FROM lockouts WHERE scope = ? AND key = ?",
            (scope, key),
        ).fetchone()
        return None if row is None else LockoutRow(*(int(v) for v in row))

    def hold(self, scope: str, key: str, now: int) -> LockoutRow:
        """The key's row as it stands, made (all zeros, ``last`` = ``now``) if missing, and
        held for the rest of the unit of work: a no-op update takes PostgreSQL's row
        lock, waiting out another writer of the row and reading what it committed (a
        plain read could miss it, and the write that followed would lose its count);
        on SQLite the store's writer lock holds every row anyway."""
        row = self._conn.execute(
            "INSERT INTO lockouts (scope, key, failures, locks, locked_at, last) "
            "VALUES (?, ?, 0, 0, 0, ?) ON CONFLICT (scope, key) DO UPDATE SET "
            "last = lockouts.last RETURNING failures, locks, locked_at, last",
            (scope, key, now),
        ).fetchone()
        return LockoutRow(*(int(v) for v in row))

    def put(self, scope: str, key: str, row: LockoutRow) -> None:
        self._conn.execute(
            "INSERT INTO lockouts (scope, key, failures, locks, locked_at, last) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET "
            "failures = excluded.failures, locks = excluded.locks, "
            "locked_at = excluded.locked_at, last = excluded.last",
            (scope, key, *row),
        )

    def clear(self, scope: str, key: str) -> None:
        self._conn.execute("DELETE FROM lockouts WHERE scope = ? AND key = ?", (scope, key))

    def forget(self, scope: str, before: int) -> None:
        """Drop ``scope``'s rows idle since before ``before`` (µs): they count from zero
        again, and spraying keys cannot grow the table without bound."""
        self._conn.execute("DELETE FROM lockouts WHERE scope = ? AND last < ?", (scope, before))
