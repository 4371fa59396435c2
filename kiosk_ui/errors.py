"""Errors of the table runtime, store and web app.

::

    KioskError
     +-- StoreError                  the database cannot be opened or is not a Croupier store
     +-- LedgerError                 a movement that would break the ledger
     |    +-- InsufficientFunds      (also ValueError) a bet or cash-out above the balance
     +-- AuditError                  the ledger or the log disagree; names the first discrepancy
     +-- TableError                  the table cannot take that request now
     |    +-- TableSuspended         a device fault or RNG health failure stopped the table
     |    +-- SeatError (ValueError) no such seat, seat taken, or no player in the seat
     +-- AuthError                   sign-in failed, session expired, or role not allowed
"""

from __future__ import annotations


class KioskError(Exception):
    """Base of every runtime, store and web-app error."""

    code = "error"


class StoreError(KioskError):
    code = "store"


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
