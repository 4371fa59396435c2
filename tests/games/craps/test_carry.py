"""What a crap game hands to the table's next game (through ``previous`` or ``carry``).

Source: shared/rules/000_f8fdc68712a94de9.txt, Craps Game History Report: a crap game
"starts with a clean table (there are no standing bets ...)" and "ends (and a new one
begins) when all of your bets have been resolved". So no bet, point or come bet can
carry; the "Come Out Options" are the seat's settings and do.
"""

from __future__ import annotations

import pytest

from games import catalog
from games.core import Decide, IllegalAction, PlaceBet, RollDice
from games.core.capabilities import CarriesOver, SeatDefaults, Spots
from games.core.engine import GameContext
from games.core.round import Round
from games.craps import CrapsGame, new_game

VARIANT = catalog.get_variant("craps-pinnacle")


def finished_game(seats: int = 2) -> CrapsGame:
    g = new_game(VARIANT, seats)
    g.apply(Decide(seat=1, decision="come-out-on", arg="buy"))
    g.apply(Decide(seat=0, decision="come-out-off", arg="big"))
    g.apply(PlaceBet(seat=0, bet="pass", amount=1000))
    g.apply(Decide(seat=0, decision="roll"))
    assert not g.is_over
    with pytest.raises(IllegalAction, match="still running"):
        new_game(VARIANT, seats, context=GameContext(previous=g))
    g.apply(RollDice(faces=(3, 4)))  # a natural on the come-out: the pass bet wins
    assert g.is_over
    return g


def test_options_carry_and_the_next_game_starts_from_a_clean_table() -> None:
    g = finished_game()
    nxt = catalog.new_game(VARIANT, 2, previous=g)
    assert isinstance(nxt, CrapsGame)
    assert nxt.working(1)["buy"] is True and nxt.working(0)["big"] is False
    assert nxt.table_point is None and not nxt.is_over
    assert not nxt.view(0)["bets"] and not nxt.view(1)["bets"]
    # after a restart (no previous) the page's defaults come back: buy off, big 6/8 on
    fresh = catalog.new_game(VARIANT, 2)
    assert isinstance(fresh, CrapsGame)
    assert fresh.working(1)["buy"] is False and fresh.working(0)["big"] is True


def test_logged_carry_rebuilds_the_same_game_and_bad_carry_is_refused() -> None:
    g = finished_game()
    logged = catalog.carry_of(g)
    assert logged is not None and logged["working"]["1"]["buy"] is True
    a, b = (
        new_game(VARIANT, 2, context=GameContext(previous=g)),
        new_game(VARIANT, 2, context=GameContext(carry=logged)),
    )
    assert [a.working(s) for s in (0, 1)] == [b.working(s) for s in (0, 1)]
    for bad in ({"working": {"5": {}}}, {"working": {"0": {"buy": 1}}}, {"x": {}}):
        with pytest.raises(ValueError, match="craps carry"):
            new_game(VARIANT, 2, context=GameContext(carry=bad))
    assert (
        new_game(VARIANT, 1, context=GameContext(previous=g)).working(0)["big"] is False
    )  # fewer seats


def test_the_game_declares_its_capabilities_and_settles_through_the_round() -> None:
    g = finished_game()
    assert isinstance(g, Round)
    assert isinstance(g, Spots) and isinstance(g, CarriesOver) and isinstance(g, SeatDefaults)
    assert [(s.bet, s.result, s.net) for s in g.settlements] == [("pass", "win", 1000)]
    assert g.default_action(0) is None and g.awaiting() == frozenset()
