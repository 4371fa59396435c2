"""What a blackjack round shows a seat: the view as typed structures, JSON-able at the edge.

The dealer's hole card is ``None`` until the rules turn it over, and the dealer's total
counts only the cards shown; the shoe never appears.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NotRequired, TypedDict

from games.blackjack.backline import BacklineView
from games.blackjack.hand import hand_total
from games.blackjack.seats import PlayerHand
from games.core.cards import Card
from games.core.player_dealer import PlayerDealerView


class HandView(TypedDict):
    """One hand of a seat."""

    hand: int
    cards: list[str]
    total: int
    soft: bool
    stake: int
    doubled: bool
    done: bool
    result: str


class SeatBets(TypedDict):
    """A seat's chips: the bet on the hand, the Buster Bet, insurance (cents)."""

    main: int
    buster: int
    insurance: int


class SeatView(TypedDict):
    """A seat's bets and hands."""

    seat: int
    bets: SeatBets
    hands: list[HandView]


class DealerView(TypedDict):
    """The dealer's cards (the hole card None until shown) and the total of those shown."""

    cards: list[str | None]
    total: int
    soft: bool


class TurnView(TypedDict):
    """The hand whose decision the round waits on."""

    seat: int
    hand: int


class BlackjackView(TypedDict):
    """:meth:`BlackjackRound.view <games.blackjack.engine.BlackjackRound.view>`."""

    game: str
    variant: str
    phase: str
    dealer: DealerView
    seats: list[SeatView]
    turn: TurnView | None
    waiting_for_card: str | None
    legal: list[str]
    #: the backline bets (a table with backline positions only: games.blackjack.backline)
    backline: NotRequired[list[BacklineView]]
    #: the Player/Dealer position (21st Century Blackjack: games.blackjack.player_dealer)
    player_dealer: NotRequired[PlayerDealerView]


def dealer_view(cards: Sequence[Card], hole_shown: bool) -> DealerView:
    """The dealer's hand as a seat sees it: never the hole card before it is turned over."""
    shown: list[str | None] = [str(c) for c in cards]
    if len(cards) >= 2 and not hole_shown:
        shown[1] = None
    visible = [c for i, c in enumerate(cards) if i != 1 or hole_shown]
    total, soft = hand_total(visible) if visible else (0, False)
    return {"cards": shown, "total": total, "soft": soft}


def hand_view(h: int, hand: PlayerHand) -> HandView:
    """Hand ``h`` of a seat, all public (a player's cards are dealt face up)."""
    total, soft = hand.total if hand.cards else (0, False)
    return {
        "hand": h,
        "cards": [str(c) for c in hand.cards],
        "total": total,
        "soft": soft,
        "stake": hand.stake,
        "doubled": hand.doubled,
        "done": hand.done,
        "result": hand.result,
    }


__all__ = [
    "BlackjackView",
    "DealerView",
    "HandView",
    "SeatBets",
    "SeatView",
    "TurnView",
    "dealer_view",
    "hand_view",
]
