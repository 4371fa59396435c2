"""Omaha hold'em: the best hand of exactly two of four hole cards and three of five board cards.

Page 001: "using exactly two hole cards and three community cards". That is the best
of the 6 x 10 = 60 five-card hands, each read straight from the tables of
:mod:`games.poker.tables` (a five-card hand is one table read: the non-flush table by
its base-5 rank code, or the flush table by its rank mask when all five share a suit),
with the two-card and three-card parts summed once each.

>>> from games.core.cards import parse_cards
>>> from games.poker.rank5 import describe
>>> board = parse_cards("Ah Kh Qh 2c 3d")
>>> describe(rank_omaha(parse_cards("Jh 9s 8s 7s"), board))  # one heart is no flush
'high card, ace high'
>>> describe(rank_omaha(parse_cards("Jh Th 8s 7s"), board))
'royal flush'
>>> describe(rank_omaha(parse_cards("As Ad Ac 7s"), board))  # two aces only
'three of a kind, aces'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from games.core.cards import Card
from games.poker.errors import InvalidHand
from games.poker.rank5 import HandRank, check_cards
from games.poker.tables import POW5, tables

#: (code, suit or -1, rank mask) of a set of card indices
Part = tuple[int, int, int]


def _parts(idx: Sequence[int], k: int) -> list[Part]:
    out = []
    for combo in combinations(idx, k):
        suits = {i & 3 for i in combo}
        code = sum(POW5[i >> 2] for i in combo)
        mask = sum(1 << (i >> 2) for i in combo)
        out.append((code, suits.pop() if len(suits) == 1 else -1, mask))
    return out


def rank_omaha_indices(hole: Sequence[int], board: Sequence[int]) -> HandRank:
    """:func:`rank_omaha` on card indices (no checks: the caller checks)."""
    t = tables()
    nonflush, flush = t.nonflush, t.flush
    pairs = _parts(hole, 2)
    best = 0
    for code3, suit3, mask3 in _parts(board, 3):
        for code2, suit2, mask2 in pairs:
            r = flush[mask3 | mask2] if suit3 >= 0 and suit2 == suit3 else nonflush[code3 + code2]
            if r > best:
                best = r
    return HandRank(best)


def rank_omaha(hole: Sequence[Card], board: Sequence[Card]) -> HandRank:
    """The dense rank (as :func:`~games.poker.rank5.rank5`) of the best Omaha hand of
    four hole cards and five board cards."""
    h = check_cards(hole, (4,))
    b = check_cards(board, (5,))
    if set(h) & set(b):
        raise InvalidHand("a card is both in the hand and on the board")
    return rank_omaha_indices(h, b)


def best_omaha(hole: Sequence[Card], board: Sequence[Card]) -> tuple[HandRank, tuple[Card, ...]]:
    """The best rank and the five cards (two hole, three board) that make it."""
    best = rank_omaha(hole, board)
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            five = (*two, *three)
            if rank_omaha_indices([c.index for c in two], [c.index for c in three]) == best:
                return best, five
    raise AssertionError("unreachable: the best hand is one of the 60")  # pragma: no cover


__all__ = ["best_omaha", "rank_omaha", "rank_omaha_indices"]
