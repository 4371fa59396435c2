"""Ultimate Texas Hold'em best play, exact: the shipped figure, the enumeration's cells."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import games.holdem as he
from games.holdem import uth_exact as ux
from games.holdem.strategy import uth_preflop
from games.poker.batch import categories, rank_batch
from games.poker.category import Category

UTH = next(v for v in he.VARIANTS if v.id == "ultimate-texas-holdem")
DATA = Path(__file__).resolve().parents[2] / "data" / "holdem"
PUBLISHED = json.loads((DATA / "published.json").read_text())


def test_house_edge_ships_both_uth_figures_exact() -> None:
    """Issue 14 point 11: the Trips edge is the count (games.holdem.trips), exact."""
    edges = he.house_edge(UTH)
    assert edges["trips"].exact and edges["trips"].edge == Fraction(233985, 6689228)
    assert "never folds" in edges["trips"].note


def test_ante_edge_is_exact_best_play() -> None:
    """The ante+blind figure is best play from exact decision values (published 2.185%)."""
    edge = he.house_edge(UTH)["ante"]
    best, data = ux.packaged_result()
    assert edge.exact and edge.edge == best.edge == Fraction(data["edge"])
    assert abs(float(edge.edge) - PUBLISHED["uth_best_edge_exact"]) < 0.00005
    assert len(best.checks) == len(ux.flop_classes()) == 1755
    assert sum(w for _, w in ux.flop_classes()) == 22100


def test_shipped_sums_are_reproduced_on_some_flop_classes() -> None:
    """The shipped per-flop-class check sums come back from the enumeration (three classes:
    a trips flop, a two-tone one, a rainbow one)."""
    best, _ = ux.packaged_result()
    classes = ux.flop_classes()
    for i in (0, 700, 1754):
        flop, _ = classes[i]
        assert ux.flop_sums(UTH.rules, flop).check == best.checks[i], flop


def _brute(hole: list[int], board: list[int], k: int) -> int:
    """Bet ``k`` antes summed over the 990 dealer hands, in half-antes, the plain way."""
    left = [c for c in range(52) if c not in hole + board]
    dealers = np.array(list(itertools.combinations(left, 2)))
    d = rank_batch(np.concatenate([dealers, np.broadcast_to(board, (990, 5))], axis=1))
    p = int(rank_batch(np.array([hole + board]))[0])
    ratio = UTH.rules.blind.get(Category(int(categories(np.array([p]))[0])))
    blind = Fraction(ratio.num, ratio.den) if ratio else Fraction(0)
    total = Fraction(0)
    for x in d.tolist():
        opens = 1 if x >= UTH.rules.qualifier else 0
        total += k + opens + blind if p > x else -(k + opens + 1) if p < x else 0
    assert (2 * total).denominator == 1
    return int(2 * total)


@pytest.mark.parametrize("flop", [(0, 1, 2), (4, 17, 30), (48, 49, 50), (8, 9, 40)])
def test_river_terms_against_a_plain_enumeration(flop: tuple[int, int, int]) -> None:
    """``k * A + B`` of a cell is bet ``k`` over the dealer's 990 hands, counted one by one."""
    lay = ux._layout()
    rest, a_k, b_0 = ux.river_terms(UTH.rules, flop)
    rng = np.random.default_rng(sum(flop))
    cells = zip(rng.integers(0, 1176, 3).tolist(), rng.integers(0, 1081, 3).tolist(), strict=True)
    for t, k in cells:
        board = [*flop, *rest[lay.pairs[t]].tolist()]
        hole = rest[lay.pairs[lay.player[t, k]]].tolist()
        for bet in (1, 4):
            assert _brute(hole, board, bet) == bet * a_k[t, k] + b_0[t, k], (board, hole)


def test_best_play_bets_4x_with_the_documented_hands() -> None:
    """Best play's preflop 4x hands are the documented strategy's list exactly (69 of the
    169 hole classes: 33+, any ace, any suited king, K-5+, Q-6+ suited, Q-8+, J-8+ suited,
    J-T), so the scripted player's preflop decision is best play."""
    best, _ = ux.packaged_result()
    reps: dict[int, list[int]] = {}
    for a, b in itertools.combinations(range(52), 2):
        reps.setdefault(int(ux.hole_class(np.array([[a, b]]))[0]), [a, b])
    documented = {k for k, hole in reps.items() if uth_preflop(np.array([hole]))[0]}
    assert len(reps) == ux.HOLE_CLASSES
    assert set(best.bet4_classes()) == documented and len(documented) == 69


@pytest.mark.parametrize("index", [0, 1754])
def test_best_play_never_folds_a_hand_rule_6_pays_otherwise(index: int) -> None:
    """004, game rule 6 ("If a player chooses to fold the hand and the community cards have
    3 of a kind or higher, the trips wager will be paid the appropriate payout"): best play
    folds no hand whose seven cards and board alone would pay Trips differently, so the
    never-fold count is its exact Trips edge (two flop classes here, a trips flop and a
    rainbow one; all 1,755 in bench/results/uth_trips_folds.md)."""
    flop, _ = ux.flop_classes()[index]
    assert ux.trips_fold_changes(UTH.rules, flop) == 0
