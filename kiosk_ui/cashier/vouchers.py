"""Cash-out vouchers (ticket-in, ticket-out, TITO): issue, redeem exactly once, expire.

A player cashes out at a kiosk (:meth:`Cashier.issue`): the wallet's credits move to the
``vouchers`` liability account and a voucher is printed with its validation number
(:mod:`kiosk_ui.cashier.numbers`). The voucher is redeemed at any kiosk (ticket-in: the
amount goes to the wallet of the player there) or at the operator's cage (paid in cash),
once: the row is closed by one conditional update in the same transaction as its log
record and ledger transaction, so of any number of concurrent redemptions exactly one
pays. A voucher past its expiry (``[kiosk] voucher_days``) is refused, and
:meth:`Cashier.expire_due` closes it to the house (a ``voucher-expired`` record).

Every refusal after the check digit (a number nobody issued, one already paid, one
expired) is a ``voucher-refused`` log record and counts against the client address:
``GUESS_LIMIT`` of them lock the address out for 30 s, doubling, as sign-ins do
(:class:`kiosk_ui.backoff.StoreBackoff`: one count on every server of the store), before
any lookup. Money is integer cents; times
are the log clock's microseconds.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kiosk_ui.backoff import StoreBackoff
from kiosk_ui.cashier import numbers
from kiosk_ui.cashier.entries import (
    EXPIRED,
    ISSUED,
    REDEEMED,
    REFUSED,
    expired_entry,
    issued_entry,
    redeemed_entry,
)
from kiosk_ui.cashier.number_key import NumberKey
from kiosk_ui.errors import (
    InsufficientFunds,
    NoSuchVoucher,
    VoucherError,
    VoucherExpired,
    VoucherRedeemed,
    VoucherThrottled,
)
from kiosk_ui.store import ledger
from kiosk_ui.store.vouchers import VoucherRow
from kiosk_ui.table.money import post_entries
from kiosk_ui.table.runtime import Runtime

GUESS_LIMIT = 10  # refused numbers from one address before it is locked out
GUESS_LOCK_SECONDS = 30.0
DAY_US = 86_400 * 10**6


def when(us: int) -> str:
    """A log-clock time as ISO 8601 UTC, to the second."""
    return datetime.fromtimestamp(us / 10**6, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class Voucher:
    """A voucher as the API shows it (``number`` only to whoever printed it)."""

    serial: str
    amount: int
    kiosk: str
    issued: int  # log clock, microseconds
    expires: int
    status: str
    number: str = ""
    closed_by: str = ""

    @classmethod
    def of(cls, row: VoucherRow) -> Voucher:
        return cls(
            serial=row.serial,
            amount=row.amount,
            kiosk=row.kiosk,
            issued=row.issued,
            expires=row.expires,
            status=row.status,
            closed_by=row.closed_by,
        )

    def out(self) -> dict[str, Any]:
        """JSON for the API: cents, ISO times, the number grouped as printed."""
        body: dict[str, Any] = {
            "serial": self.serial,
            "amount": self.amount,
            "kiosk": self.kiosk,
            "issued": when(self.issued),
            "expires": when(self.expires),
            "status": self.status,
            "closed_by": self.closed_by,
        }
        if self.number:
            body["number"] = self.number
            body["printed"] = numbers.grouped(self.number)
        return body


class Cashier:
    def __init__(
        self,
        runtime: Runtime,
        *,
        voucher_days: int,
        clock: Callable[[], int] | None = None,
        on_lock: Callable[[str, int, float], None] | None = None,
    ) -> None:
        # on_lock(address, failures, seconds): an address was just locked out for guessing
        self.on_lock = on_lock
        self.rt = runtime
        self.voucher_days = voucher_days
        self.clock = clock or runtime.log.clock
        # the store's key, in keys/ (refused if the database knows another)
        self.key = NumberKey.of(runtime.db.directory).claim(runtime.db)
        with runtime.db.read() as tx:  # stores made before vouchers get the table
            tx.vouchers.ensure_table()
        # counted in the store: a floor's kiosks and cages share one count per address
        self.guesses = StoreBackoff(
            runtime.db, "voucher", limit=GUESS_LIMIT, base_seconds=GUESS_LOCK_SECONDS
        )

    # --- ticket-out ------------------------------------------------------------------

    def issue(self, player: str, kiosk: str, amount: int | None = None) -> Voucher:
        """Print a voucher for ``amount`` cents (the whole balance when None)."""
        now = self.clock()
        expires = now + self.voucher_days * DAY_US
        with self.rt.log.transaction() as tx:
            balance = tx.ledger.balance(ledger.wallet(player))
            cents = balance if amount is None else amount
            if cents <= 0:
                raise VoucherError("nothing to cash out: the balance is $0.00")
            if cents > balance:
                raise InsufficientFunds(
                    f"insufficient balance for a voucher of {cents} cents: {balance} held"
                )
            number, serial = numbers.new_number(), "V" + secrets.token_hex(6).upper()
            body = {
                "voucher": serial,
                "player": player,
                "amount": cents,
                "kiosk": kiosk,
                "expires": when(expires),
                "number_tail": number[-4:],
            }
            rec = self.rt.log.append(tx, f"player:{player}", ISSUED, body)
            tx.vouchers.insert(serial, self.key.digest(number), cents, player, kiosk, now, expires)
            entry = issued_entry(serial, player, cents)
            post_entries(tx, [entry], ts=now, log_seq=rec.seq, log_hash=rec.hash)
        return Voucher(serial, cents, kiosk, now, expires, "issued", number=number)

    # --- ticket-in and the cage --------------------------------------------------------

    def redeem(
        self,
        text: str,
        *,
        player: str | None = None,
        kiosk: str = "",
        operator: str = "",
        address: str = "",
    ) -> tuple[Voucher, int | None]:
        """Pay the voucher whose number is ``text`` once: to ``player``'s wallet at
        ``kiosk`` (ticket-in), or in cash at the cage by ``operator`` (player None).
        Returns the voucher and the player's new balance (None at the cage)."""
        number = numbers.parse(text)  # a typo is told at once and is not a guess
        key = address or "-"
        wait = self.guesses.admit(key)
        if wait > 0:
            self.guesses.refused(key)
            raise VoucherThrottled(
                f"too many wrong voucher numbers: try again in {math.ceil(wait)} seconds", wait
            )
        try:
            voucher, balance, refused = self._redeem(number, player, kiosk, operator, address)
        except BaseException:
            self.guesses.release(key)
            raise
        if refused is not None:
            lock = self.guesses.failed(key)
            if lock is not None and self.on_lock is not None:
                self.on_lock(key, lock.failures, lock.seconds)
            raise refused
        self.guesses.release(key)  # a good number proves nothing about the next one
        return voucher, balance

    def _redeem(
        self, number: str, player: str | None, kiosk: str, operator: str, address: str
    ) -> tuple[Voucher, int | None, VoucherError | None]:
        now = self.clock()
        where = f"kiosk:{kiosk}" if player is not None else f"cage:{operator}"
        source = f"player:{player}" if player is not None else f"operator:{operator}"
        with self.rt.log.transaction() as tx:
            row = tx.vouchers.find(self.key.digest(number))
            if row is None:  # printed before the store had its key: its plain SHA-256
                row = tx.vouchers.find(numbers.legacy_digest(number))
            refused = _refusal(row, now)
            if (
                row is not None
                and refused is None
                and not tx.vouchers.close(row.serial, "redeemed", now, where, now=now)
            ):
                refused = VoucherRedeemed(f"voucher {row.serial} was already paid")
            if refused is not None or row is None:
                body: dict[str, Any] = {"reason": refused.code if refused else "", "at": where}
                body["address"] = address
                if row is not None:
                    body["voucher"] = row.serial
                self.rt.log.append(tx, source, REFUSED, body)
                return Voucher("", 0, kiosk, now, now, "refused"), None, refused
            paid: dict[str, Any] = {
                "voucher": row.serial,
                "amount": row.amount,
                "at": "kiosk" if player is not None else "cage",
            }
            paid.update({"player": player, "kiosk": kiosk} if player else {"operator": operator})
            rec = self.rt.log.append(tx, source, REDEEMED, paid)
            entry = redeemed_entry(row.serial, row.amount, player)
            post_entries(tx, [entry], ts=now, log_seq=rec.seq, log_hash=rec.hash)
            balance = tx.ledger.balance(ledger.wallet(player)) if player is not None else None
        closed = Voucher.of(row)
        return (
            Voucher(closed.serial, closed.amount, closed.kiosk, closed.issued, closed.expires,
                    "redeemed", closed_by=where),
            balance,
            None,
        )  # fmt: skip

    # --- the cage's view and expiry ----------------------------------------------------

    def expire_due(self, by: str) -> list[Voucher]:
        """Close every voucher past its expiry: the liability goes to the house."""
        now = self.clock()
        closed = []
        with self.rt.log.transaction() as tx:
            for row in tx.vouchers.due(now):
                if not tx.vouchers.close(row.serial, "expired", now, by, now=now):
                    continue
                body = {"voucher": row.serial, "amount": row.amount, "expired": when(row.expires)}
                rec = self.rt.log.append(tx, by, EXPIRED, body)
                entry = expired_entry(row.serial, row.amount)
                post_entries(tx, [entry], ts=now, log_seq=rec.seq, log_hash=rec.hash)
                closed.append(Voucher.of(row))
        return closed

    def recent(self, limit: int = 200) -> tuple[list[Voucher], int, int]:
        """The newest vouchers, and how many are unpaid with their sum (the liability)."""
        with self.rt.db.read() as tx:
            rows = tx.vouchers.recent(limit)
            count, total = tx.vouchers.outstanding()
        return [Voucher.of(r) for r in rows], count, total


def _refusal(row: VoucherRow | None, now: int) -> VoucherError | None:
    """Why a voucher cannot be paid now, or None if it can."""
    if row is None:
        return NoSuchVoucher("no voucher has that validation number")
    if row.status == "redeemed":
        return VoucherRedeemed(f"voucher {row.serial} was already paid ({row.closed_by})")
    if row.status == "expired" or row.expires <= now:
        return VoucherExpired(
            f"voucher {row.serial} expired on {when(row.expires)}: it can no longer be paid"
        )
    return None
