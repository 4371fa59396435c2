"""Hidden cards never leave the engine before the rules reveal them: at every step of
random hands, each seat's view holds its own cards and the face-up ones only, an
observer's no down card, nobody's a burn or an undealt card; the showdown shows the live
hands, never a folded one."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import DECK, Card
from games.core.engine import Variant
from games.poker_room import VARIANTS
from games.poker_room.engine import PokerRoomRound
from games.poker_room.rules import RoomRules
from games.poker_room.script import ScriptedHand

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def visible(view: object) -> set[str]:
    """Every card anywhere in a view (its lists and its texts)."""
    return set(CARD.findall(repr(view)))


def allowed(r: PokerRoomRound, viewer: int | None) -> set[str]:
    out = {str(c) for c in r.board}
    for seat, cards in r.cards.items():
        for card, up in cards:
            if up or seat == viewer or seat in r.shown:
                out.add(str(card))
    return out


def check_views(r: PokerRoomRound, dealt: list[Card]) -> None:
    for viewer in (None, *r.seats_in):
        seen = visible(r.view(viewer))
        assert seen <= allowed(r, viewer), (viewer, seen - allowed(r, viewer))
        assert seen <= {str(c) for c in dealt}  # never a card not yet dealt


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), game=st.sampled_from(VARIANTS))
def test_no_view_shows_a_card_it_may_not(seed: int, game: Variant[RoomRules]) -> None:
    rnd = random.Random(seed)
    n = rnd.randint(2, game.seats)
    seats = rnd.sample(range(game.seats), n)
    deck = list(DECK)
    rnd.shuffle(deck)
    stacks = {s: 3000 + rnd.choice((0, 2000, 8000)) for s in seats}
    h = ScriptedHand(game, stacks, deck=deck, button_position=rnd.randint(1, n))
    r = h.round
    check_views(r, deck[: r.dealt])
    while not r.is_over:
        seat = r.to_act
        assert seat is not None
        option = rnd.choice(r.options(seat))
        h.act(seat, option.name, option.to)
        check_views(r, deck[: r.dealt])
    assert r.shown == (set(r.chips.live) if len(r.chips.live) > 1 else set())
    assert not r.shown & r.chips.folded
