"""The "always contribute" button: a seat action while bets are open, carried game to game.

Source: shared/rules/000_f8fdc68712a94de9.txt (Oasis Poker: the "always contribute"
option places the jackpot bet with every ante) and rules README gap 4 (Pinnacle Stud
Poker has the jackpot bet and "always contribute" as on the Oasis page). Caribbean Stud
(page 001) has the jackpot bet too, so the button is offered on all three tables.
"""

from __future__ import annotations

import pytest

import games.caribbean_stud as cs
from games import catalog
from games.caribbean_stud.engine import StudRound
from games.core.cards import Card
from games.core.engine import GameContext
from games.core.errors import IllegalAction
from games.core.records import BetPlaced, Deal, DealCard, Decide, PlaceBet

VARIANTS = {v.id: v for v in cs.VARIANTS}
STUD = VARIANTS["caribbean-stud"]  # seven seats; the other two tables seat one


def on(seat: int, arg: str = "on") -> Decide:
    return Decide(seat=seat, decision="always-contribute", arg=arg)


def play_out(game: StudRound) -> None:
    """Deal the deck in index order and fold every seat."""
    i = 0
    while game.needs() is not None:
        game.apply(DealCard(card=Card.from_index(i)))
        i += 1
    for seat in range(game.seats):
        if "fold" in game.legal_actions(seat):
            game.apply(Decide(seat=seat, decision="fold"))
    assert game.is_over


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_the_button_is_offered_while_bets_are_open(vid: str) -> None:
    game = cs.new_game(VARIANTS[vid], 1)
    assert game.rules.jackpot is not None
    assert "always-contribute" in game.legal_actions(0)
    game.apply(PlaceBet(seat=0, bet="ante", amount=game.variant.limits["ante"].minimum))
    game.apply(Deal(seat=0))
    assert "always-contribute" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="while bets are open"):
        game.apply(on(0))


def test_switching_on_places_the_jackpot_bet_at_the_deal_and_off_does_not() -> None:
    game = cs.new_game(STUD, 2)
    assert game.apply(on(0)) and game.view(0)["always_contribute"] == [0]
    game.apply(on(1))
    game.apply(on(1, "off"))
    for seat in (0, 1):
        game.apply(PlaceBet(seat=seat, bet="ante", amount=500))
    events = game.apply(Deal(seat=0))
    jackpot_bets = [e for e in events if isinstance(e, BetPlaced) and e.bet == "jackpot"]
    assert jackpot_bets == [BetPlaced(seat=0, bet="jackpot", amount=100)]  # the $1 jackpot bet


def test_bad_arguments_are_refused_and_change_nothing() -> None:
    game = cs.new_game(STUD, 2)
    before = repr(game.view(None))
    for action, reason in (
        (on(0, "maybe"), "'on' or 'off'"),
        (on(7), "no seat 7"),
    ):
        with pytest.raises(IllegalAction, match=reason):
            game.apply(action)
    assert repr(game.view(None)) == before


def test_the_buttons_carry_to_the_next_game_through_previous() -> None:
    first = catalog.new_game(STUD, 3)
    first.apply(on(2))
    first.apply(PlaceBet(seat=0, bet="ante", amount=500))
    first.apply(Deal(seat=0))
    with pytest.raises(IllegalAction, match="not over"):
        cs.new_game(STUD, 3, context=GameContext(previous=first))
    play_out(first)  # type: ignore[arg-type]
    second = catalog.new_game(STUD, 3, previous=first)
    assert second.view(None)["always_contribute"] == [2]
    logged = catalog.carry_of(first)
    assert logged == {"always_contribute": [2]}
    replayed = catalog.new_game(STUD, 3, carry=logged)
    assert replayed.view(None) == second.view(None)
    # after a restart (no previous) the pay table's default applies again: off here
    assert catalog.new_game(STUD, 3).view(None)["always_contribute"] == []
    for bad in ({"always_contribute": [3]}, {"seats": [1]}, [1]):
        with pytest.raises(ValueError, match="stud carry"):
            cs.new_game(STUD, 3, context=GameContext(carry=bad))
    with pytest.raises(ValueError, match="not a game of"):
        cs.new_game(VARIANTS["oasis-poker"], 1, context=GameContext(previous=first))
