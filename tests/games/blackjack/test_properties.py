"""Property tests over random shoes and random legal decisions (hypothesis).

* chips are conserved: every spot placed is settled exactly once, for its whole stake
  (backline bets included, on the tables that take them);
* ``view`` never shows the dealer's hole card before the rules turn it over, nor the shoe;
* an illegal action is refused with a clear reason and changes nothing.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.blackjack import VARIANTS, new_game
from games.blackjack.decisions import DECISIONS
from games.blackjack.engine import BlackjackRound, Phase
from games.core import (
    Action,
    BetPlaced,
    BetReturned,
    BetSettled,
    Card,
    CardShown,
    Deal,
    DealCard,
    Decide,
    IllegalAction,
    PlaceBet,
    RemoveBet,
    deck,
)

variants = st.sampled_from(VARIANTS)
Key = tuple[int, str]


def _shoe(rng: random.Random, decks: int) -> list[Card]:
    cards = list(deck()) * decks
    rng.shuffle(cards)
    return cards


def _random_action(game: BlackjackRound, rng: random.Random) -> Action:
    """Any action at all, legal or not, for the refusal property."""
    seat = rng.choice([0, 1, 2, -1])
    pick = rng.randrange(6)
    if pick == 0:
        return PlaceBet(
            seat=seat,
            bet=rng.choice(["main", "buster", "side"]),
            amount=rng.choice([-100, 0, 1, 150, 100, 60000, 10**7]),
        )
    if pick == 1:
        return RemoveBet(seat=seat, bet=rng.choice(["main", "buster"]), amount=rng.choice([0, 50]))
    if pick == 2:
        return Deal(seat=seat)
    if pick == 3:
        return DealCard(card=Card.from_index(rng.randrange(53)))
    return Decide(
        seat=seat,
        decision=rng.choice([*DECISIONS, "fold"]),
        arg=rng.choice(["", "x", "-5", "100", "999999"]),
        hand=rng.randrange(4),
    )


def _legal_step(game: BlackjackRound, rng: random.Random, seats: int) -> Action:
    """A random legal decision (or bet) for a seat that may act."""
    for seat in rng.sample(range(seats), seats):
        legal = sorted(game.legal_actions(seat))
        if not legal:
            continue
        if game.phase is Phase.BETTING:
            return Deal(seat=seat)
        name = rng.choice(legal)
        arg = ""
        st_ = game.seat_state(seat)
        if name == "double" and game.rules.double_for_less:
            turn = game.turn
            assert turn is not None
            arg = str(rng.choice([st_.hands[turn[1]].stake, 100]))
        if name == "insurance" and game.rules.insurance == "up-to-half":
            arg = str(rng.choice([st_.main // 2, 100]))
        turn = game.turn
        return Decide(seat=seat, decision=name, arg=arg, hand=turn[1] if turn else 0)
    raise AssertionError(f"nobody can act: {game.view(None)}")


def _back(game: BlackjackRound, rng: random.Random, seat: int, placed: dict[Key, int]) -> None:
    """Backline bets behind ``seat`` where the table takes them (page 004, 21st Century
    Blackjack: "Multiple Players may bet on the same hand"), a seat with a hand or not
    (then returned at the deal): the same conservation and settled-once checks hold."""
    if not game.rules.backline_per_seat:
        return  # draw nothing: the other tables' games are as before
    lim = game.variant.limits["main"]
    for position in game.backline_positions(seat, "main"):
        if rng.random() < 0.5:
            amount = rng.randrange(lim.minimum, lim.maximum + 1, lim.increment)
            game.apply(PlaceBet(seat=position, bet="main", amount=amount))
            placed[(position, "main")] = amount


def _play(variant_index: int, seed: int, seats: int, check_illegal: bool) -> None:
    variant = VARIANTS[variant_index]
    rng = random.Random(seed)
    game = new_game(variant, seats)
    shoe = _shoe(rng, variant.rules.decks)
    placed: dict[tuple[int, str], int] = {}
    settled: dict[tuple[int, str], BetSettled] = {}
    hole: Card | None = None
    hole_shown = False
    lim = variant.limits["main"]
    for seat in range(seats):
        if seat == 0 or rng.random() < 0.6:
            amount = rng.randrange(lim.minimum, lim.maximum + 1, lim.increment)
            for e in game.apply(PlaceBet(seat=seat, bet="main", amount=amount)):
                assert isinstance(e, BetPlaced)
                placed[(seat, "main")] = e.amount
            if "buster" in variant.limits and rng.random() < 0.5:
                game.apply(PlaceBet(seat=seat, bet="buster", amount=100))
                placed[(seat, "buster")] = 100
        _back(game, rng, seat, placed)
    for _ in range(500):
        if game.is_over:
            break
        if check_illegal:
            bad = _random_action(game, rng)
            if not game.can(bad):
                before = copy.deepcopy(vars(game))
                view = game.view(None)
                with pytest.raises(IllegalAction) as info:
                    game.apply(bad)
                assert str(info.value) and "\n" not in str(info.value)
                assert vars(game) == before
                assert game.view(None) == view
        need = game.needs()
        if need is not None:
            card = shoe.pop()
            events = game.apply(DealCard(card=card))
            if need.hidden:
                hole = card
                if any(isinstance(e, CardShown) and e.card == card for e in events):
                    # turned over at once only when no player decision remains
                    assert game.phase in (Phase.DEALER, Phase.OVER)
        else:
            events = game.apply(_legal_step(game, rng, seats))
        for e in events:
            if isinstance(e, BetPlaced):
                placed[(e.seat, e.bet)] = placed.get((e.seat, e.bet), 0) + e.amount
            elif isinstance(e, BetReturned):
                placed[(e.seat, e.bet)] -= e.amount
            elif isinstance(e, BetSettled):
                key = (e.seat, e.bet)
                assert key not in settled, f"{key} settled twice"
                settled[key] = e
                assert e.returned >= 0 and e.commission == 0
            elif isinstance(e, CardShown) and e.hand == "dealer" and e.card == hole:
                hole_shown = True
        # the hole card: hidden in every view until it is turned over
        for seat in [None, *range(seats)]:
            view = game.view(seat)
            assert "shoe" not in json.dumps(view)
            dealer = view["dealer"]["cards"]
            if hole is not None and not hole_shown:
                assert dealer[1] is None
                assert view["dealer"]["total"] == hand_total_of(dealer[0])
            elif hole is not None:
                assert dealer[1] == str(hole)
    assert game.is_over
    assert set(settled) == {k for k, v in placed.items() if v}
    for key, e in settled.items():
        assert e.stake == placed[key], key
    # the hole card was shown to everyone by the end
    assert game.view(None)["dealer"]["cards"][1] is not None


def hand_total_of(card: str | None) -> int:
    from games.blackjack.hand import hand_total

    assert card is not None
    return hand_total([Card.parse(card)])[0]


@settings(max_examples=300, deadline=None)
@given(v=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 2**32), seats=st.integers(1, 3))
def test_chips_conserved_and_hole_card_hidden(v: int, seed: int, seats: int) -> None:
    _play(v, seed, seats, check_illegal=False)


@settings(max_examples=150, deadline=None)
@given(v=st.integers(0, len(VARIANTS) - 1), seed=st.integers(0, 2**32), seats=st.integers(1, 2))
def test_illegal_actions_refused_and_change_nothing(v: int, seed: int, seats: int) -> None:
    _play(v, seed, seats, check_illegal=True)


def test_hole_card_not_in_any_event_before_reveal() -> None:
    """Deal a peek-no-natural round: the hole card's DealCard yields no CardShown."""
    game = new_game(VARIANTS[0])
    game.apply(PlaceBet(seat=0, bet="main", amount=1000))
    game.apply(Deal())
    events = []
    for c in ("9s", "Td", "8h"):
        events += game.apply(DealCard(card=Card.parse(c)))
    need = game.needs()
    assert need is not None and need.hidden and need.target == "dealer"
    hole_events = game.apply(DealCard(card=Card.parse("7c")))
    assert not any(isinstance(e, CardShown) for e in hole_events)
    assert "7c" not in json.dumps(game.view(0)) and "7c" not in json.dumps(game.view(None))
    reveal = game.apply(Decide(seat=0, decision="stand"))
    assert CardShown(card=Card.parse("7c"), hand="dealer") in reveal
