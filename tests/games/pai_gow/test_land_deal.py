"""The land table's deal (page 002, "The Deal"), and that the other tables keep theirs.

shared/rules/002_e7444afd9398bcdd.txt: "An electronic random-number generator usually
determines the position of the first hand dealt for each game. Cards are dealt face
down, seven at a time, clockwise from the starting point and at each playing position,
even if empty, including the dealer's position."
"""

from __future__ import annotations

import pytest

import games.pai_gow as pg
from games.core.cards import Card, parse_cards
from games.core.engine import NeedKind
from games.core.errors import IllegalAction
from games.core.records import (
    BetSettled,
    CardShown,
    Deal,
    DealCard,
    Decide,
    PlaceBet,
    StartPosition,
    decode,
)
from games.pai_gow.engine import PaiGowRound, Phase
from games.pai_gow.land_deal import clockwise, land_targets

get_variant = {v.id: v for v in pg.VARIANTS}.__getitem__
LAND = get_variant("pai-gow-land")
DECK = [Card.from_index(i) for i in range(53)]


def dealt_land(bets: dict[int, int]) -> PaiGowRound:
    game = pg.new_game(LAND, 6)
    for seat, amount in bets.items():
        game.apply(PlaceBet(seat=seat, bet="main", amount=amount))
    game.apply(Deal(seat=0))
    return game


def test_the_deal_starts_at_a_position_the_source_picks() -> None:
    """002: "An electronic random-number generator usually determines the position of the
    first hand dealt for each game": the engine asks the source for a position 1..7 before
    any card, and takes it only from the source, only once, only in range."""
    game = dealt_land({1: 1000})
    need = game.needs()
    assert need is not None and (need.kind, need.count) == (NeedKind.POSITION, 7)
    assert game.legal_actions(1) == frozenset()
    with pytest.raises(IllegalAction, match="waits for its start position"):
        game.apply(DealCard(card=DECK[0]))
    for bad in (StartPosition(position=0), StartPosition(position=8)):
        with pytest.raises(IllegalAction, match=r"one of 1\.\.7"):
            game.apply(bad)
    with pytest.raises(IllegalAction, match="from the source"):
        game.apply(StartPosition(seat=1, position=3))
    game.apply(StartPosition(position=5))
    assert game.view(None)["start_position"] == 5
    assert game.needs() is not None and game.needs().kind is NeedKind.CARD  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="no start position is wanted"):
        game.apply(StartPosition(position=5))


@pytest.mark.parametrize("start", range(1, 8))
def test_seven_hands_are_dealt_clockwise_to_every_position_even_empty_and_the_dealer_s(
    start: int,
) -> None:
    """002: "Cards are dealt face down, seven at a time, clockwise from the starting point
    and at each playing position, even if empty, including the dealer's position": 49 of
    the 53 cards, seven to each position in clockwise order from the start; the players'
    cards go to their positions, four cards are never dealt."""
    game = dealt_land({0: 1000, 3: 500})
    game.apply(StartPosition(position=start))
    deck = iter(DECK)
    targets = []
    while (need := game.needs()) is not None:
        targets.append(need.target)
        game.apply(DealCard(card=next(deck)))
    assert len(targets) == 49 and next(deck) == DECK[49]  # four cards left over
    order = [targets[i] for i in range(0, 49, 7)]
    assert all(targets[i : i + 7] == [order[i // 7]] * 7 for i in range(0, 49, 7))
    positions = clockwise(start)
    assert positions[0] == start and sorted(positions) == list(range(1, 8))
    label = {1: "dealer", 2: "seat0", 5: "seat3"}
    unplayed = [p for p in positions if p not in label]
    label[unplayed[0]] = "dragon"  # the first hand nobody plays (page 001, physical)
    assert order == [label.get(p, f"position{p}") for p in positions]
    for seat in (0, 3):
        i = positions.index(seat + 2) * 7
        assert list(game.hand(seat)) == DECK[i : i + 7]
    assert game.phase is Phase.DRAGON


def test_the_hands_nobody_plays_are_never_shown_and_change_no_settlement() -> None:
    """002: "... at each playing position, even if empty": the empty positions' hands are
    dealt face down and discarded; nobody sees them, and they do not change a result."""
    mine, dealer = "As Kd Qh Qc 7s 7d 2c", "Jh Jd 9s 6c 4h 3d Kc"
    results = []
    for fill in (0, 1):
        game = dealt_land({2: 1000})
        game.apply(StartPosition(position=4))  # seat 2 first, then 3, 4, 5, the dealer ...
        rest = [c for c in DECK if c not in parse_cards(mine + " " + dealer)]
        rest = rest[::-1] if fill else rest
        events = []
        given = {"seat2": iter(parse_cards(mine)), "dealer": iter(parse_cards(dealer))}
        spare = iter(rest)
        while (need := game.needs()) is not None:
            assert need.hidden == (need.target != "seat2")
            card = next(given.get(need.target, spare))
            events += game.apply(DealCard(card=card))
        events += game.apply(Decide(seat=2, decision="decline-dragon"))
        events += game.apply(Decide(seat=2, decision="house-way"))
        shown = {str(e.card) for e in events if isinstance(e, CardShown)}
        assert shown == set((mine + " " + dealer).split())
        for viewer in (None, *range(6)):
            text = repr(game.view(viewer))
            assert not any(f"'{c}" in text for c in rest[:35]), viewer
        results.append([s for s in events if isinstance(s, BetSettled)])
    assert results[0] == results[1] and results[0][0].result == "win"


def test_the_online_tables_still_deal_the_seats_in_order_then_the_dealer() -> None:
    """Only the land page deals every position: page 000/001 tables take no position."""
    game = pg.new_game(get_variant("pai-gow-pinnacle"), 1)
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(Deal(seat=0))
    assert game.needs() is not None and game.needs().target == "seat0"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="takes no start position"):
        game.apply(StartPosition(position=1))
    assert "start_position" not in game.view(None)


def test_the_start_position_round_trips_as_a_logged_record() -> None:
    """The log keeps the position and the replayer rebuilds the same action from it."""
    action = StartPosition(position=7)
    assert action.encode() == {"kind": "start-position", "seat": None, "position": 7}
    assert decode(action.encode()) == action
    with pytest.raises(ValueError, match="expected an integer"):
        decode({"kind": "start-position", "seat": None, "position": "7"})


def test_land_targets_name_every_position_once() -> None:
    for start in range(1, 8):
        targets = land_targets(start, [1, 4], dragon=False)
        assert sorted(targets) == sorted(
            ["dealer", "seat1", "seat4", "position2", "position4", "position5", "position7"]
        )
