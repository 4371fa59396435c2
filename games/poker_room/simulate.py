"""Hands between scripted players through the engine: the collection per hand (statistics
only, never used for play; the cards come from NumPy's generator, not the table's RNG).

Every seat starts each hand with the maximum buy-in and plays :mod:`games.poker_room.
autoplay` (check or call), so every hand is dealt to the end. The one figure is the
``collection``: the house's take per player per hand, per unit of the lower limit.

>>> from games.poker_room import VARIANTS
>>> round(simulate(VARIANTS[2], 20, 1).bets["collection"].mean, 3)  # $1 a seat, $2 limit
-0.5
"""

from __future__ import annotations

import numpy as np

from games.core.cards import Card
from games.core.engine import Variant
from games.core.figures import SimulationResult
from games.core.records import Decide
from games.poker_room.autoplay import autoplay
from games.poker_room.engine import PokerRoomRound
from games.poker_room.rules import RoomRules
from games.poker_room.script import ScriptedHand
from games.sim import bet_statistics


def play_hand(variant: Variant[RoomRules], players: int, deck: list[int]) -> PokerRoomRound:
    """One hand of ``players`` scripted players dealt from ``deck`` (card indices)."""
    stacks = dict.fromkeys(range(players), variant.rules.max_buy_in)
    h = ScriptedHand(variant, stacks, deck=[Card.from_index(i) for i in deck])
    while not h.round.is_over:
        seat = h.round.to_act
        assert seat is not None
        action = autoplay(h.round, seat)
        assert isinstance(action, Decide)
        h.act(seat, action.decision)
    return h.round


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
