"""The documented scripted hold'em player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on the ante (and the equal blind at
Ultimate Texas Hold'em; no side bets), deals, and decides by
:mod:`games.holdem.strategy`, called on the one row of cards it can see, so the
scripted player and the simulation play identically.
"""

from __future__ import annotations

import numpy as np

from games.core.cards import Card
from games.core.engine import Engine
from games.core.poker_table import ante_and_deal
from games.core.records import Action, Decide
from games.core.round import Phase
from games.holdem.engine import HoldemRound
from games.holdem.strategy import casino_call, uth_flop, uth_preflop, uth_river


def _row(cards: tuple[Card, ...]) -> np.ndarray[tuple[int, int], np.dtype[np.int64]]:
    return np.array([[c.index for c in cards]], dtype=np.int64)


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, HoldemRound):
        raise TypeError("hold'em autoplay needs a hold'em round")
    options = engine.legal_actions(seat)
    if engine.phase is not Phase.DECIDING or not options:
        return ante_and_deal(engine, seat, *(() if engine.casino else ("blind",)))
    hole, board = _row(engine.hand(seat)), _row(engine.board_visible)
    if engine.casino:
        return Decide(seat=seat, decision="call" if casino_call(hole, board)[0] else "fold")
    if "bet-4x" in options:
        return Decide(seat=seat, decision="bet-4x" if uth_preflop(hole)[0] else "check")
    if "bet-2x" in options:
        return Decide(seat=seat, decision="bet-2x" if uth_flop(hole, board)[0] else "check")
    return Decide(seat=seat, decision="bet-1x" if uth_river(hole, board)[0] else "fold")
