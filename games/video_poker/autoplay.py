"""The documented scripted video poker player used by ``croupier table autoplay``.

Each hand it bets the maximum coins of the smallest credit value, deals, draws on the
machine's own hold (the auto-hold) and collects every win (it never takes the double-up).
"""

from __future__ import annotations

from games.core.engine import Engine
from games.core.records import Action, Deal, PlaceBet
from games.video_poker.engine import VideoPokerRound
from games.video_poker.phases import Phase
from games.video_poker.rules import bet_name


def autoplay(engine: Engine, seat: int) -> Action | None:
    """The next action for ``seat``, or None when it has nothing to do."""
    if not isinstance(engine, VideoPokerRound):
        raise TypeError("video poker autoplay needs a video poker round")
    if seat != 0:
        return None
    rules = engine.rules
    if engine.phase is Phase.BETTING:
        if not engine.book:
            d = rules.denominations[0]
            return PlaceBet(seat=0, bet=bet_name(d), amount=d * rules.max_coins)
        return Deal(seat=0)
    if engine.phase in (Phase.HOLDING, Phase.DOUBLE_UP):
        return engine.default_action(0)
    return None


__all__ = ["autoplay"]
