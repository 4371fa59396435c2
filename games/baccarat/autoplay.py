"""The documented scripted baccarat player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on the banker (the bet with the
lowest house edge), then deals. On a player-banked table, the banking seat
posts the smallest bank the table allows and lets the others deal; the others
wait for the bank to be posted before they deal. It never deals cards itself:
the card source does, whatever the dealer mode.
"""

from __future__ import annotations

from games.baccarat.engine import BaccaratRound, Phase
from games.baccarat.paytable import BANK_BET
from games.core.engine import Engine
from games.core.records import Action, Deal, PlaceBet


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, BaccaratRound):
        raise TypeError("baccarat autoplay needs a baccarat round")
    if engine.phase is not Phase.BETTING or not 0 <= seat < engine.seats:
        return None
    bets = engine.bets[seat]
    if seat == engine.bank_seat:
        if BANK_BET not in bets:
            return PlaceBet(seat=seat, bet=BANK_BET, amount=engine.variant.limits[BANK_BET].minimum)
        return None
    if not bets:
        return PlaceBet(seat=seat, bet="banker", amount=engine.variant.limits["banker"].minimum)
    if engine.bank_seat is not None and BANK_BET not in engine.bets[engine.bank_seat]:
        return None  # wait for the bank
    return Deal(seat=seat)
