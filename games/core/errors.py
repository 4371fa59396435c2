"""Errors raised by the games package.

::

    GameError
     +-- IllegalAction (ValueError)    an action the rules do not allow now; carries a reason
     |    +-- BetRefused               a bet outside the table's limits or increments, or
     |                                 placed/removed when the rules forbid it
     +-- FoulHand (IllegalAction)      a pai gow setting that breaks the rules
     +-- PaytableError (ValueError)    a pay table or variant file that fails validation
     +-- UnknownGame (KeyError)        no game or variant by that name
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every games-package error."""


class IllegalAction(GameError, ValueError):
    """The rules do not allow this action in the current state; nothing changed."""


class BetRefused(IllegalAction):
    """A bet outside limits or increments, or placed when the rules forbid it."""


class FoulHand(IllegalAction):
    """A pai gow hand setting that breaks the rules (low hand ranks above high hand)."""


class PaytableError(GameError, ValueError):
    """A pay-table or variant data file that fails validation."""


class UnknownGame(GameError, KeyError):
    """No game or variant by that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"
