"""Hand categories (straight flush, full house, ...) shared by every poker evaluator.

The numbering orders the five-card categories from worst to best, so a category
compares the way the hands do. ``ROYAL_FLUSH`` is the ace-high straight flush,
kept as its own member because every pay table pays it apart; ``FIVE_OF_A_KIND``
exists only with a joker (five aces in pai gow, any five of a kind when the joker
is fully wild, as in Fortune Pai Gow).

>>> Category.FULL_HOUSE > Category.FLUSH
True
>>> Category.TWO_PAIR.label
'two pair'
"""

from __future__ import annotations

from enum import IntEnum


class Category(IntEnum):
    """A five-card (or best-of-n) hand category, worst to best."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_OF_A_KIND = 10

    @property
    def label(self) -> str:
        """The category as people say it: ``'four of a kind'``."""
        return self.name.lower().replace("_", " ")
