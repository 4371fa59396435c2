"""Table leases on a shared store: which appliance serves (and writes for) each table.

Several appliances on one PostgreSQL database (``[store] shared = true``) each serve
their own tables. A table's lease (the ``leases`` row: holder, expiry in
microseconds) is taken when an appliance opens the table, renewed by it while it runs,
and taken over by another appliance only once it has expired (its holder died, or was
cut off longer than the lease). Every unit of work that plays a table first checks,
inside the same transaction, that the lease is still this appliance's
(:meth:`SqliteLeases.holds`): a holder that lost its lease writes nothing more for
that table, so two appliances never both append a table's records. The check is an
``UPDATE`` of the lease row and a takeover an upsert of the same row, so the two queue
on its row lock (there is no store-wide lock: each writer appends a chain of its own,
:mod:`certification.log.chains`): a takeover cannot slip between the check and the
unit's records, which commit with the check or not at all.

Beside the leases, each appliance names where it serves (the ``servers`` row: its base
URL, renewed while it runs), so any appliance's lobby and console can show every
table of the floor and send players to the one serving it.
"""

from __future__ import annotations

from kiosk_ui.store.sql import Conn


class SqliteLeases:
    """The leases repository of one connection (portable SQL; the table exists on
    shared stores only: :data:`kiosk_ui.store.schema.LEASES_DDL`)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def take(self, table: str, holder: str, now: int, until: int) -> str:
        """Take ``table`` for ``holder`` until ``until`` if it is free, expired or already
        ``holder``'s; return who holds it now (another holder: not taken).

        A lease another holder still has is answered from a plain read first: a standby
        asking every few seconds never waits on the live holder's row lock (its units
        renew the lease in their own transactions; two standbys of each other's tables
        waiting so would deadlock). The upsert re-checks the expiry itself."""
        held = self._conn.execute(
            "SELECT holder, expires FROM leases WHERE table_id = ?", (table,)
        ).fetchone()
        if held is not None and str(held[0]) != holder and int(held[1]) >= now:
            return str(held[0])
        row = self._conn.execute(
            "INSERT INTO leases (table_id, holder, expires) VALUES (?, ?, ?) "
            "ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder, "
            "expires = excluded.expires WHERE leases.expires < ? OR leases.holder = ? "
            "RETURNING holder",
            (table, holder, until, now, holder),
        ).fetchone()
        if row is not None:
            return str(row[0])
        held = self._conn.execute(
            "SELECT holder, expires FROM leases WHERE table_id = ?", (table,)
        ).fetchone()
        return str(held[0])

    def expires(self, table: str) -> int | None:
        row = self._conn.execute(
            "SELECT expires FROM leases WHERE table_id = ?", (table,)
        ).fetchone()
        return None if row is None else int(row[0])

    def holds(self, table: str, holder: str, now: int, until: int) -> bool:
        """Whether ``holder``'s lease on ``table`` is still good at ``now``; if so it is
        extended to ``until`` in the same statement (a table in play never lapses,
        however long the renewal thread waits behind busy units)."""
        row = self._conn.execute(
            "UPDATE leases SET expires = ? WHERE table_id = ? AND holder = ? "
            "AND expires >= ? RETURNING 1",
            (until, table, holder, now),
        ).fetchone()
        return row is not None

    def renew(self, holder: str, tables: list[str], now: int, until: int) -> set[str]:
        """Extend ``holder``'s unexpired leases among ``tables``; return those it still holds."""
        if not tables:
            return set()
        marks = ", ".join("?" for _ in tables)
        rows = self._conn.execute(
            f"UPDATE leases SET expires = ? WHERE holder = ? AND expires >= ? "
            f"AND table_id IN ({marks}) RETURNING table_id",
            (until, holder, now, *tables),
        ).fetchall()
        return {str(r[0]) for r in rows}

    def release(self, holder: str) -> None:
        """Give up every lease of ``holder`` (a clean stop: the tables are free at once)."""
        self._conn.execute("DELETE FROM leases WHERE holder = ?", (holder,))

    def hand_back(self, table: str, holder: str) -> None:
        """Give up ``holder``'s lease of ``table`` alone (it goes back to the server whose
        share it is: :meth:`kiosk_ui.table.runtime.Runtime.hand_back`)."""
        self._conn.execute("DELETE FROM leases WHERE table_id = ? AND holder = ?", (table, holder))

    def holders(self) -> dict[str, tuple[str, int]]:
        """Every lease: table -> (holder, expiry), for the operator console."""
        return {
            str(t): (str(h), int(e))
            for t, h, e in self._conn.execute("SELECT table_id, holder, expires FROM leases")
        }

    def advertise(self, holder: str, url: str, now: int) -> None:
        """``holder`` serves at ``url`` (as of ``now``: a row not renewed is a dead one)."""
        self._conn.execute(
            "INSERT INTO servers (holder, url, seen) VALUES (?, ?, ?) ON CONFLICT (holder) "
            "DO UPDATE SET url = excluded.url, seen = excluded.seen",
            (holder, url, now),
        )

    def withdraw(self, holder: str) -> None:
        """``holder`` stopped cleanly: its row goes (only a crashed server's goes stale)."""
        self._conn.execute("DELETE FROM servers WHERE holder = ?", (holder,))

    def servers(self) -> dict[str, tuple[str, int]]:
        """Every appliance that advertised where it serves: holder -> (URL, last seen)."""
        return {
            str(h): (str(u), int(s))
            for h, u, s in self._conn.execute("SELECT holder, url, seen FROM servers")
        }
