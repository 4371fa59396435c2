"""Errors raised by the poker evaluators.

::

    GameError (games.core.errors)
     +-- InvalidHand (ValueError)   wrong number of cards, a duplicate card, a joker where
                                    the evaluator takes none, or a card index out of range
"""

from __future__ import annotations

from games.core.errors import GameError


class InvalidHand(GameError, ValueError):
    """The cards given cannot form a hand for this evaluator; the message says why."""
