"""What an absent seat gets is each engine's own answer, and it is the runtime's old one.

Issue 13 moved the passive decisions out of the runtime (one global list,
``kiosk_ui.table.seats.DEFAULTS``, first match wins, and pai gow's bank read from its
view) into each family (``Round.PASSIVE``, ``default_action``, ``awaiting``). Behaviour
must not change: every variant is played here with its scripted player and a seeded
shoe, and in every state where the players act, each seat's default and the seats the
round waits on are compared with what the old runtime computed (kept below as the
reference: it is the behaviour, not code anyone runs).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import catalog
from games.core.capabilities import SeatDefaults
from games.core.cards import deck
from games.core.engine import Engine, GameContext, Need, NeedKind, Variant
from games.core.records import Action, DealCard, Decide, RollDice, SpinResult, StartPosition
from kiosk_ui.table.seats import default_action, unattended

#: The runtime's passive choices before issue 13, first match wins.
LEGACY = (
    "no-insurance",  # blackjack: insurance / even money declined
    "stand",  # blackjack
    "check",  # Ultimate Texas Hold'em before the river
    "continue",  # Let'Em Ride: no raise
    "house-way",  # pai gow: the house sets the hand
    "decline-bank",  # pai gow: the bank passes to the next seat
    "decline-dragon",  # pai gow land table: the dragon hand passes on (new in issue 14)
    "fold",  # three card poker, Caribbean stud, hold'em (river / casino hold'em)
    "surrender",  # Casino War: no war raise
    "collect",  # video poker (issue 16): a win is collected, never taken into the double-up
)
ROUNDS = 25


def legacy_default(engine: Engine, seat: int) -> Action | None:
    legal = engine.legal_actions(seat)
    if "draw" in legal and engine.variant.family == "video_poker":
        # issue 16: an absent player draws on the machine's own hold (page 001's auto-hold)
        held = engine.view(seat)["auto_hold"]
        return Decide(seat=seat, decision="draw", arg=" ".join(map(str, held)))
    for name in LEGACY:
        if name in legal:
            return Decide(seat=seat, decision=name)
    if "set" in legal and not getattr(engine.variant.rules, "house_way_button", True):
        # issue 14: page 001 online "does not support asking the house for help": no
        # house-way decision there, and the same house way comes as a plain set
        from games.pai_gow.setting import default_setting

        hand = engine.hand(seat)  # type: ignore[attr-defined]
        return Decide(seat=seat, decision="set", arg=default_setting(engine.variant.rules, hand))
    return None


def legacy_awaiting(engine: Engine) -> frozenset[int]:
    view = engine.view(None)
    offered = view.get("bank_offered_to")
    dragon = view.get("dragon")  # issue 14: the dragon offer waits the same way
    if not isinstance(offered, int) and isinstance(dragon, dict):
        offered = dragon["offered_to"]
    pd = view.get("player_dealer")  # issue 14 point 7: the California player/dealer offer
    if isinstance(pd, dict) and isinstance(pd.get("offered"), int):
        offered = pd["offered"]
    return frozenset({offered}) if isinstance(offered, int) else frozenset()


class Source:
    """Cards from a shuffled shoe, dice and wheel numbers from a seeded generator."""

    def __init__(self, variant: Variant[Any], seed: int) -> None:
        self.variant = variant
        self.rand = random.Random(seed)
        self.shoe: list[Any] = []

    def new_game(self) -> None:
        decks = max(self.variant.decks, 1)
        self.shoe = [c for _ in range(decks) for c in deck()] + list(deck(self.variant.jokers))[52:]
        self.rand.shuffle(self.shoe)

    def supply(self, need: Need) -> Action:
        if need.kind is NeedKind.CARD:
            return DealCard(card=self.shoe.pop())
        if need.kind is NeedKind.DICE:
            return RollDice(faces=tuple(self.rand.randint(1, 6) for _ in range(need.count)))
        if need.kind is NeedKind.POSITION:  # the land pai gow deal's start (issue 14)
            return StartPosition(position=1 + self.rand.randrange(need.count))
        numbers = [str(n) for n in range(1, 37)] + ["0", "00"][: self.variant.zeros]
        return SpinResult(number=self.rand.choice(numbers))


def check(engine: Engine, seats: int) -> int:
    """Compare every seat's default with the reference; return how many were decisions."""
    assert unattended(engine, set()) == (
        legacy_default(engine, min(legacy_awaiting(engine))) if legacy_awaiting(engine) else None
    )
    decided = 0
    for seat in range(seats):
        expected = legacy_default(engine, seat)
        got = default_action(engine, seat, deals=False)
        assert got == expected, (engine.variant.id, seat, sorted(engine.legal_actions(seat)))
        decided += expected is not None
    return decided


@pytest.mark.parametrize("variant_id", sorted(catalog.variants()))
def test_every_engine_says_what_an_absent_seat_gets(variant_id: str) -> None:
    """The runtime has no list of its own: an engine without the capability would leave
    an absent seat's decision waiting."""
    variant = catalog.get_variant(variant_id)
    assert isinstance(catalog.new_game(variant, max(variant.seats, 1)), SeatDefaults)


# a poker room's hand starts with the room's HandStart (tests/kiosk_ui/test_poker_room.py
# holds its clock: check if possible, else fold)
HOUSE_GAMES = sorted(v for v in catalog.variants() if catalog.get_variant(v).family != "poker_room")


@pytest.mark.parametrize("variant_id", HOUSE_GAMES)
def test_each_seat_gets_the_default_the_runtime_gave_before(variant_id: str) -> None:
    variant = catalog.get_variant(variant_id)
    family = catalog.family_of(variant)
    seats = max(variant.seats, 1)
    players = min(seats, 2)
    source = Source(variant, seed=sum(map(ord, variant_id)))
    previous: Engine | None = None
    for hand in range(ROUNDS):
        engine = family.new_game(variant, seats, context=GameContext(hand=hand, previous=previous))
        source.new_game()
        for step in range(2_000):
            if engine.is_over:
                break
            need = engine.needs()
            if need is not None:
                engine.apply(source.supply(need))
                continue
            check(engine, seats)
            order = [(step + k) % players for k in range(players)]
            actions = (family.autoplay(engine, seat) for seat in order)
            action = next((a for a in actions if a is not None), None)
            if action is None:  # the round waits on an empty seat: the runtime's default
                action = unattended(engine, set(order))
            assert action is not None, (variant_id, hand, engine.view(None))
            engine.apply(action)
        assert engine.is_over, (variant_id, hand)
        previous = engine
