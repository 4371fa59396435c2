"""Dealing helpers for the pai gow tests: the land table's start position and its
hands nobody plays.

The land table (page 002) asks the source for a start position, then deals all seven
positions. With the start at seat 0's position (2) the hands come seat by seat and the
dealer's last, as on the other tables, so a test's cards "seat 0, seat 1, ..., dealer"
mean the same everywhere; the positions nobody plays take cards from the rest of the deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from games.core.cards import Card, parse_cards
from games.core.engine import Engine, NeedKind
from games.core.records import Action, DealCard, Decide, Event, StartPosition
from games.pai_gow.engine import PaiGowRound

SEAT0_FIRST = 2  # seat 0's position: the deal goes seat 0, 1, ..., 5, then the dealer
DECK = tuple(Card.from_index(i) for i in range(53))


def next_action(engine: Engine, deck: Iterator[Card], start: int = SEAT0_FIRST) -> Action:
    """What the source gives for the engine's need: the start position, or the next card."""
    need = engine.needs()
    assert need is not None
    if need.kind is NeedKind.POSITION:
        return StartPosition(position=start)
    return DealCard(card=next(deck))


def decline_dragon(engine: Engine) -> list[Event]:
    """Every player offered the land table's dragon hand declines it (the tests that are
    not about dragon hands play as before)."""
    events: list[Event] = []
    while isinstance(engine, PaiGowRound) and (seat := engine.dragon_offered()) is not None:
        events += engine.apply(Decide(seat=seat, decision="decline-dragon"))
    return events


def deal_in(
    engine: Engine,
    cards: str | Iterable[Card],
    start: int = SEAT0_FIRST,
    *,
    decline: bool = True,
) -> list[Event]:
    """Deal ``cards`` to the hands that play (the seats dealt in and the dealer), in dealing
    order, while the engine asks; a land table's unplayed hands get cards of the rest of
    the deck. Stops when ``cards`` runs out. Then, with ``decline``, the dragon hand is
    declined by everyone offered it. Every event."""
    given = list(parse_cards(cards) if isinstance(cards, str) else cards)
    spare = [c for c in reversed(DECK) if c not in given]
    events: list[Event] = []
    while given and (need := engine.needs()) is not None:
        if need.kind is NeedKind.POSITION:
            events += engine.apply(StartPosition(position=start))
            continue
        playing = need.target == "dealer" or need.target.startswith("seat")
        card = given.pop(0) if playing else spare.pop(0)
        events += engine.apply(DealCard(card=card))
    return events + (decline_dragon(engine) if decline else [])
