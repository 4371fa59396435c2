"""The documented scripted Caribbean Stud family player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on the ante (no jackpot bet), deals,
and plays :mod:`games.caribbean_stud.strategy`: call or fold by the rules of
thumb (using the dealer's exposed card); at Oasis Poker, with four to a flush
and nothing to call with, it first buys one card.
"""

from __future__ import annotations

from games.caribbean_stud.engine import StudRound
from games.caribbean_stud.strategy import flush_draw, should_call
from games.core.engine import Engine
from games.core.poker_table import ante_and_deal
from games.core.records import Action, Decide
from games.core.round import Phase
from games.poker.rank5 import category, rank5


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, StudRound):
        raise TypeError("Caribbean Stud autoplay needs a Caribbean Stud family round")
    options = engine.legal_actions(seat)
    if engine.phase is not Phase.DECIDING or "call" not in options:
        return ante_and_deal(engine, seat)
    hand = engine.hand(seat)
    cards = [c.index for c in hand]
    shown = engine.dealer_visible
    up = shown[0].index if shown else None
    if should_call(category(rank5(hand)), cards, up):
        return Decide(seat=seat, decision="call")
    odd = flush_draw(cards)
    if "draw" in options and odd is not None and 1 in engine.rules.draw_costs:
        return Decide(seat=seat, decision="draw", arg=str(odd))
    return Decide(seat=seat, decision="fold")
