"""The documented player strategies: when to call, and (Oasis) when to buy a card.

Caribbean Stud: the "three rules of thumb" published by the Wizard of Odds
(Michael Shackleford, "Caribbean Stud Poker", strategy section; 5.225% of the
ante against 5.224% for perfect play over all 19,933,230,517,200 deals):

* call with a pair or better; fold anything below ace/king;
* with ace/king, call if the dealer's card is 2 to queen and matches one of yours;
  or if it is an ace or king and you hold a queen or jack; or if it matches none
  of yours, you hold a queen and it is below your fourth-highest card.

With no dealer card shown, ace/king is called from A-K-J-8-3 up (same source).

Oasis Poker (no published strategy for the page's draw prices; ours, simulated
in docs/math/caribbean_stud.md): call as above; otherwise, holding four to a
flush, buy one card (1x the ante) for the fifth card and then call or fold as
above; otherwise fold.

Every function works on card indices (``(rank - 2) * 4 + suit``) and has a
vectorised twin for :mod:`games.caribbean_stud.simulate`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from games.poker.category import Category

ACE, KING, QUEEN, JACK = 14, 13, 12, 11
AKJ83 = (14, 13, 11, 8, 3)

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


def ace_king_call(ranks: Sequence[int], up: int | None) -> bool:
    """For an ace/king high hand (``ranks`` 2..14), whether to call (rules of thumb)."""
    desc = sorted(ranks, reverse=True)
    if up is None:
        return tuple(desc) >= AKJ83
    if up >= KING:
        return QUEEN in desc or JACK in desc
    if up in desc:
        return True
    return QUEEN in desc and up < desc[3]


def should_call(cat: Category, cards: Sequence[int], up: int | None) -> bool:
    """Call with ``cards`` (indices) of category ``cat``, the dealer showing ``up`` (index)."""
    if cat >= Category.PAIR:
        return True
    ranks = [c // 4 + 2 for c in cards]
    if not (ACE in ranks and KING in ranks):
        return False
    return ace_king_call(ranks, None if up is None else up // 4 + 2)


def flush_draw(cards: Sequence[int]) -> int | None:
    """The position of the odd card in four to a flush, else None."""
    suits = [c % 4 for c in cards]
    for s in set(suits):
        if suits.count(s) == 4:
            return next(i for i, x in enumerate(suits) if x != s)
    return None


def should_call_batch(
    cats: npt.NDArray[np.integer], cards: IntArray, up: IntArray | None
) -> BoolArray:
    """:func:`should_call` over rows of five card indices (``up``: dealer card indices)."""
    ranks = cards // 4 + 2
    has = np.zeros((len(cards), 15), dtype=bool)
    np.put_along_axis(has, ranks, True, axis=1)
    ak = has[:, ACE] & has[:, KING] & (cats == Category.HIGH_CARD)
    desc = -np.sort(-ranks, axis=1)
    if up is None:
        w = np.array([15**4, 15**3, 15**2, 15, 1])
        ak_call = ak & ((desc * w).sum(axis=1) >= int(np.dot(AKJ83, w)))
    else:
        u = up // 4 + 2
        match = has[np.arange(len(cards)), u]
        r1 = match & (u <= QUEEN)
        r2 = (u >= KING) & (has[:, QUEEN] | has[:, JACK])
        r3 = ~match & (u <= QUEEN) & has[:, QUEEN] & (u < desc[:, 3])
        ak_call = ak & (r1 | r2 | r3)
    out: BoolArray = (cats >= Category.PAIR) | ak_call
    return out


def flush_draw_batch(cards: IntArray) -> IntArray:
    """:func:`flush_draw` over rows: the odd card's position, or -1."""
    suits = cards % 4
    out = np.full(len(cards), -1, dtype=np.int64)
    for s in range(4):
        same = suits == s
        four = same.sum(axis=1) == 4
        out[four] = np.argmin(same[four], axis=1)
    return out
