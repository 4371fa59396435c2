"""The documented scripted three-card player used by ``croupier table autoplay``.

Each round the seat bets the table minimum on the ante (no side bets), deals, and
plays or folds by the best strategy that :mod:`games.three_card.exact` computes:
on Tri-Card (no dealer card shown) that is the familiar "play Q-6-4 or better";
on the California table it also uses the dealer's exposed card.
"""

from __future__ import annotations

from games.core.engine import Engine
from games.core.poker_table import ante_and_deal
from games.core.records import Action, Decide
from games.core.round import Phase
from games.three_card.engine import ThreeCardRound
from games.three_card.exact import should_play


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, ThreeCardRound):
        raise TypeError("three-card autoplay needs a three-card round")
    if engine.phase is not Phase.DECIDING or "play" not in engine.legal_actions(seat):
        return ante_and_deal(engine, seat)
    shown = engine.shown_dealer_card
    cards = tuple(c.index for c in engine.hand(seat))
    play = should_play(engine.rules, cards, shown.index if shown else None)
    return Decide(seat=seat, decision="play" if play else "fold")
