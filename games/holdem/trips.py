"""The Ultimate Texas Hold'em Trips bet: which hand it pays on, and its exact house edge.

Page 004: "A player's 'trips' wager will be paid the posted odds if they have three
of a kind or higher" (game rule 4) and "If a player chooses to fold the hand and the
community cards have 3 of a kind or higher, the trips wager will be paid the
appropriate payout" (rule 6). So (rules README, "More readings"): a played hand's
Trips is scored on the player's best five of seven; a folded hand's only on the five
community cards by themselves, and paid on that board hand.

**The exact edge.** A player who never folds is paid on the category of his best
five of seven, so the return is a count over all C(52, 7) = 133,784,560 seven-card
hands (:data:`SEVEN_CARD_COUNTS`, the shared evaluator's exhaustive count, pinned
by a test). With folds the figure depends on the strategy, but only through folds
of a hand whose seven cards and board alone pay differently. The documented
strategy never folds one (it bets on the river every hand the hole cards raise
above the board's category, :func:`games.holdem.strategy.uth_river`), so for it the
Trips edge is exactly the never-fold count. Nor does best play: over every deal
:func:`games.holdem.uth_exact.trips_fold_changes` counts none
(``bench/bench_uth_exact.py --check-trips``, bench/results/uth_trips_folds.md; a
test counts two flop classes), so the same fraction is exact for it:

>>> from games.holdem.rules import load_packaged
>>> edge = trips_edge(load_packaged("ultimate-texas-holdem").rules)
>>> edge, f"{float(edge):.4%}"
(Fraction(233985, 6689228), '3.4979%')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from games.core.cards import Card
from games.holdem.rules import HoldemRules
from games.poker.batch import categories, rank_batch
from games.poker.category import Category
from games.poker.rank5 import category, rank5
from games.poker.rank7 import rank7

#: the number of seven-card hands (best five of seven) of each category among C(52, 7)
SEVEN_CARD_COUNTS = MappingProxyType(
    {
        Category.HIGH_CARD: 23_294_460,
        Category.PAIR: 58_627_800,
        Category.TWO_PAIR: 31_433_400,
        Category.THREE_OF_A_KIND: 6_461_620,
        Category.STRAIGHT: 6_180_020,
        Category.FLUSH: 4_047_644,
        Category.FULL_HOUSE: 3_473_184,
        Category.FOUR_OF_A_KIND: 224_848,
        Category.STRAIGHT_FLUSH: 37_260,
        Category.ROYAL_FLUSH: 4_324,
    }
)
SEVEN_CARD_HANDS = 133_784_560


def trips_hand(hole: Sequence[Card], board: Sequence[Card], *, folded: bool) -> Category | None:
    """The category Trips pays on, or None: the best five of seven, or on a fold the board's."""
    cat = category(rank5(list(board))) if folded else category(rank7([*hole, *board]))
    return cat if cat >= Category.THREE_OF_A_KIND else None


def trips_edge(rules: HoldemRules) -> Fraction:
    """The Trips bet's exact house edge per unit staked (strategy: see the module docstring)."""
    total = Fraction(0)
    for cat, n in SEVEN_CARD_COUNTS.items():
        ratio = rules.trips.get(cat)
        total += n * (Fraction(ratio.num, ratio.den) if ratio else -1)
    return -total / SEVEN_CARD_HANDS


def trips_nets(
    rules: HoldemRules,
    hole: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    *,
    folded: npt.NDArray[np.bool_],
) -> npt.NDArray[np.float64]:
    """Per row: the Trips net per unit staked (rows of card indices; ``folded`` per row)."""
    table = np.full(len(Category), -1.0)
    for cat, r in rules.trips.items():
        table[cat] = r.num / r.den
    seven = categories(rank_batch(np.concatenate([hole, board], axis=1), validate=False))
    five = categories(rank_batch(board, validate=False))
    out: npt.NDArray[np.float64] = np.where(folded, table[five], table[seven])
    return out
