"""Errors of the table runtime, store and web app; each carries its HTTP status and code.

::

    KioskError                       409 error
     +-- StoreError                  409 store: the database cannot be opened or is not a store
     |    +-- StoreUnavailable       503 store-unavailable: an I/O error; tables suspended
     |    +-- StoreConflict          409 store-conflict: lost a lock race (deadlock); retry
     +-- LedgerError                 409 ledger: a movement that would break the ledger
     |    +-- InsufficientFunds      409 insufficient-funds (also ValueError)
     +-- AuditError                  409 audit: the ledger or the log disagree
     +-- TableError                  409 table: the table cannot take that request now
     |    +-- TableSuspended         423 table-suspended: a device fault or RNG failure
     |    +-- SeatError              409 seat (also ValueError): no such seat, taken, empty
     |    +-- NoSuchTable            404 no-such-table: no open table of that id
     +-- AuthError                   401 auth: sign-in failed, session expired or missing
     |    +-- Forbidden              403 auth: signed in, but this role or request may not
     |    +-- SignInThrottled        429 sign-in-throttled: wait ``retry_after`` seconds
     +-- AlreadyExists               409 already-exists
     +-- IdempotencyConflict         422 idempotency-conflict: a key reused for another request
     +-- PasswordRejected            422 password-rejected: too short, the name, or the old one
     +-- UnknownOperator             404 unknown-operator: no operator account of that name
     +-- VoucherError                409 voucher: a voucher cannot be issued or paid
          +-- VoucherNumberInvalid   422 voucher-number: not 18 digits, or the check digit fails
          +-- NoSuchVoucher          404 no-such-voucher: no voucher has that number
          +-- VoucherRedeemed        409 voucher-redeemed: already paid (once only)
          +-- VoucherExpired         409 voucher-expired: past its expiry date
     +-- NoSuchAlarm                 404 no-such-alarm: no open alarm of that id
    SignInThrottled
     +-- VoucherThrottled            429 voucher-throttled: too many wrong numbers from here

``status`` and ``code`` are what the web app answers with (``kiosk_ui.web.errors``
holds the one table of error type -> answer, these included); the message is the
exception's text, word for word. Nothing here imports the web framework.
"""

from __future__ import annotations

from typing import ClassVar


class KioskError(Exception):
    """Base of every runtime, store and web-app error."""

    status: ClassVar[int] = 409
    code: ClassVar[str] = "error"


class StoreError(KioskError):
    status = 409
    code = "store"


class StoreUnavailable(StoreError):
    """The store failed to write (a full disk, an I/O error): nothing was kept, and the
    tables stay suspended until the operator resumes them (HTTP 503, Retry-After)."""

    status = 503
    code = "store-unavailable"


class StoreConflict(StoreError):
    """The database ended this unit of work to break a deadlock with another writer (or a
    serialization failure): nothing of it was kept, nothing is broken; ask again."""

    status = 409
    code = "store-conflict"


class LedgerError(KioskError):
    status = 409
    code = "ledger"


class InsufficientFunds(LedgerError, ValueError):
    status = 409
    code = "insufficient-funds"


class AuditError(KioskError):
    status = 409
    code = "audit"


class TableError(KioskError):
    status = 409
    code = "table"


class TableSuspended(TableError):
    status = 423
    code = "table-suspended"


class TableOpening(TableError):
    """A table just taken over from a dead holder, its open games not yet recovered
    (answered 409: try again in a moment; nothing was done)."""

    status = 409
    code = "table-opening"


class SeatError(TableError, ValueError):
    status = 409
    code = "seat"


class NoSuchTable(TableError):
    """No open table has that id (answered 404)."""

    status = 404
    code = "no-such-table"


class AuthError(KioskError):
    """Not signed in, a wrong password, an expired or unknown session (answered 401)."""

    status = 401
    code = "auth"


class Forbidden(AuthError):
    """Signed in, but not allowed: the role may not do this (answered 403)."""

    status = 403
    code = "auth"


class AlreadyExists(KioskError):
    status = 409
    code = "already-exists"


class SignInThrottled(AuthError):
    """Too many failed sign-ins for this user or from this address (answered 429)."""

    status = 429
    code = "sign-in-throttled"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class IdempotencyConflict(KioskError):
    """An Idempotency-Key already used for another body or table (answered 422)."""

    status = 422
    code = "idempotency-conflict"


class PasswordRejected(KioskError):
    status = 422
    code = "password-rejected"


class UnknownOperator(KioskError):
    status = 404
    code = "unknown-operator"


class VoucherError(KioskError):
    """A voucher cannot be issued or redeemed (nothing moved)."""

    status = 409
    code = "voucher"


class VoucherNumberInvalid(VoucherError, ValueError):
    """Not a validation number: wrong length, or its check digit fails (a typo)."""

    status = 422
    code = "voucher-number"


class NoSuchVoucher(VoucherError):
    status = 404
    code = "no-such-voucher"


class VoucherRedeemed(VoucherError):
    """The voucher was paid already: a voucher is redeemed exactly once."""

    status = 409
    code = "voucher-redeemed"


class VoucherExpired(VoucherError):
    status = 409
    code = "voucher-expired"


class VoucherThrottled(SignInThrottled):
    """Too many wrong voucher numbers from this address (answered 429, Retry-After)."""

    status = 429
    code = "voucher-throttled"


class NoSuchAlarm(KioskError):
    status = 404
    code = "no-such-alarm"
