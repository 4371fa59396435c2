"""Poker hand evaluators shared by the house-banked poker games.

Modules, one job each:

* :mod:`~games.poker.category` - :class:`Category`, worst to best.
* :mod:`~games.poker.keys` - the definition of five-card order as a sparse key.
* :mod:`~games.poker.tables` - lookup tables built once from that definition.
* :mod:`~games.poker.rank5` - :func:`rank5`, :func:`category`, :func:`describe`:
  dense ranks 1..7,462 (larger wins, equal is a tie).
* :mod:`~games.poker.rank7` - :func:`rank7`, :func:`rank6`, :func:`best5`.
* :mod:`~games.poker.batch` - :func:`rank_batch` over ``(N, 5..7)`` index arrays,
  exhaustive counts.
* :mod:`~games.poker.three_card` - :func:`rank3` (straights beat flushes).
* :mod:`~games.poker.pai_gow_joker` - the 53-card pai gow joker, ace-or-filler or
  fully wild, with A-2-3-4-5 second-highest as a parameter.

Errors: :class:`InvalidHand` (a ``GameError`` and ``ValueError``), see
:mod:`~games.poker.errors`.
"""

from games.poker.batch import (
    categories,
    exhaustive_counts5,
    exhaustive_counts6,
    exhaustive_counts7,
    rank_batch,
)
from games.poker.category import Category
from games.poker.errors import InvalidHand
from games.poker.pai_gow_joker import (
    JokerRule,
    paigow_best5,
    paigow_category,
    paigow_rank2,
    paigow_rank5,
    paigow_rank5_batch,
)
from games.poker.rank5 import DISTINCT_HANDS, HandRank, category, describe, rank5
from games.poker.rank7 import best5, rank6, rank7, rank_best
from games.poker.three_card import (
    DISTINCT_HANDS3,
    Category3,
    ThreeCardRank,
    category3,
    rank3,
    rank3_batch,
)

__all__ = [
    "DISTINCT_HANDS",
    "DISTINCT_HANDS3",
    "Category",
    "Category3",
    "HandRank",
    "InvalidHand",
    "JokerRule",
    "ThreeCardRank",
    "best5",
    "categories",
    "category",
    "category3",
    "describe",
    "exhaustive_counts5",
    "exhaustive_counts6",
    "exhaustive_counts7",
    "paigow_best5",
    "paigow_category",
    "paigow_rank2",
    "paigow_rank5",
    "paigow_rank5_batch",
    "rank3",
    "rank3_batch",
    "rank5",
    "rank6",
    "rank7",
    "rank_batch",
    "rank_best",
]
