"""The documented scripted pai gow player used by ``croupier table autoplay``.

Each game the seat bets the table minimum on the main bet (no side bet), deals,
and when its cards are in asks for the house way (where the table has no house-way
button, it sets the house-way setting itself: the rules' default). Offered the bank (page 002
tables) it declines, so the dealer banks every scripted game; offered the dragon hand (the
land table) it declines too. It never deals
cards: the card source does.
"""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action, Deal, Decide, PlaceBet
from games.pai_gow.engine import PaiGowRound, Phase
from games.pai_gow.rules import MAIN_BET


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, PaiGowRound):
        raise TypeError("pai gow autoplay needs a pai gow round")
    legal = engine.legal_actions(seat)
    if "decline-bank" in legal:
        return Decide(seat=seat, decision="decline-bank")
    if "decline-dragon" in legal:
        return Decide(seat=seat, decision="decline-dragon")
    if engine.phase is Phase.BETTING and seat in (engine.banker, engine.pd_seat()):
        return Deal(seat=seat) if "deal" in legal else None
    if engine.phase is Phase.BETTING and legal:
        if MAIN_BET not in engine.bets[seat]:
            minimum = engine.variant.limits[MAIN_BET].minimum
            return PlaceBet(seat=seat, bet=MAIN_BET, amount=minimum)
        return Deal(seat=seat)
    if "house-way" in legal:  # its own hand, then a dragon hand it holds (hand 1)
        return engine.default_action(seat)
    if "set" in legal:  # no house-way button (page 001 online): the rules' default
        return engine.default_action(seat)
    return None
