"""The documented scripted Let'Em Ride player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on the ante (no progressive), deals,
and raises or continues by the best strategy that :mod:`games.let_it_ride.exact`
enumerates (raise exactly when the expected pay multiple of the cards seen is
positive).
"""

from __future__ import annotations

from games.core.engine import Engine
from games.core.poker_table import ante_and_deal
from games.core.records import Action, Decide
from games.core.round import Phase
from games.let_it_ride.engine import RideRound
from games.let_it_ride.exact import raise_first, raise_second


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, RideRound):
        raise TypeError("Let'Em Ride autoplay needs a Let'Em Ride round")
    if engine.phase is not Phase.DECIDING or "raise" not in engine.legal_actions(seat):
        return ante_and_deal(engine, seat)
    cards = [c.index for c in engine.hand(seat)] + [c.index for c in engine.board_visible]
    good = (
        raise_first(engine.rules, cards) if len(cards) == 3 else raise_second(engine.rules, cards)
    )
    return Decide(seat=seat, decision="raise" if good else "continue")
