"""Property tests over random decks, bets and settings (hypothesis).

For every game: each bet placed is settled exactly once and the stakes settled equal
the chips put down; net is ``returned - commission - stake``; a refused action (a foul
or malformed setting, a bet out of limits or turn) raises with a one-line reason and
changes nothing; and no view ever shows a card it may not: an undealt card, another
seat's cards or the dealer's before the reveal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.pai_gow as pg
from games.core.cards import Card
from games.core.errors import IllegalAction
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    PlaceBet,
)

# the family's own list, not the catalog: a broken sibling family cannot fail these tests
get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__

IDS = [v.id for v in pg.VARIANTS]
DECK = st.permutations(list(range(53))).map(lambda p: [Card.from_index(i) for i in p])


def refused(game: pg.PaiGowRound, action: Any) -> None:
    before = (repr(game.view(None)), [repr(game.view(s)) for s in range(game.seats)])
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert str(info.value) and "\n" not in str(info.value)
    assert before == (repr(game.view(None)), [repr(game.view(s)) for s in range(game.seats)])


def visible(view: dict[str, Any]) -> set[str]:
    text = repr(view)
    return {str(Card.from_index(i)) for i in range(53) if f"'{Card.from_index(i)}" in text}


@settings(max_examples=60, deadline=None)
@given(
    vid=st.sampled_from(IDS),
    cards=DECK,
    bets=st.lists(st.tuples(st.integers(0, 3), st.booleans(), st.integers(1, 30)), max_size=8),
    picks=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.booleans()), max_size=12),
)
def test_chips_conserved_hidden_cards_never_shown(
    vid: str,
    cards: list[Card],
    bets: list[tuple[int, bool, int]],
    picks: list[tuple[int, int, bool]],
) -> None:
    variant = get_variant(vid)
    game = pg.new_game(variant, variant.seats)
    side = variant.rules.side
    events: list[Any] = []
    for seat, on_side, dollars in bets:
        if seat >= game.seats:
            continue
        bet = side.name if on_side and side is not None else "main"
        action = PlaceBet(seat=seat, bet=bet, amount=dollars * 100)
        if game.can(action):
            events += game.apply(action)
        else:
            refused(game, action)
    if not game.can(Deal(seat=0)):
        refused(game, Deal(seat=0))
        events += game.apply(PlaceBet(seat=0, bet="main", amount=variant.limits["main"].minimum))
    events += game.apply(Deal(seat=0))
    dealt: dict[str, list[str]] = {}
    deck = iter(cards)
    while (need := game.needs()) is not None:
        for seat in [None, *range(game.seats)]:
            seen = visible(game.view(seat))
            allowed = set(dealt.get(f"seat{seat}", []))
            assert seen <= allowed, f"seat {seat} sees {seen - allowed}"
        card = next(deck)
        events += game.apply(DealCard(card=card))
        dealt.setdefault(need.target, []).append(str(card))
    refused(game, DealCard(card=cards[0]))
    order = list(game.view(None)["dealt_in"])
    picks_iter = iter(picks)
    for seat in order:
        hand = list(game.hand(seat))
        for i, j, legal in picks_iter:
            if i == j:
                continue
            low = [hand[i], hand[j]]
            high = [c for c in hand if c not in low]
            arg = " ".join(map(str, low)) + "|" + " ".join(map(str, high))
            action = Decide(seat=seat, decision="set", arg=arg)
            if game.can(action):
                if legal:
                    break
                continue
            refused(game, action)
        for other in [None, *range(game.seats)]:
            seen = visible(game.view(other))
            mine = set(dealt.get(f"seat{other}", []))
            assert seen <= mine, f"{other} sees {seen - mine} before the reveal"
        events += game.apply(Decide(seat=seat, decision="house-way"))
    assert game.is_over
    placed: Counter[tuple[int, str]] = Counter()
    for e in events:
        if isinstance(e, BetPlaced):
            placed[e.seat, e.bet] += e.amount
        elif isinstance(e, BetReturned):
            placed[e.seat, e.bet] -= e.amount
    settled = [e for e in events if isinstance(e, BetSettled)]
    keys = [(s.seat, s.bet) for s in settled]
    assert len(keys) == len(set(keys)), "a bet settled twice"
    assert {k: s.stake for k, s in zip(keys, settled, strict=True)} == dict(+placed)
    for s in settled:
        assert s.returned >= 0 and 0 <= s.commission <= s.returned
        assert s.result == ("win" if s.net > 0 else "push" if s.net == 0 else "lose")
        if s.bet == "main":
            assert s.returned in (0, s.stake, 2 * s.stake)
