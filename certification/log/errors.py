"""Errors of the signed game log.

::

    LogError
     +-- LogIntegrityError     the log was altered, removed, reordered or inserted into;
     |                         ``seq`` (and ``position``) name the first bad record
     +-- LogKeyError           a signing key is missing, unreadable or of the wrong type
     +-- LogFormatError        (also ValueError) an export file or record that is not a log
"""

from __future__ import annotations


class LogError(Exception):
    """Base of every game-log error."""


class LogIntegrityError(LogError):
    """Verification failed at a named record. Verification raises; it never returns False."""

    def __init__(self, message: str, *, seq: int | None = None, position: int | None = None):
        super().__init__(message)
        self.seq = seq
        self.position = position


class LogKeyError(LogError):
    """A signing or verification key is missing, unreadable or invalid."""


class LogFormatError(LogError, ValueError):
    """Input that is not a Croupier log (bad JSON line, missing field)."""
