"""The plain reference: a deal's 32 hold values by enumerating every draw.

No subset counts, no inclusion-exclusion: for each hold, every draw of ``5 - k`` of
the 47 unseen cards is made into a final hand and classified (2,598,960 final hands per
deal in all, about a second). The tests check :mod:`games.video_poker.analyser` and
:mod:`games.video_poker.holds` against it on sampled deals, and the bench times it as
the "plain per-hand loop" the analyser is measured beside.

>>> from games.video_poker.pays import JACKS_OR_BETTER_9_6
>>> from games.core.cards import parse_cards
>>> v = enumerate_hold_values([c.index for c in parse_cards("As Ks Qs Js 3c")],
...                           JACKS_OR_BETTER_9_6, 1, masks=(15,))
>>> v[15]
Fraction(322, 47)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from games.poker.batch import combinations_array
from games.video_poker.classes import classify, line_of_class
from games.video_poker.pays import PayTable


@functools.cache
def _draws(k: int) -> npt.NDArray[np.int64]:
    """All k-subsets of the 47 unseen positions (k = 0: one empty draw)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int64)
    return combinations_array(47, k).astype(np.int64)


def enumerate_hold_values(
    deal: Sequence[int], table: PayTable, coins: int, masks: Iterable[int] = range(32)
) -> dict[int, Fraction]:
    """Expected pay (coins) of each hold mask of ``deal`` (card indices), by enumeration."""
    pays = np.array([*table.pays(coins), 0], dtype=np.int64)
    line = line_of_class(table.wild, table.keys)
    unseen = np.array([c for c in range(52) if c not in set(deal)], dtype=np.int64)
    out: dict[int, Fraction] = {}
    for m in masks:
        kept = [deal[i] for i in range(5) if m >> i & 1]
        drawn = unseen[_draws(5 - len(kept))]
        hands = np.hstack(
            [np.broadcast_to(np.array(kept, dtype=np.int64), (drawn.shape[0], len(kept))), drawn]
        )
        total = int(pays[line[classify(hands, table.wild)]].sum())
        out[m] = Fraction(total, drawn.shape[0])
    return out
