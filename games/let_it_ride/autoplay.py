"""The documented scripted Let'Em Ride player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on the ante (no progressive), deals,
and raises or continues by the best strategy that :mod:`games.let_it_ride.exact`
enumerates (raise exactly when the expected pay multiple of the cards seen is
positive).
"""

from __future__ import annotations

from games.caribbean_stud.table import Phase
from games.core.engine import Engine
from games.core.records import Action, Deal, Decide, PlaceBet
from games.let_it_ride.engine import RideRound
from games.let_it_ride.exact import raise_first, raise_second


def autoplay(engine: Engine, seat: int) -> Action | None:
    if not isinstance(engine, RideRound):
        raise TypeError("Let'Em Ride autoplay needs a Let'Em Ride round")
    if not 0 <= seat < engine.seats:
        return None
    if engine.phase is Phase.BETTING:
        if "ante" not in engine.bets[seat]:
            return PlaceBet(seat=seat, bet="ante", amount=engine.variant.limits["ante"].minimum)
        return Deal(seat=seat)
    if engine.phase is not Phase.DECIDING or "raise" not in engine.legal_actions(seat):
        return None
    cards = [c.index for c in engine.hand(seat)] + [c.index for c in engine.board_visible]
    good = (
        raise_first(engine.rules, cards) if len(cards) == 3 else raise_second(engine.rules, cards)
    )
    return Decide(seat=seat, decision="raise" if good else "continue")
