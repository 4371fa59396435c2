"""Cards, ranks, suits and the joker; the card index shared with ``rng``.

A card's *index* is ``(rank - 2) * 4 + suit`` for the 52 standard cards
(2c=0, 2d=1, 2h=2, 2s=3, 3c=4, ..., As=51) and 52 for the joker. ``rng.shoe``
returns indices in this convention; :func:`Card.from_index` turns them into cards.

>>> Card.parse("Ah")
Card.parse('Ah')
>>> Card.parse("Ah").index
50
>>> Card.from_index(52)
Card.parse('X')
>>> [str(c) for c in parse_cards("Td 9c X")]
['Td', '9c', 'X']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
JOKER_INDEX = 52


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @property
    def char(self) -> str:
        return "X" if self is Rank.JOKER else RANK_CHARS[self - 2]


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NONE = 4  # the joker's

    @property
    def char(self) -> str:
        return "" if self is Suit.NONE else SUIT_CHARS[self]


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card (or the joker). Immutable, hashable, totally ordered by index."""

    rank: Rank
    suit: Suit

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is Suit.NONE):
            raise ValueError("only the joker has no suit")

    @property
    def index(self) -> int:
        if self.rank is Rank.JOKER:
            return JOKER_INDEX
        return (self.rank - 2) * 4 + self.suit

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @classmethod
    def from_index(cls, index: int) -> Card:
        if index == JOKER_INDEX:
            return JOKER
        if not 0 <= index < 52:
            raise ValueError(f"card index out of range: {index}")
        return _BY_INDEX[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``'Ah'``, ``'10d'``/``'Td'``, or ``'X'``/``'Jk'`` for the joker."""
        t = text.strip()
        if t.upper() in ("X", "JK", "JOKER"):
            return JOKER
        if len(t) == 3 and t[:2] == "10":
            t = "T" + t[2]
        if len(t) != 2 or t[0].upper() not in RANK_CHARS or t[1].lower() not in SUIT_CHARS:
            raise ValueError(f"not a card: {text!r}")
        return _BY_INDEX[RANK_CHARS.index(t[0].upper()) * 4 + SUIT_CHARS.index(t[1].lower())]

    def __str__(self) -> str:
        return self.rank.char + self.suit.char

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_BY_INDEX: tuple[Card, ...] = tuple(Card(Rank(r), Suit(s)) for r in range(2, 15) for s in range(4))
JOKER = Card(Rank.JOKER, Suit.NONE)
DECK: tuple[Card, ...] = _BY_INDEX


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse space-separated cards (or an iterable of card strings)."""
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(t) for t in items)


def deck(jokers: int = 0) -> tuple[Card, ...]:
    """One standard deck in index order, plus ``jokers`` jokers."""
    return DECK + (JOKER,) * jokers
