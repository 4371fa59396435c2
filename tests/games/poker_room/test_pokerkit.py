"""Differential test against pokerkit (a test-only peer, bench/pokerkit_room.py).

Hypothesis deals hands of 2 to 9 players (stud 2 to 8) with stacks that go all-in often,
and plays legal action sequences on both engines from the same cards: at every decision
both must offer the same actions with the same amounts, except where the page differs
from pokerkit and the difference is named (no cap heads-up; stud's open pair on 4th
street), and the hand must end with the same pots, side pots, eligible players, winners
and chips. Split pots agree on winners and totals, shared to the cent; who gets the odd
cents is the room's rule, which pokerkit plays only for one odd cent outside stud (it
gives every odd cent to its first player), so that is checked against the room's rule
instead (test_holdem, test_stud). A stud hand
that runs out of cards (the common card) is finished by our engine alone.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pokerkit import Card, hands

from bench.pokerkit_room import Outcome, lockstep
from games.core.cards import DECK
from games.core.engine import Variant
from games.poker_room.rules import RoomRules, load_packaged, without_collection

GAMES = ("holdem-2-4", "omaha-2-4", "stud-2-4")
VARIANTS = {name: without_collection(load_packaged(name)) for name in GAMES}
#: stacks in units of the lower limit: many all-ins, some deep
UNITS = (1, 2, 3, 4, 6, 9, 15, 40)


def check(variant: Variant[RoomRules], stacks: dict[int, int], out: Outcome) -> None:
    """Both engines ended the hand alike (see the module docstring)."""
    assert sum(out.mine_stacks.values()) == sum(stacks.values())  # no chip made or lost
    if not out.compared:
        return
    assert out.mine_pots == out.peer_pots
    if not out.showdown:  # won by folds: the stacks say it all
        assert out.mine_stacks == out.peer_stacks
        return
    # pokerkit renumbers its pots once the losing hands are killed: compare what each
    # seat won over all pots, and each pot of ours against the room's split
    mine_won: dict[int, int] = {}
    peer_won: dict[int, int] = {}
    split_winners: set[int] = set()
    for awards, total in ((out.mine_awards, mine_won), (out.peer_awards, peer_won)):
        for pot in awards:
            for seat, amount in pot.items():
                total[seat] = total.get(seat, 0) + amount
    for pot, (amount, eligible) in zip(out.mine_awards, out.mine_pots, strict=True):
        assert sum(pot.values()) == amount and set(pot) <= set(eligible)
        if len(pot) > 1:
            split_winners |= set(pot)
            assert max(pot.values()) - min(pot.values()) <= 1  # to the cent
    assert set(mine_won) == set(peer_won)
    assert sum(mine_won.values()) == sum(peer_won.values())
    for seat, stack in out.mine_stacks.items():
        if seat not in split_winners:
            assert stack == out.peer_stacks[seat], (seat, out)
            assert mine_won.get(seat) == peer_won.get(seat), (seat, out)


@pytest.fixture(scope="module", autouse=True)
def pokerkit_remembers_a_hands_evaluations() -> Iterator[None]:
    """pokerkit evaluates the same hole and board cards again at every step of a hand
    (who can still win, the showdown, each Omaha two-card choice): 78% of the slow
    suite's time. Here each evaluation is remembered for the hand it is made in, keyed
    by the hand class and the cards, pokerkit's own function computing every first one,
    so the oracle's answers are unchanged (half the time for Omaha). The bench's
    pokerkit runs as shipped."""
    memo: dict[tuple[object, ...], object] = {}

    def remembered(method: Any) -> classmethod[Any, Any, Any]:
        compute = method.__func__

        def from_game(cls: type, hole_cards: object, board_cards: object = ()) -> object:
            hole, board = Card.clean(hole_cards), Card.clean(board_cards)
            key = (cls, compute, hole, board)
            if key not in memo:
                if len(memo) > 50_000:  # a bound: hits come from within one hand
                    memo.clear()
                memo[key] = compute(cls, hole, board)
            return memo[key]

        return classmethod(from_game)

    with pytest.MonkeyPatch.context() as patch:
        for owner in (hands.CombinationHand, hands.BoardCombinationHand,
                      hands.HoleBoardCombinationHand):  # fmt: skip
            patch.setattr(owner, "from_game", remembered(owner.__dict__["from_game"]))
        yield


def play(variant: Variant[RoomRules], rnd: random.Random) -> Outcome:
    """One random hand on both engines (the choices from ``rnd``)."""
    n = rnd.randint(2, variant.seats)
    seats = sorted(rnd.sample(range(variant.seats), n))
    lower = variant.rules.lower_limit
    extra = variant.rules.ante + (variant.rules.chip if variant.rules.is_stud else 0)
    stacks = {
        s: rnd.choice(UNITS) * lower + rnd.choice((0, extra)) + variant.rules.ante for s in seats
    }
    deck = list(DECK)
    rnd.shuffle(deck)

    def choose(options: Sequence[tuple[str, int]]) -> int:
        return rnd.randrange(len(options))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns on dealing from a short stud deck
        _, out = lockstep(variant, stacks, deck, choose, rnd.randint(1, n))
    check(variant, stacks, out)
    return out


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1))
def test_agrees_with_pokerkit(name: str, seed: int) -> None:
    play(VARIANTS[name], random.Random(seed))


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**64 - 1))
def test_agrees_with_pokerkit_over_ten_thousand_hands(name: str, seed: int) -> None:
    play(VARIANTS[name], random.Random(seed))


def test_the_named_differences_do_occur_and_the_hands_still_agree() -> None:
    """The differences the differential allows are met in ordinary play (so allowing
    them hides nothing else), and hands where they occur still end alike."""
    seen: dict[str, int] = {}
    for name in ("holdem-2-4", "stud-2-4"):
        rnd = random.Random(f"named-{name}")
        for _ in range(60):
            for why in play(VARIANTS[name], rnd).differences:
                seen[why] = seen.get(why, 0) + 1
    assert set(seen) == {"heads-up-uncapped", "open-pair"}, seen
