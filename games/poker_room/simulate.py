"""Hands between scripted players through the engine: the collection per hand (statistics
only, never used for play; the cards come from NumPy's generator, not the table's RNG).

Every seat starts each hand with the maximum buy-in and plays :mod:`games.poker_room.
autoplay` (check or call), so every hand is dealt to the end. The one figure is the
``collection``: the house's take per player per hand, per unit of the lower limit.
"""

from __future__ import annotations

import numpy as np

from games.core.cards import Card
from games.core.engine import NeedKind, Variant
from games.core.figures import SimulationResult
from games.core.records import DealCard, StartPosition
from games.poker_room.autoplay import autoplay
from games.poker_room.engine import PokerRoomRound
from games.poker_room.events import HandStart
from games.poker_room.rules import RoomRules
from games.sim import bet_statistics


def play_hand(variant: Variant[RoomRules], players: int, deck: list[int]) -> PokerRoomRound:
    """One hand of ``players`` scripted players dealt from ``deck`` (card indices)."""
    r = PokerRoomRound(variant, variant.seats, button=None)
    stack = variant.rules.max_buy_in
    r.apply(HandStart(stacks=tuple((s, stack) for s in range(players))))
    cards = iter(deck)
    while not r.is_over:
        need = r.needs()
        if need is not None:
            if need.kind is NeedKind.POSITION:
                r.apply(StartPosition(position=1))
            else:
                r.apply(DealCard(card=Card.from_index(next(cards))))
            continue
        seat = r.to_act
        assert seat is not None
        action = autoplay(r, seat)
        assert action is not None
        r.apply(action)
    return r


def simulate(variant: Variant[RoomRules], rounds: int, seed: int) -> SimulationResult:
    """``rounds`` hands at a full table; the collection per player-hand."""
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    rng = np.random.default_rng(seed)
    players = variant.seats
    unit = variant.rules.lower_limit
    counts: dict[int, int] = {}
    for _ in range(rounds):
        deck = [int(i) for i in rng.permutation(52)]
        r = play_hand(variant, players, deck)
        counts[r.collection] = counts.get(r.collection, 0) + 1
    outcomes = [(-c / players / unit, n) for c, n in counts.items()]
    stats = bet_statistics(rounds, outcomes)
    return SimulationResult(
        variant=variant.id, rounds=rounds, seed=seed, bets={"collection": stats}
    )
