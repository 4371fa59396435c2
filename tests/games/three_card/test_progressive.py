"""The Three Card Poker progressive (page 004): the published table, settled on the deal, exact."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

import games.three_card as tc
from games.core.cards import Card, parse_cards
from games.core.errors import BetRefused
from games.core.records import (
    BetSettled,
    Deal,
    DealCard,
    Decide,
    Event,
    JackpotContribution,
    JackpotWin,
    PlaceBet,
)
from games.three_card.engine import ThreeCardRound
from games.three_card.progressive import COUNTS, ProgressiveHand, hand_of

VARIANTS = {v.id: v for v in tc.VARIANTS}
TCP = VARIANTS["three-card-poker"]


def _dealt(deal: str, *, progressive: bool = True) -> tuple[ThreeCardRound, list[Event]]:
    """One seat with a $10 ante (and the $1 progressive), dealt ``deal`` (seat, dealer, ...)."""
    game = tc.new_game(TCP, 1)
    events = list(game.apply(PlaceBet(seat=0, bet="ante", amount=1000)))
    if progressive:
        events += game.apply(PlaceBet(seat=0, bet="progressive", amount=100))
    events += game.apply(Deal(seat=0))
    for card in parse_cards(deal):
        events += game.apply(DealCard(card=card))
    return game, events


@pytest.mark.parametrize(
    ("deal", "fixed", "share"),
    [
        ("As 2c Ks 7d Qs 9h", 0, 10_000),  # mini royal in spades: the meter
        ("Ah 2c Kh 7d Qh 9s", 50_000, 0),  # another suit's mini royal: $500
        ("9d 2c Td 7h Jd 4s", 10_000, 0),  # straight flush: $100
        ("8c 2c 8d 7h 8h 4s", 5_000, 0),  # three of a kind: $50
    ],
)
def test_page_004_progressive_pays_the_published_table(deal: str, fixed: int, share: int) -> None:
    """004_20f479e9f2752085.txt, "Jackpot:": "There is also a progressive jackpot for 3-card
    poker." The page prints no table: the published 3 Card Poker Progressive Jackpot
    (named in the TOML's source) pays the spade mini royal the meter, another mini royal
    $500, a straight flush $100, three of a kind $50, on a $1 bet feeding the meter."""
    _, events = _dealt(deal)
    wins = [e for e in events if isinstance(e, JackpotWin)]
    assert [(w.fixed, w.share_bp) for w in wins] == [(fixed, share)]
    assert wins[0].meter == "three-card-poker" and TCP.jackpots == {"three-card-poker": 500_000}
    assert [e.amount for e in events if isinstance(e, JackpotContribution)] == [75]
    settled = [e for e in events if isinstance(e, BetSettled) and e.bet == "progressive"]
    assert [(s.stake, s.returned) for s in settled] == [(100, 0)]  # the award comes from the meter


def test_the_progressive_stands_on_a_fold_and_pays_nothing_below_trips() -> None:
    """The source: "each player with a progressive wager has a chance to win a bonus if their
    three card hand is three-of-a-kind or a straight flush": the player's own three cards,
    whatever the dealer holds and whether the player plays."""
    game, events = _dealt("8c 2c 8d 7h 8h 4s")
    events += game.apply(Decide(seat=0, decision="fold"))
    assert game.is_over
    assert sum(isinstance(e, JackpotWin) for e in events) == 1
    game, events = _dealt("Ac 2c Ad 7h Kh 4s")  # a pair: no award
    assert not any(isinstance(e, JackpotWin) for e in events)
    assert [s.note for s in game.settlements if s.bet == "progressive"] == ["pair: no award"]


def test_the_progressive_is_one_dollar_on_an_ante_and_only_at_three_card_poker() -> None:
    game = tc.new_game(TCP, 1)
    with pytest.raises(BetRefused, match="place an ante before the progressive bet"):
        game.apply(PlaceBet(seat=0, bet="progressive", amount=100))
    game.apply(PlaceBet(seat=0, bet="ante", amount=1000))
    with pytest.raises(BetRefused, match=r"exactly \$1\.00"):
        game.apply(PlaceBet(seat=0, bet="progressive", amount=200))
    assert "progressive" not in VARIANTS["tri-card-poker"].rules.bets
    assert VARIANTS["tri-card-poker"].jackpots == {}
    assert "3cardpoker.com/progressive-jackpot" in TCP.source


def test_the_hand_counts_are_the_exhaustive_count() -> None:
    deck = [Card.from_index(i) for i in range(52)]
    counted = Counter(hand_of(list(h)) for h in combinations(deck, 3))
    assert dict(counted) == dict(COUNTS)
    assert set(COUNTS) == set(ProgressiveHand)


def test_the_progressive_edge_is_exact_as_a_function_of_the_meter() -> None:
    """Expected award per $1 = (meter + 3 x $500 + 44 x $100 + 52 x $50) / 22,100."""
    jp = TCP.rules.progressive
    assert jp is not None
    for meter in (0, 500_000, 1_360_000, 2_000_000):
        expected = Fraction(meter + 3 * 50_000 + 44 * 10_000 + 52 * 5_000, 22_100)
        assert jp.expected_award(meter) == expected
        assert jp.return_at(meter) == (expected - 100) / 100
    assert jp.break_even_meter() == 1_360_000
    edge = tc.house_edge(TCP)["progressive"]
    assert edge.exact and edge.edge == Fraction(86, 221)  # 38.91% at the $5,000 reset
    assert "1 - (850,000 + meter) / 2,210,000" in edge.note
    assert "break-even meter $13,600.00" in edge.note
