"""Ultimate Texas Hold'em as page 004 has it: Trips on a fold, the progressive, exact figures."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import games.holdem as he
from games.core.cards import Card, parse_cards
from games.core.errors import BetRefused, PaytableError
from games.core.records import Deal, DealCard, Decide, PlaceBet
from games.holdem.engine import HoldemRound
from games.holdem.rules import loads
from games.holdem.trips import SEVEN_CARD_COUNTS, SEVEN_CARD_HANDS, trips_edge, trips_nets
from games.poker.batch import exhaustive_counts7
from games.poker.category import Category
from games.sim import deal_cards

UTH = next(v for v in he.VARIANTS if v.id == "ultimate-texas-holdem")
TOML = Path(he.__file__).parent / "paytables" / "ultimate-texas-holdem.toml"
DATA = Path(__file__).resolve().parents[2] / "data" / "holdem"
PUBLISHED = json.loads((DATA / "published.json").read_text())


def _round(board: str, hole: str, dealer: str, decisions: list[str]) -> HoldemRound:
    """One seat, $10 ante and blind and $5 trips, the cards in the page's deal order."""
    game = he.new_game(UTH)
    for bet, amount in (("ante", 1000), ("blind", 1000), ("trips", 500)):
        game.apply(PlaceBet(seat=0, bet=bet, amount=amount))
    game.apply(Deal(seat=0))
    for c in parse_cards(f"{board} {hole} {dealer}"):
        game.apply(DealCard(card=c))
    for d in decisions:
        game.apply(Decide(seat=0, decision=d))
    assert game.is_over
    return game


def _trips(game: HoldemRound) -> tuple[int, str]:
    s = next(s for s in game.settlements if s.bet == "trips")
    return s.returned, s.note


def test_folded_trips_is_not_paid_on_the_hole_cards() -> None:
    """004, game rule 6: "If a player chooses to fold the hand and the community cards have
    3 of a kind or higher, the trips wager will be paid the appropriate payout."

    A folded 7h 7d with 7s 7c on the board is four of a kind with the hole cards, but the
    board by itself holds only a pair: the $5 Trips loses (it was paid $155 as quads)."""
    game = _round("7s 7c Kd 4h 2c", "7h 7d", "9s 9c", ["check", "check", "fold"])
    assert _trips(game) == (0, "folded; the board alone has no three of a kind")


def test_folded_trips_is_paid_on_the_board_hand() -> None:
    """004, game rule 6: "... the community cards have 3 of a kind or higher, the trips wager
    will be paid the appropriate payout": on the board's three sevens (3 to 1), not on the
    quads the hole card would make."""
    game = _round("7s 7c 7h Kd 2c", "7d 3s", "9s 9c", ["check", "check", "fold"])
    assert _trips(game) == (2000, "folded; the board has three of a kind pays 3:1")


def test_played_trips_is_scored_on_the_best_five_of_seven() -> None:
    """004, game rule 4: "A player's 'trips' wager will be paid the posted odds if they have
    three of a kind or higher": a played hand's quads pay 30 to 1."""
    game = _round("7s 7c 7h Kd 2c", "7d 3s", "9s 9c", ["check", "check", "bet-1x"])
    assert _trips(game) == (15500, "four of a kind pays 30:1")


def test_engine_trips_agrees_with_the_vectorised_nets() -> None:
    """The engine and :func:`trips_nets` score Trips alike, folded or played."""
    cards = deal_cards(np.random.default_rng(11), 120, 9)
    hole, dealer, board = cards[:, :2], cards[:, 2:4], cards[:, 4:]
    folded = np.arange(len(cards)) % 2 == 0
    # boards with trips or better, so that the folded rows test the board's hand
    board[::3, :3] = [[0, 1, 2]]
    clash = np.isin(hole, [0, 1, 2]).any(axis=1) | np.isin(dealer, [0, 1, 2]).any(axis=1)
    dupe = np.array([len(set(b)) < 5 for b in board.tolist()])
    keep = ~clash & ~dupe
    nets = trips_nets(UTH.rules, hole, board, folded=folded)
    for i in np.flatnonzero(keep).tolist():
        text = " ".join(str(Card.from_index(c)) for c in board[i])
        h = " ".join(str(Card.from_index(c)) for c in hole[i])
        d = " ".join(str(Card.from_index(c)) for c in dealer[i])
        path = ["check", "check", "fold" if folded[i] else "bet-1x"]
        returned, _ = _trips(_round(text, h, d, path))
        assert returned - 500 == round(nets[i] * 500), (text, h, folded[i])


def test_progressive_is_coming_soon_and_off() -> None:
    """004, "Jackpot": "UTH Progressive - Royal Flush wins the progressive. Coming Soon!"

    The progressive is in the variant's data and configured off: no bet spot (not among
    the bets or the limits), and a bet on it is refused saying so."""
    prog = UTH.rules.progressive
    assert prog is not None and not prog.offered
    assert prog.wins_on is Category.ROYAL_FLUSH and prog.status == "Coming Soon"
    assert "progressive" not in UTH.rules.bets and "progressive" not in UTH.limits
    game = he.new_game(UTH)
    game.apply(PlaceBet(seat=0, bet="ante", amount=100))
    with pytest.raises(
        BetRefused, match=r"progressive \(royal flush wins it\) is Coming Soon: not offered"
    ):
        game.apply(PlaceBet(seat=0, bet="progressive", amount=100))
    assert all(a != "progressive" for a in game.legal_actions(0))
    text = TOML.read_text()
    with pytest.raises(PaytableError, match="offered must be false"):
        loads(text.replace("offered = false", "offered = true"))
    assert loads(text.split("\n[progressive]")[0]).rules.progressive is None


def test_trips_edge_is_exact() -> None:
    """004, game rule 4 ("paid the posted odds if they have three of a kind or higher") and
    its table: the exact edge is a count over the seven-card hands (published 3.50%)."""
    edge = trips_edge(UTH.rules)
    assert edge == Fraction(233985, 6689228)
    assert round(float(edge), 4) == PUBLISHED["uth_trips_edge"]
    assert sum(SEVEN_CARD_COUNTS.values()) == SEVEN_CARD_HANDS


@pytest.mark.slow
def test_seven_card_counts_are_the_evaluators() -> None:
    """The pinned counts behind the Trips edge are the shared evaluator's exhaustive count."""
    assert exhaustive_counts7() == dict(SEVEN_CARD_COUNTS) | {Category.FIVE_OF_A_KIND: 0}
