"""Video poker's exact figures: returns under best holds, the best hold of a deal.

The pieces, one job each:

* :mod:`~games.video_poker.classes` - the classes of a final hand (natural, deuces wild);
* :mod:`~games.video_poker.pays` - :class:`PayTable` (lines, pays per coins bet);
* :mod:`~games.video_poker.analyser` - every deal x every hold of a 52-card table,
  by subset counts and inclusion-exclusion over the 134,459 suit classes;
* :mod:`~games.video_poker.holds` - :func:`best_hold` / :func:`hold_values` of one deal;
* :mod:`~games.video_poker.brute` - the plain enumeration the tests check against.

:func:`table_return` is the figure ``croupier games house-edge`` prints: coins back per
coin bet with the best hold on every deal (the house edge is one minus it).
"""

from __future__ import annotations

from games.video_poker.analyser import Analysis, analyse, table_return
from games.video_poker.holds import best_hold, hold_values, warm
from games.video_poker.pays import PayLine, PayTable

__all__ = [
    "Analysis",
    "PayLine",
    "PayTable",
    "analyse",
    "best_hold",
    "hold_values",
    "table_return",
    "warm",
]
