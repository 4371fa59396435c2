"""The documented scripted baccarat player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on the banker (the bet with the
lowest house edge), then deals. On a player-banked table the seat whose turn it
is to bank declines the bank (the page gives every player the opportunity, not
the duty) and bets like the others, so one scripted seat can always finish a
round; the house then covers the wagers. It never deals cards itself: the card
source does, whatever the dealer mode.
"""

from __future__ import annotations

from games.baccarat.engine import BaccaratRound, Phase
from games.baccarat.rules import BANK_BET
from games.core.engine import Engine
from games.core.records import Action, Deal, PlaceBet


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, BaccaratRound):
        raise TypeError("baccarat autoplay needs a baccarat round")
    if engine.phase is not Phase.BETTING or not 0 <= seat < engine.seats:
        return None
    bets = engine.bets[seat]
    if BANK_BET in bets:  # someone posted the bank by hand: leave it to the others
        return None
    if not bets:
        return PlaceBet(seat=seat, bet="banker", amount=engine.variant.limits["banker"].minimum)
    return Deal(seat=seat)
