"""Vouchers as stored: the ``vouchers`` table (DDL in :mod:`kiosk_ui.store.schema`).

Read and written by :mod:`kiosk_ui.cashier.vouchers` inside the log transaction that
records each change, so a voucher's row, its log record and its ledger transaction
commit together. Redemption is one conditional ``UPDATE`` (``status = 'issued'`` and
not expired): of two concurrent redemptions exactly one changes the row, whatever the
backend's locking, and the other sees a row count of 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk_ui.store.schema import VOUCHERS_DDL
from kiosk_ui.store.sql import Conn, add_table, has_table

_COLUMNS = "serial, amount, player, kiosk, issued, expires, status, closed, closed_by"


@dataclass(frozen=True, slots=True)
class VoucherRow:
    """One stored voucher (times in microseconds since the epoch)."""

    serial: str
    amount: int
    player: str
    kiosk: str
    issued: int
    expires: int
    status: str  # issued, redeemed, expired
    closed: int | None
    closed_by: str


def _row(r: tuple[object, ...]) -> VoucherRow:
    closed = r[7]
    return VoucherRow(
        serial=str(r[0]),
        amount=int(str(r[1])),
        player=str(r[2]),
        kiosk=str(r[3]),
        issued=int(str(r[4])),
        expires=int(str(r[5])),
        status=str(r[6]),
        closed=None if closed is None else int(str(closed)),
        closed_by=str(r[8]),
    )


class SqliteVouchers:
    """The vouchers repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def ensure_table(self) -> None:
        """Stores made before vouchers existed get the table (and its index)."""
        add_table(self._conn, "vouchers", VOUCHERS_DDL)

    def exists_table(self) -> bool:
        """Whether this store has the table (a read-only audit of an older store)."""
        return has_table(self._conn, "vouchers")

    def insert(
        self, serial: str, digest: str, amount: int, player: str, kiosk: str, issued: int,
        expires: int,
    ) -> None:  # fmt: skip
        self._conn.execute(
            "INSERT INTO vouchers (serial, digest, amount, player, kiosk, issued, expires, "
            "status) VALUES (?, ?, ?, ?, ?, ?, ?, 'issued')",
            (serial, digest, amount, player, kiosk, issued, expires),
        )

    def find(self, digest: str) -> VoucherRow | None:
        """The voucher whose validation number's stored digest is ``digest`` (keyed, or
        a legacy row's plain SHA-256: :mod:`kiosk_ui.cashier.numbers`), or None."""
        r = self._conn.execute(
            f"SELECT {_COLUMNS} FROM vouchers WHERE digest = ?", (digest,)
        ).fetchone()
        return None if r is None else _row(tuple(r))

    def key_check(self, check: str) -> str:
        """The store's voucher key check (``meta``), ``check`` if it had none: the first
        appliance to open the store sets it; every other compares its own key's with it."""
        self._conn.execute(
            "INSERT INTO meta (key, value) VALUES ('voucher_key_check', ?) "
            "ON CONFLICT (key) DO NOTHING",
            (check,),
        )
        row = self._conn.execute(
            "SELECT value FROM meta WHERE key = 'voucher_key_check'"
        ).fetchone()
        return str(row[0])

    def close(self, serial: str, status: str, at: int, by: str, *, now: int) -> bool:
        """Mark an issued voucher ``status`` (redeemed, expired); False when it is not
        open any more (or, for a redemption, past its expiry at ``now``)."""
        if status == "redeemed":
            cond = "status = 'issued' AND expires > ?"
        else:
            cond = "status = 'issued' AND expires <= ?"
        done = self._conn.execute(
            "UPDATE vouchers SET status = ?, closed = ?, closed_by = ? "
            f"WHERE serial = ? AND {cond}",
            (status, at, by, serial, now),
        )
        return bool(done.rowcount)

    def due(self, now: int) -> list[VoucherRow]:
        """Issued vouchers whose expiry is at or before ``now``, oldest first."""
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM vouchers WHERE status = 'issued' AND expires <= ? "
            "ORDER BY expires, serial",
            (now,),
        ).fetchall()
        return [_row(tuple(r)) for r in rows]

    def recent(self, limit: int = 200) -> list[VoucherRow]:
        """The newest ``limit`` vouchers, newest first."""
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM vouchers ORDER BY issued DESC, serial LIMIT ?", (limit,)
        ).fetchall()
        return [_row(tuple(r)) for r in rows]

    def outstanding(self) -> tuple[int, int]:
        """How many vouchers are unpaid, and their sum in cents (the liability)."""
        r = self._conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM vouchers WHERE status = 'issued'"
        ).fetchone()
        return int(r[0]), int(r[1])
