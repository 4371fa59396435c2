"""The phases of a blackjack round (one module, so the round and its mixins share them)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """A blackjack round's phases: bets, the initial deal, the answers to the dealer's ace,
    the hands in turn, the dealer's draw, over (``is_over`` compares with ``"over"``)."""

    BETTING = "betting"
    DEALING = "dealing"
    INSURANCE = "insurance"
    PLAYING = "playing"
    DEALER = "dealer"
    OVER = "over"


__all__ = ["Phase"]
