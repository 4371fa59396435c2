"""The phases of a video poker hand (one module, so the round and its mixins share them)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    BETTING = "betting"
    REEL = "reel"  # the Mystery reel spins
    DEALING = "dealing"
    HOLDING = "holding"
    DRAWING = "drawing"
    DOUBLE_UP = "double-up"  # a win offered to the High-Low game, or a choice within it
    DOUBLE_UP_CARD = "double-up-card"  # the High-Low card is drawn
    OVER = "over"


__all__ = ["Phase"]
