"""A seat at the blackjack table: its hands, each hand's cards and stake, and their bet spots.

The chips themselves are on the round's bet book (:class:`~games.core.betting.BetBook`): one
spot per hand (``main``, then ``main.1`` .. ``main.3`` for split hands; a double adds to its
hand's spot), ``insurance`` and ``buster``. What is kept here is what the rules need to know
about each hand besides its chips.

>>> spot(0), spot(2)
('main', 'main.2')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.blackjack.hand import hand_total, is_natural
from games.core.cards import Card


@dataclass(slots=True)
class PlayerHand:
    """One hand of a seat: its cards, its stake (a double adds to it) and how far it is played."""

    cards: list[Card]
    stake: int
    from_split: bool = False
    split_aces: bool = False  # a split-aces hand that takes one card only
    doubled: bool = False
    done: bool = False  # no more decisions
    settled: bool = False
    result: str = ""  # "win", "lose", "push", "surrender", "blackjack", "even-money"

    @property
    def total(self) -> tuple[int, bool]:
        """``(total, soft)`` of the hand's cards."""
        return hand_total(self.cards)

    @property
    def natural(self) -> bool:
        """An ace and a ten as the first two cards of a hand that was not split."""
        return is_natural(self.cards, from_split=self.from_split)


@dataclass(slots=True)
class SeatState:
    """What the rules track for a seat once the cards are dealt.

    ``main`` is the bet each of the seat's hands starts with, fixed by the deal (0 before the
    deal or for a seat that sits the round out); a split hand stakes it again, insurance is
    up to half of it.
    """

    main: int = 0
    insurance_decided: bool = False
    hands: list[PlayerHand] = field(default_factory=list)


def spot(hand: int) -> str:
    """Bet-spot name of a hand: ``main`` for the first, ``main.N`` for split hands."""
    return "main" if hand == 0 else f"main.{hand}"


__all__ = ["PlayerHand", "SeatState", "spot"]
