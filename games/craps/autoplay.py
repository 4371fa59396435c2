"""The scripted craps player used by ``croupier table autoplay``.

It plays one documented line: a minimum pass line bet on the come-out, single (1x)
odds behind it once the table point is set, and presses Roll until the game ends
(the pass line bet settled, nothing left on the table).
"""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action, Decide, PlaceBet
from games.craps.engine import CrapsGame, Phase


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None once it has nothing to do."""
    if not isinstance(engine, CrapsGame):
        raise TypeError("craps autoplay needs a craps game")
    if engine.phase is not Phase.BETTING:
        return None
    bets = engine.book.of(seat)
    minimum = engine.variant.limits["pass"].minimum
    if engine.table_point is None and not engine.history and "pass" not in bets:
        return PlaceBet(seat=seat, bet="pass", amount=minimum)
    if engine.table_point is not None and "pass" in bets and "pass-odds" not in bets:
        return PlaceBet(seat=seat, bet="pass-odds", amount=bets["pass"])
    if engine.on_table():
        return Decide(seat=seat, decision="roll")
    return None
