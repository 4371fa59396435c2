"""Errors of the table runtime, store and web app.

::

    KioskError
     +-- StoreError                  the database cannot be opened or is not a Croupier store
     |    +-- StoreUnavailable       an I/O error (disk full, I/O error): tables suspended, 503
     +-- LedgerError                 a movement that would break the ledger
     |    +-- InsufficientFunds      (also ValueError) a bet or cash-out above the balance
     +-- AuditError                  the ledger or the log disagree; names the first discrepancy
     +-- TableError                  the table cannot take that request now
     |    +-- TableSuspended         a device fault or RNG health failure stopped the table
     |    +-- SeatError (ValueError) no such seat, seat taken, or no player in the seat
     +-- AuthError                   sign-in failed, session expired, or role not allowed
 |    +-- SignInThrottled        too many failed sign-ins: wait ``retry_after`` seconds
 +-- IdempotencyConflict         an Idempotency-Key reused for a different request
 +-- PasswordRejected            a new password too short, or equal to the name or the old one
 +-- UnknownOperator             no operator account with that name (answered 404)
"""

from __future__ import annotations


class KioskError(Exception):
    """Base of every runtime, store and web-app error."""

    code = "error"


class StoreError(KioskError):
    code = "store"


class StoreUnavailable(StoreError):
    """The store failed to write (a full disk, an I/O error): nothing was kept, and the
    tables stay suspended until the operator resumes them (HTTP 503, Retry-After)."""

    code = "store-unavailable"


class LedgerError(KioskError):
    code = "ledger"


class InsufficientFunds(LedgerError, ValueError):
    code = "insufficient-funds"


class AuditError(KioskError):
    code = "audit"


class TableError(KioskError):
    code = "table"


class TableSuspended(TableError):
    code = "table-suspended"


class SeatError(TableError, ValueError):
    code = "seat"


class AuthError(KioskError):
    code = "auth"


class AlreadyExists(KioskError):
    code = "already-exists"


class SignInThrottled(AuthError):
    """Too many failed sign-ins for this user or from this address (answered 429)."""

    code = "sign-in-throttled"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class IdempotencyConflict(KioskError):
    """An Idempotency-Key already used for another body or table (answered 422)."""

    code = "idempotency-conflict"


class PasswordRejected(KioskError):
    code = "password-rejected"


class UnknownOperator(KioskError):
    code = "unknown-operator"
