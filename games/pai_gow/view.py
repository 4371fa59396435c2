"""The pai gow round's phases and what a seat sees of it (:meth:`PaiGowRound.view`).

Kept apart from :mod:`games.pai_gow.engine` so the bank offer
(:mod:`games.pai_gow.bank_offer`) can name the phases without importing the round.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NotRequired, TypedDict

from games.core.player_dealer import PlayerDealerView


class Phase(StrEnum):
    BANK = "bank"  # player-banked tables: the bank is offered to a seat
    BETTING = "betting"
    DEALING = "dealing"
    DRAGON = "dragon"  # the land table: the dragon hand is offered (games.pai_gow.dragon)
    SETTING = "setting"
    OVER = "over"


class DragonView(TypedDict):
    """The land table's dragon hand as a seat sees it (:mod:`games.pai_gow.dragon`): its
    cards and setting only to its taker, the setting to everyone once revealed."""

    offered_to: int | None
    offers: list[int]
    taker: int | None
    wager: int
    cards: list[str]
    setting: str | None


class PaiGowView(TypedDict):
    """What a seat sees (:meth:`PaiGowRound.view`); JSON-able, serialised at the edge.

    The bank keys are there on player-banked tables only; ``house_wager_offer`` only
    for the seat the bank is offered to (the most the house may wager against it);
    ``start_position`` on the land table only (where the deal started, once picked),
    ``dragon`` on the dragon table only (None until a dragon hand is dealt and offered).
    """

    game: str
    phase: str
    seat: int | None
    seats: int
    bets: dict[str, dict[str, int]]
    dealt_in: list[int]
    next_card_to: str | None
    cards: list[str]
    setting: str | None
    set: list[int]
    dealer_cards: int
    dealer: str | None
    hands: dict[str, str]
    legal: list[str]
    settlements: list[dict[str, Any]]
    banker: NotRequired[str]
    bank: NotRequired[int]
    house_wager: NotRequired[int]
    bank_offered_to: NotRequired[int | None]
    bank_queue: NotRequired[list[int]]
    house_wager_offer: NotRequired[int]
    start_position: NotRequired[int | None]
    player_dealer: NotRequired[PlayerDealerView]  # page 004 (Fortune): the Player/Dealer
    dragon: NotRequired[DragonView | None]


__all__ = ["DragonView", "PaiGowView", "Phase"]
