"""Cards a player deals: baccarat's "Player as Dealer" (page 000, "the player is given the
shoe and clicks it for each card").

While a seat deals (the engine offers it ``deal-card``), the runtime does not feed the
engine on its own, even from an RNG shoe: it waits for that seat's "deal the next card"
(a ``Decide(decision="deal-card")`` from the page, or the action clock's default when the
seat does not act), then takes one card from the table's source, logged as that seat's
DealCard with the source's draw record, as a physical shoe's card would be. The engine
decides who deals and which hand the card goes to; nothing here knows baccarat.

>>> from games.core.records import Decide
>>> [is_deal_request(Decide(seat=0, decision=d)) for d in ("deal-card", "dealer")]
[True, False]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from games.core.engine import Engine
from games.core.records import Action, Decide

DEAL_CARD = "deal-card"


def is_deal_request(action: Action) -> bool:
    """Whether ``action`` is a seat asking for the next card it deals."""
    return isinstance(action, Decide) and action.decision == DEAL_CARD


def dealing_seat(engine: Engine, seats: Iterable[int]) -> int | None:
    """The seat (of ``seats``, the seated ones) that deals the card the engine needs now,
    or None: the source deals it without waiting."""
    if engine.is_over or engine.needs() is None:
        return None
    return next((s for s in sorted(seats) if DEAL_CARD in engine.legal_actions(s)), None)


def with_seat(action: Action, seat: int) -> Action:
    """The source's card as the dealing seat's action (the engine checks it is that seat's)."""
    return dataclasses.replace(action, seat=seat)
