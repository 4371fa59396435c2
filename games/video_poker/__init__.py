"""Video poker (page 001; rules README "More readings"): deal five, hold, draw.

Three machines as data (``paytables/*.toml``): Jacks or Better 9/6 (the base draw game),
Mystery Bonus Poker (the same with the Mystery reel) and European Slot Poker (the fruit
deck, kept per player, credit value and coins; the High-Low double-up; the Fruit and
Cherry Bonuses). The family contract (:mod:`games.catalog`):

``VARIANTS``: ``video-poker-jacks``, ``video-poker-mystery``, ``video-poker-european-slot``.
``new_game(variant, seats=1, *, context=NEW_TABLE)``: a
:class:`~games.video_poker.engine.VideoPokerRound` carrying the player's fruit machine
states (``context``).
``house_edge(variant)``: :mod:`games.video_poker.exact`.
``simulate(variant, rounds, seed)``: :mod:`games.video_poker.simulate`.
``autoplay(engine, seat)``: :mod:`games.video_poker.autoplay`.

>>> [v.id for v in VARIANTS]
['video-poker-jacks', 'video-poker-mystery', 'video-poker-european-slot']
"""

from __future__ import annotations

from games.core.engine import NEW_TABLE, GameContext, Variant
from games.video_poker.autohold import warm_up as _warm_rules
from games.video_poker.autoplay import autoplay
from games.video_poker.edges import house_edge
from games.video_poker.engine import VideoPokerRound, new_round
from games.video_poker.rules import PACKAGED, VideoPokerRules, load_packaged
from games.video_poker.simulate import simulate

VARIANTS: tuple[Variant[VideoPokerRules], ...] = tuple(load_packaged(n) for n in PACKAGED)


def new_game(
    variant: Variant[VideoPokerRules], seats: int = 1, *, context: GameContext = NEW_TABLE
) -> VideoPokerRound:
    """A fresh hand at a one-seat machine (``seats`` must be 1)."""
    if seats != 1:
        raise ValueError(f"{variant.id}: a video poker machine has one seat")
    return new_round(variant, context)


def warm_up() -> None:
    """Build what the machines' first auto-hold would otherwise wait on (the exact hold's
    subset counts, seconds of CPU once per process); the machine page starts it."""
    for variant in VARIANTS:
        _warm_rules(variant.rules)


__all__ = ["VARIANTS", "autoplay", "house_edge", "new_game", "simulate", "warm_up"]
