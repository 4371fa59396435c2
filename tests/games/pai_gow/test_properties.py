"""Property tests over random decks, bets and settings (hypothesis).

For every game: each bet placed is settled exactly once and the stakes settled equal
the chips put down (foul settings played where the table plays them, pages 002 and
004); net is ``returned - commission - stake``; a refused action (a foul setting where
it is set again, a malformed setting, a bet out of limits or turn) raises with a
one-line reason and changes nothing; and no view ever shows a card it may not: an
undealt card, another seat's cards or the dealer's before the reveal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import games.pai_gow as pg
from games.core.cards import Card
from games.core.engine import GameContext, NeedKind
from games.core.errors import IllegalAction
from games.core.records import (
    BetPlaced,
    BetReturned,
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    PlaceBet,
    RemoveBet,
    StartPosition,
)
from games.pai_gow.engine import PaiGowRound, Phase

# the family's own list, not the catalog: a broken sibling family cannot fail these tests
get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__

IDS = [v.id for v in pg.VARIANTS]
DECK = st.permutations(list(range(53))).map(lambda p: [Card.from_index(i) for i in p])
#: the dragon offers of a game: (take it?, wager in dollars; 0: its own main wager)
TAKES = st.lists(st.tuples(st.booleans(), st.integers(0, 40)), max_size=6)


def refused(game: PaiGowRound, action: Any) -> None:
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
    start=st.integers(1, 7),  # the land table's start position, from the source
    takes=TAKES,
)
def test_chips_conserved_hidden_cards_never_shown(
    vid: str,
    cards: list[Card],
    bets: list[tuple[int, bool, int]],
    picks: list[tuple[int, int, bool]],
    start: int,
    takes: list[tuple[bool, int]],
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
        if need.kind is NeedKind.POSITION:
            events += game.apply(StartPosition(position=start))
            continue
        card = next(deck)
        events += game.apply(DealCard(card=card))
        dealt.setdefault(need.target, []).append(str(card))
    refused(game, DealCard(card=cards[0]))
    events += dragon_offer(game, takes, dealt)
    order = list(game.view(None)["dealt_in"])
    picks_iter = iter(picks)
    for seat in order:
        hand = list(game.hand(seat))
        chosen = game.default_action(seat)  # the house way (a set where no button)
        for i, j, take in picks_iter:
            if i == j:
                continue
            low = [hand[i], hand[j]]
            high = [c for c in hand if c not in low]
            arg = " ".join(map(str, low)) + "|" + " ".join(map(str, high))
            action = Decide(seat=seat, decision="set", arg=arg)
            if game.can(action):  # foul or not where a foul is played (land, Fortune)
                if take:
                    chosen = action
                    break
                continue
            refused(game, action)
        for other in [None, *range(game.seats)]:
            seen = visible(game.view(other))
            mine = set(dealt.get(f"seat{other}", []))
            assert seen <= mine, f"{other} sees {seen - mine} before the reveal"
        assert chosen is not None
        events += game.apply(chosen)
    events += set_dragon(game)
    assert game.is_over
    for s in settled_once(events):
        if s.bet in ("main", "dragon"):
            assert s.returned in (0, s.stake, 2 * s.stake)


LAND = get_variant("pai-gow-land")


@settings(max_examples=80, deadline=None)
@given(
    games=st.lists(
        st.tuples(
            DECK,
            # per game: bank decisions (accept?, bank dollars, house-wager dollars)
            st.lists(st.tuples(st.booleans(), st.integers(0, 80), st.integers(0, 30)), max_size=4),
            # bets: (seat, dollars); the first valid one is made sure of
            st.lists(st.tuples(st.integers(0, 3), st.integers(1, 700)), max_size=6),
            st.booleans(),  # banker sets its own (worst legal) way instead of house way
        ),
        min_size=1,
        max_size=5,
    ),
    start=st.integers(1, 7),
    takes=TAKES,
)
def test_player_banked_games_conserve_chips_and_rotate_by_the_page(
    games: list[tuple[list[Card], list[tuple[bool, int, int]], list[tuple[int, int]], bool]],
    start: int,
    takes: list[tuple[bool, int]],
) -> None:
    """A run of land-table games, each built from the last through ``previous``.

    Every game: each seat's chips placed are settled exactly once; a bank never returns
    less than nothing; under a player-banker what the seats net together is exactly the
    house's commission and its wager against the banker, with the sign flipped; the same
    seat never banks twice in a row; cards stay hidden; refused actions change nothing.
    """
    seats = 4
    previous: PaiGowRound | None = None
    bankers: list[int | None] = []
    for cards, decisions, bets, own_way in games:
        game = pg.new_game(LAND, seats, context=GameContext(previous=previous))
        if previous is None:
            assert game.phase is Phase.BETTING  # the dealer banks the first hand
        events: list[Any] = []
        choices = iter(decisions)
        while game.phase is Phase.BANK:
            seat = game.offered
            assert seat is not None
            for other in range(seats):
                if other != seat:
                    refused(game, Decide(seat=other, decision="decline-bank"))
            accept, bank, house = next(choices, (False, 0, 0))
            action = Decide(seat=seat, decision="bank", arg=f"{bank * 100} {house * 100}")
            if accept and game.can(action):
                events += game.apply(action)
            else:
                if accept:
                    refused(game, action)
                events += game.apply(Decide(seat=seat, decision="decline-bank"))
        if bankers and game.banker is not None:
            assert game.banker != bankers[-1], "a player banked two hands in a row"
        for seat, dollars in bets:
            if seat >= seats:
                continue
            action = PlaceBet(seat=seat, bet="main", amount=dollars * 100)
            if game.can(action):
                events += game.apply(action)
            else:
                refused(game, action)
        if not game.can(Deal(seat=0)):
            for seat in range(seats):
                minimum = PlaceBet(seat=seat, bet="main", amount=LAND.limits["main"].minimum)
                if game.can(minimum):
                    events += game.apply(minimum)
                    break
            else:  # the bank cannot take even a minimum: the banker takes it down
                assert game.banker is not None
                events += game.apply(RemoveBet(seat=game.banker, bet="bank"))
                events += game.apply(PlaceBet(seat=0, bet="main", amount=500))
        events += game.apply(Deal(seat=0))
        dealt: dict[str, list[str]] = {}
        deck = iter(cards)
        while (need := game.needs()) is not None:
            for viewer in [None, *range(seats)]:
                seen = visible(game.view(viewer))
                assert seen <= set(dealt.get(f"seat{viewer}", [])), f"{viewer} sees too much"
            if need.kind is NeedKind.POSITION:
                events += game.apply(StartPosition(position=start))
                continue
            card = next(deck)
            events += game.apply(DealCard(card=card))
            dealt.setdefault(need.target, []).append(str(card))
        events += dragon_offer(game, takes, dealt)
        for seat in game.view(None)["dealt_in"]:
            if seat == game.banker and own_way:
                hand = list(game.hand(seat))
                for i in range(7):
                    for j in range(i + 1, 7):
                        low = [hand[i], hand[j]]
                        high = [c for c in hand if c not in low]
                        arg = " ".join(map(str, low)) + "|" + " ".join(map(str, high))
                        if game.can(Decide(seat=seat, decision="set", arg=arg)):
                            break
                    else:
                        continue
                    break
                events += game.apply(Decide(seat=seat, decision="set", arg=arg))
            else:
                events += game.apply(Decide(seat=seat, decision="house-way"))
        events += set_dragon(game)
        assert game.is_over
        settled = settled_once(events)
        if game.banker is None:  # the house is every wager's other side
            assert game.house_result == 0 and all(s.bet in ("main", "dragon") for s in settled)
        else:  # the seats only pass chips among themselves, bar the house's share
            house_take = sum(s.commission for s in settled) + game.house_result
            assert sum(s.net for s in settled) == -house_take
            exposure = sum(s.stake for s in settled if s.bet != "bank") + game.house_wager
            assert exposure <= game.bank
        event("a player banks" if game.banker is not None else "the dealer banks")
        event(
            "the dragon is played" if game.dragon and game.dragon.taker is not None else "no dragon"
        )
        event(f"house wager {'on' if game.house_wager else 'off'}")
        bankers.append(game.banker)
        previous = game


def dragon_offer(
    game: PaiGowRound, takes: list[tuple[bool, int]], dealt: dict[str, list[str]]
) -> list[Event]:
    """Page 001's dragon hand on the land table: each seat offered takes it or declines,
    by ``takes``; only the seat offered may answer, a refused wager changes nothing, and
    the taker may see the dragon's cards from then on (``dealt``)."""
    events: list[Event] = []
    choices = iter(takes)
    while (seat := game.dragon_offered()) is not None:
        for other in range(game.seats):
            if other != seat:
                refused(game, Decide(seat=other, decision="decline-dragon"))
        take, dollars = next(choices, (False, 0))
        action = Decide(seat=seat, decision="dragon", arg=str(dollars * 100) if dollars else "")
        if take and game.can(action):
            events += game.apply(action)
            dealt.setdefault(f"seat{seat}", []).extend(dealt["dragon"])
            event("a dragon hand is taken")
        else:
            if take:
                refused(game, action)
            events += game.apply(Decide(seat=seat, decision="decline-dragon"))
    return events


def set_dragon(game: PaiGowRound) -> list[Event]:
    """The dragon's taker sets it by the house way (hand 1), as its default does."""
    dragon = game.dragon
    if dragon is None or dragon.taker is None or game.is_over:
        return []
    action = game.default_action(dragon.taker)
    assert action == Decide(seat=dragon.taker, decision="house-way", hand=1)
    return list(game.apply(action))


def settled_once(events: list[Event]) -> list[BetSettled]:
    """Every stake placed (less returned) settles exactly once, with a sane result; the
    settlements, in order."""
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
    return settled
