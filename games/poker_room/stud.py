"""Seven-card stud's order of action: the bring-in by the low door card, then the high board.

Page 001: "the low card by suit is required to initiate action ... spades (highest),
hearts, diamonds, clubs. On subsequent rounds, the high hand on board initiates betting
action. If hands are tied, the player to the left of the dealer acts first." Aces are
high for the bring-in (the standard). Seats are numbered from the dealer's left, so
"left of the dealer first" is the lowest seat number.

The card index (:mod:`games.core.cards`) already orders rank, then clubs < diamonds <
hearts < spades, so the low door card is the one with the smallest index.

>>> from games.core.cards import parse_cards
>>> bring_in_seat({0: parse_cards("5s"), 1: parse_cards("5c"), 2: parse_cards("Kd")})
1
>>> high_board({0: parse_cards("Ks Qd"), 1: parse_cards("4c 4d"), 2: parse_cards("4h 4s")})
1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from games.core.cards import Card

#: a board's class by its rank counts (high card 1 .. four of a kind 5); straights and
#: flushes do not count on a board of at most four cards
_CLASS = {(4,): 5, (3,): 4, (3, 1): 4, (2, 2): 3, (2,): 2, (2, 1): 2, (2, 1, 1): 2}


def board_key(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """The order of up cards: class, then the ranks of the groups and kickers, high first."""
    counts = Counter(int(c.rank) for c in cards)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    pattern = tuple(n for _, n in groups)
    return _CLASS.get(pattern, 1), tuple(r for r, _ in groups)


def bring_in_seat(door: Mapping[int, Sequence[Card]]) -> int:
    """The seat whose up card is lowest by rank, then suit (clubs lowest)."""
    return min(door, key=lambda s: min(c.index for c in door[s]))


def high_board(up: Mapping[int, Sequence[Card]]) -> int:
    """The seat with the best up cards; a tie goes to the first seat from the dealer's left."""
    keys = {s: board_key(cards) for s, cards in up.items()}
    best = max(keys.values())
    return min(s for s, key in keys.items() if key == best)


def open_pair(up: Mapping[int, Sequence[Card]]) -> bool:
    """Page 001's 4th-street exception: some player shows a pair in two up cards."""
    return any(len(cards) == 2 and cards[0].rank == cards[1].rank for cards in up.values())


__all__ = ["board_key", "bring_in_seat", "high_board", "open_pair"]
