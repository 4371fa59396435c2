"""Properties over random roll sequences and random bets: chips conserved, refusals
change nothing, and a crap game ends exactly when no bets remain."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.catalog import get_variant
from games.core import (
    Action,
    BetPlaced,
    BetReturned,
    BetSettled,
    Decide,
    IllegalAction,
    PlaceBet,
    RemoveBet,
    RollDice,
)
from games.craps import CrapsGame, autoplay, new_game
from games.craps.bets import WORKING_DEFAULTS, all_bet_names

VARIANT = get_variant("craps-pinnacle")
NAMES = all_bet_names()
SEATS = 2

amounts = st.one_of(
    st.sampled_from([100, 200, 400, 500, 600, 1000, 2000, 2500, 5000, 50000]),
    st.integers(min_value=-200, max_value=400_000),
)
die = st.integers(min_value=1, max_value=6)
player = st.integers(min_value=0, max_value=SEATS - 1)

actions = st.one_of(
    st.builds(PlaceBet, seat=player, bet=st.sampled_from(NAMES), amount=amounts),
    st.builds(
        RemoveBet,
        seat=player,
        bet=st.sampled_from(NAMES),
        amount=st.sampled_from([0, 0, 100, 400, 500, 1000]),
    ),
    st.builds(
        Decide,
        seat=player,
        decision=st.sampled_from(["come-out-on", "come-out-off"]),
        arg=st.sampled_from([k.value for k in WORKING_DEFAULTS]),
    ),
    st.tuples(die, die).map(lambda d: RollDice(faces=d)),
    st.just(Decide(seat=0, decision="roll")),
    st.just(Decide(seat=0, decision="roll")),
)


class Ledger:
    """The wallet side of the table, kept from events alone."""

    def __init__(self, seats: int = SEATS) -> None:
        self.placed = 0
        self.returned = 0
        self.settled_stakes = 0
        self.net = [0] * seats

    def post(self, events: tuple[object, ...]) -> None:
        for e in events:
            if isinstance(e, BetPlaced):
                assert e.amount > 0
                self.placed += e.amount
            elif isinstance(e, BetReturned):
                assert e.amount > 0
                self.returned += e.amount
            elif isinstance(e, BetSettled):
                assert e.stake > 0
                assert e.returned >= 0
                assert 0 <= e.commission <= max(e.returned - e.stake, 0)
                assert e.result in ("win", "lose", "push")
                self.settled_stakes += e.stake
                self.net[e.seat] += e.net


def snapshot(g: CrapsGame) -> object:
    return (g.view(None), [g.view(s) for s in range(SEATS)], g.needs(), g.is_over)


def refusal(g: CrapsGame, action: Action) -> str | None:
    try:
        g.verify(action)
    except IllegalAction as exc:
        return str(exc)
    return None


def check_invariants(g: CrapsGame, ledger: Ledger) -> None:
    on_table = g.on_table()
    assert on_table == ledger.placed - ledger.returned - ledger.settled_stakes
    seats = range(len(ledger.net))
    assert all(v > 0 for s in seats for v in g.bets[s].values())
    for s in seats:
        assert g.game_result(s) == ledger.net[s]
    rolled = len(g.history) > 0
    assert g.is_over == (rolled and on_table == 0)
    if g.is_over:
        assert g.table_point is None


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, min_size=1, max_size=80))
def test_random_play_conserves_chips_and_refusals_change_nothing(seq: list[Action]) -> None:
    g = new_game(VARIANT, seats=SEATS)
    ledger = Ledger()
    for action in seq:
        if g.is_over:
            assert not g.can(action)
            break
        before = snapshot(g)
        reason = refusal(g, action)
        if reason is not None:
            assert reason  # a reason is always given, on one line
            assert "\n" not in reason
            assert snapshot(g) == before
            assert not g.can(action)
            continue
        ledger.post(g.apply(action))
        check_invariants(g, ledger)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(die, die), min_size=200, max_size=200), st.data())
def test_random_legal_bets_then_rolls_until_the_game_ends(
    rolls: list[tuple[int, int]], data: st.DataObject
) -> None:
    """Random legal bets between random rolls; the game ends only when nothing is left."""
    g = new_game(VARIANT, seats=1)
    ledger = Ledger(1)
    for faces in rolls:
        if g.is_over:
            break
        for _ in range(data.draw(st.integers(0, 3))):
            open_spots = g.placeable(0)
            if not open_spots:
                break
            name = data.draw(st.sampled_from(open_spots))
            step = VARIANT.limits[name].increment
            action = PlaceBet(seat=0, bet=name, amount=step * data.draw(st.integers(1, 5)))
            if g.can(action):
                ledger.post(g.apply(action))
        if data.draw(st.booleans()) and g.removable(0):
            name = data.draw(st.sampled_from(g.removable(0)))
            ledger.post(g.apply(RemoveBet(seat=0, bet=name)))
            check_invariants(g, ledger)
            if g.is_over:
                break
        if not g.on_table():
            assert not g.is_over or g.history
            ledger.post(g.apply(PlaceBet(seat=0, bet="field", amount=100)))
        ledger.post(g.apply(Decide(seat=0, decision="roll")))
        ledger.post(g.apply(RollDice(faces=faces)))
        check_invariants(g, ledger)
        assert g.last_roll is not None
        resolved_net = sum(r.win for r in g.last_roll.resolved)
        assert isinstance(resolved_net, int)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(die, die), max_size=50))
def test_autoplay_plays_a_pass_line_game_to_its_end(rolls: list[tuple[int, int]]) -> None:
    g = new_game(VARIANT)
    ledger = Ledger(1)
    it = iter([*rolls, (3, 4)])  # a 7 settles any pass line bet
    for _ in range(2000):
        if g.needs() is not None:
            ledger.post(g.apply(RollDice(faces=next(it))))
            continue
        action = autoplay(g, 0)
        if action is None:
            break
        ledger.post(g.apply(action))
        check_invariants(g, ledger)
    assert g.is_over
    assert autoplay(g, 0) is None
    assert ledger.placed in (100, 200)  # the minimum pass bet, plus 1x odds if a point
