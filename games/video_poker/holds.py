"""The best hold of one dealt hand, exactly: what the machine's auto-hold shows.

:func:`hold_values` gives the expected pay of all 32 holds of a five-card deal, as
``Fraction`` coins (the bet not returned on top: a hold worth ``Fraction(5)`` at 5 coins
gives back the bet on average); :func:`best_hold` the best of them. Both read the
subset counts of :mod:`games.video_poker.analyser` (built once per deck rule and
line list, ~3 s; :func:`warm` builds them ahead), after which one hand takes well under
a millisecond (bench/bench_video_poker.py). Pays do not enter the counts, so a Mystery
Bonus reel stop (:meth:`PayTable.with_pays`) reuses them.

A hold is a mask: bit ``i`` set keeps ``cards[i]``. Tie rule: of holds with equal value,
the one keeping more cards; then the one whose kept positions come first in dealt order
(``(0, 1)`` before ``(0, 2)``), as :data:`games.video_poker.analyser.HOLD_ORDER`.

>>> from games.core.cards import parse_cards
>>> from games.video_poker.pays import JACKS_OR_BETTER_9_6
>>> mask, value = best_hold(parse_cards("Ah Kh Qh Jh 3c"), JACKS_OR_BETTER_9_6, 5)
>>> held(mask)
(0, 1, 2, 3)
>>> mask, value = best_hold(parse_cards("As Ks Qs Js Ts"), JACKS_OR_BETTER_9_6, 5)
>>> mask, value
(31, Fraction(4000, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from games.core.cards import Card
from games.poker.errors import InvalidHand
from games.video_poker.analyser import (
    DRAWS,
    HOLD_ORDER,
    POSITIONS,
    hold_counts,
    subset_counts,
)
from games.video_poker.pays import PayTable


def held(mask: int) -> tuple[int, ...]:
    """The dealt positions a hold mask keeps."""
    return POSITIONS[mask]


def _indices(cards: Sequence[Card]) -> list[int]:
    if len(cards) != 5:
        raise InvalidHand(f"a video poker deal has 5 cards, got {len(cards)}")
    out = [c.index for c in cards]
    if any(not 0 <= i < 52 for i in out):
        raise InvalidHand("a 52-card video poker deal has no joker")
    if len(set(out)) != 5:
        raise InvalidHand("a deal cannot hold the same card twice")
    return out


def warm(table: PayTable) -> None:
    """Build the subset counts ``table`` needs now (a machine calls this at start-up)."""
    subset_counts(table.wild, table.keys)


def hold_values(cards: Sequence[Card], table: PayTable, coins: int) -> tuple[Fraction, ...]:
    """The expected pay, in coins, of each of the 32 holds (index = hold mask)."""
    pays = np.array([*table.pays(coins), 0], dtype=np.int64)
    idx = _indices(cards)
    order = sorted(range(5), key=idx.__getitem__)  # sorted position j is dealt order[j]
    counts = hold_counts(subset_counts(table.wild, table.keys), np.array([sorted(idx)]))[0]
    totals = counts @ pays
    out: list[Fraction] = [Fraction(0)] * 32
    for m, pos in enumerate(POSITIONS):
        dealt = sum(1 << order[j] for j in pos)
        out[dealt] = Fraction(int(totals[m]), DRAWS[len(pos)])
    return tuple(out)


def best_hold(cards: Sequence[Card], table: PayTable, coins: int) -> tuple[int, Fraction]:
    """The hold mask of greatest expected pay and that pay (ties: see the module)."""
    values = hold_values(cards, table, coins)
    best = max(HOLD_ORDER, key=lambda m: (values[m], -HOLD_ORDER.index(m)))
    return best, values[best]
