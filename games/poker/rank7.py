"""Best five of six or seven cards (hold'em, stud, the 6 Card Bonus).

:func:`rank7` and :func:`rank_best` read the lookup tables directly (no loop over
the 21 five-card subsets); :func:`best5` also says which five cards make the
hand, for display and for the log.

>>> from games.core.cards import parse_cards
>>> from games.poker.rank5 import describe
>>> describe(rank7(parse_cards("Ah Kh 2c 2d 7h 9h 3h")))
'flush, ace high'
>>> r, five = best5(parse_cards("Ah Kh 2c 2d 7s 9h 2h"))
>>> describe(r), " ".join(str(c) for c in five)
('three of a kind, twos', '2h 2d 2c Ah Kh')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from games.core.cards import Card
from games.poker.rank5 import HandRank, check_cards, fields, rank_indices


def rank7(cards: Sequence[Card]) -> HandRank:
    """The dense rank of the best five of exactly seven cards."""
    return rank_indices(check_cards(cards, (7,)))


def rank6(cards: Sequence[Card]) -> HandRank:
    """The dense rank of the best five of exactly six cards (the 6 Card Bonus)."""
    return rank_indices(check_cards(cards, (6,)))


def rank_best(cards: Sequence[Card]) -> HandRank:
    """The dense rank of the best five of five, six or seven cards."""
    return rank_indices(check_cards(cards, (5, 6, 7)))


def best5(cards: Sequence[Card]) -> tuple[HandRank, tuple[Card, ...]]:
    """The best rank of 5 to 7 cards and five cards that make it.

    The five are listed in the order the hand is read: the groups (quads, trips,
    pairs) first, then the other cards from high to low; a straight from its top
    card down (A-2-3-4-5 as 5-4-3-2-A). Among equal-value choices the one with the
    highest card indices is taken, so the answer is deterministic.
    """
    check_cards(cards, (5, 6, 7))
    best = HandRank(0)
    pick: tuple[Card, ...] = ()
    for five in combinations(sorted(cards, reverse=True), 5):
        r = rank_indices([c.index for c in five])
        if r > best:
            best, pick = r, five
    order = fields(best)
    if len(order) == 1 and len({c.rank for c in pick}) == 5:  # a straight
        top = order[0]
        seq = [14 if top - k == 1 else top - k for k in range(5)]
        by_rank = {int(c.rank): c for c in pick}
        return best, tuple(by_rank[r] for r in seq)
    counts = {r: sum(1 for c in pick if c.rank == r) for r in {c.rank for c in pick}}
    ordered = sorted(pick, key=lambda c: (counts[c.rank], c.rank, c.suit), reverse=True)
    return best, tuple(ordered)
