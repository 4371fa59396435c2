"""Pai gow hands with the 53rd card: the joker as an ace or a filler, or fully wild.

Two joker rules, as the pages give them:

* :attr:`JokerRule.ACE_OR_FILLER` (Pinnacle 000, online 001, Bonus Pai Gow 003):
  the joker may complete a straight, flush, straight flush or royal flush;
  otherwise it is an ace. With four aces it makes five aces, the best hand.
  In a flush it becomes the best card of that suit the hand lacks.
* :attr:`JokerRule.WILD` (Fortune Pai Gow, 004): it may be any card, so five of
  a kind exists (five aces the best of them).

``wheel_second`` (default True, as 000, 001 and 003 say) makes A-2-3-4-5 the
second-highest straight, above K-Q-J-10-9 (and the second-highest straight
flush). Ranks here are the sparse keys of :mod:`games.poker.keys` (larger is
better, equal is a copy), not the dense ranks of :mod:`games.poker.rank5`. A
two-card low hand gets a key in the same space (:func:`paigow_rank2`), so a
setting is legal when the five-card key exceeds the two-card key.

>>> from games.core.cards import parse_cards
>>> paigow_category(paigow_rank5(parse_cards("As Ah Ad Ac X")))
<Category.FIVE_OF_A_KIND: 10>
>>> paigow_category(paigow_rank5(parse_cards("Kh Th 4h 5h X")))
<Category.FLUSH: 5>
>>> paigow_category(paigow_rank5(parse_cards("8c 7d 5h 4s X")))
<Category.STRAIGHT: 4>
>>> paigow_category(paigow_rank5(parse_cards("Jd 8c 8h 6s X")))
<Category.PAIR: 1>
>>> paigow_rank2(parse_cards("X Ah")) == paigow_rank2(parse_cards("As Ad"))
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import StrEnum
from itertools import combinations

import numpy as np
import numpy.typing as npt

from games.core.cards import JOKER_INDEX, Card
from games.poker.category import Category
from games.poker.errors import InvalidHand
from games.poker.keys import ACE, category_of_key, key2, key5

#: the categories a joker may complete under the ace-or-filler rule
FILLED = frozenset(
    {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
)


class JokerRule(StrEnum):
    ACE_OR_FILLER = "ace-or-filler"
    WILD = "wild"


def _check(cards: Sequence[Card], sizes: tuple[int, ...]) -> None:
    if len(cards) not in sizes:
        want = " or ".join(str(n) for n in sizes)
        raise InvalidHand(f"a pai gow hand needs {want} cards, got {len(cards)}")
    if any(not isinstance(c, Card) for c in cards):
        raise InvalidHand("not a card in hand")
    if sum(1 for c in cards if c.is_joker) > 1:
        raise InvalidHand("the pai gow deck holds one joker")
    real = [c for c in cards if not c.is_joker]
    if len(set(real)) != len(real):
        raise InvalidHand("duplicate card in hand: " + " ".join(str(c) for c in cards))


def paigow_rank5(
    cards: Sequence[Card],
    *,
    joker: JokerRule = JokerRule.ACE_OR_FILLER,
    wheel_second: bool = True,
) -> int:
    """The key of a five-card (high) hand, joker included."""
    _check(cards, (5,))
    real = [c for c in cards if not c.is_joker]
    ranks = tuple(sorted(int(c.rank) for c in real))
    suited = len({c.suit for c in real}) == 1
    return class_key(ranks, suited, joker, wheel_second)


@functools.cache
def class_key(ranks: tuple[int, ...], suited: bool, joker: JokerRule, wheel_second: bool) -> int:
    """The key of the real cards' ``ranks`` (sorted; four of them mean the joker is in)
    when all of them share a suit (``suited``) or not.

    These two facts fix a hand's value: with four real cards of one suit every
    missing rank of that suit is free for the joker, and a straight filler only
    needs a rank the hand lacks, which some suit always has free.
    """
    if len(ranks) == 5:
        return key5(ranks, suited, wheel_second)
    if joker is JokerRule.WILD:
        # any card at all, even one already held: four of a rank make five of a kind
        flushes = (False, True) if suited else (False,)
        return max(key5([*ranks, r], f, wheel_second) for r in range(2, ACE + 1) for f in flushes)
    best = key5([*ranks, ACE], False, wheel_second)  # an ace (five aces with four held)
    for r in range(2, ACE + 1):
        for flush in (False, True) if suited and r not in ranks else (False,):
            k = key5([*ranks, r], flush, wheel_second)
            if category_of_key(k) in FILLED:
                best = max(best, k)
    return best


def paigow_rank2(cards: Sequence[Card]) -> int:
    """The key of a two-card (low) hand: the joker is an ace there."""
    _check(cards, (2,))
    return key2([ACE if c.is_joker else int(c.rank) for c in cards])


def paigow_category(key: int) -> Category:
    """The category of a pai gow key."""
    return category_of_key(key)


def paigow_best5(
    cards: Sequence[Card],
    *,
    joker: JokerRule = JokerRule.ACE_OR_FILLER,
    wheel_second: bool = True,
) -> tuple[int, tuple[Card, ...]]:
    """The best five of 5 to 7 cards (bonus bets score all seven this way)."""
    _check(cards, (5, 6, 7))
    best, pick = -1, tuple(cards[:5])
    for five in combinations(sorted(cards, reverse=True), 5):
        k = paigow_rank5(five, joker=joker, wheel_second=wheel_second)
        if k > best:
            best, pick = k, five
    return best, pick


def paigow_rank5_batch(
    cards: npt.ArrayLike,
    *,
    joker: JokerRule = JokerRule.ACE_OR_FILLER,
    wheel_second: bool = True,
) -> npt.NDArray[np.int64]:
    """Keys of each row of an ``(N, 5)`` array of card indices (52 is the joker).

    Rows are grouped by their value-determining class (sorted ranks, whether the
    real cards share a suit) and each class is evaluated once by
    :func:`class_key`, so a million hands cost a few thousand scalar evaluations.
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] != 5 or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidHand(f"need an (N, 5) integer array, got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > JOKER_INDEX):
        raise InvalidHand("card index out of range 0..52")
    real = arr != JOKER_INDEX
    if (real.sum(axis=1) < 4).any():
        raise InvalidHand("the pai gow deck holds one joker")
    ranks = np.sort(np.where(real, (arr >> 2) + 2, 0), axis=1).astype(np.int64)
    suit = arr & 3
    suited = np.where(real, suit, 9).min(axis=1) == np.where(real, suit, -1).max(axis=1)
    code = suited.astype(np.int64)
    for j in range(5):
        code += ranks[:, j] * (2 * 15**j)
    uniq, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    values = np.empty(len(uniq), dtype=np.int64)
    for i, row in enumerate(first):
        rs = tuple(int(r) for r in ranks[row] if r)
        values[i] = class_key(rs, bool(suited[row]), joker, wheel_second)
    out: npt.NDArray[np.int64] = values[inverse.reshape(-1)]
    return out
