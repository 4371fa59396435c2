"""Pinnacle Hold'em best play: the strategy against a brute-force call EV and the published edge.

The brute force here is independent of :mod:`games.holdem.exact` (the code that
built the strategy's table): it deals every turn/river pair and every dealer
pair (1,081 x 990 rows), scores the dealer's qualification from the hand
category and the paired rank (a pair of 4s or better, the page), and pays the
ante by the published Casino Hold'em table (royal 100, straight flush 20, quads
10, full house 3, flush 2, anything else 1; call 1:1, tables from
shared/rules/README.md gap 2), written out below rather than read from the
code under test.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import games.holdem as he
from games.core.cards import parse_cards
from games.holdem.calltable import (
    SuitPattern,
    fingerprint,
    packaged_table,
    representative,
    split,
    table_keys,
)
from games.holdem.exact import call_ev, call_total
from games.holdem.strategy import casino_call
from games.poker.batch import categories, combinations_array, rank_batch

DATA = Path(__file__).resolve().parents[2] / "data" / "holdem"
PUBLISHED = json.loads((DATA / "published.json").read_text())
PINNACLE = next(v for v in he.VARIANTS if v.id == "pinnacle-holdem")
#: the published ante table by category number (high card 0 .. royal 9)
ANTE_PAYS = (1, 1, 1, 1, 1, 2, 3, 10, 20, 100)
CALL = 2


def _pair_rank(seven: np.ndarray) -> np.ndarray:
    """The highest rank held at least twice in each row (0 if none)."""
    ranks = seven // 4 + 2
    counts = np.stack([(ranks == r).sum(axis=1) for r in range(15)], axis=1)
    paired = counts >= 2
    return np.where(paired.any(axis=1), 14 - np.argmax(paired[:, ::-1], axis=1), 0)


def brute_call_ev(text_hole: str, text_flop: str) -> Fraction:
    """Expected net of calling, per ante, over all 1,070,190 completions."""
    hole = [c.index for c in parse_cards(text_hole)]
    flop = [c.index for c in parse_cards(text_flop)]
    unseen = np.array([c for c in range(52) if c not in hole + flop], dtype=np.int64)
    total = 0
    for tr in combinations_array(47, 2).tolist():
        board = np.array([*flop, int(unseen[tr[0]]), int(unseen[tr[1]])], dtype=np.int64)
        rest = np.delete(unseen, tr)
        dealer_pairs = rest[combinations_array(45, 2).astype(np.int64)]
        dealer = np.concatenate([np.broadcast_to(board, (990, 5)), dealer_pairs], axis=1)
        mine = np.array([hole + board.tolist()], dtype=np.int64)
        p = int(rank_batch(mine)[0])
        ante = ANTE_PAYS[int(categories(np.array([p]))[0])]
        d = rank_batch(dealer, validate=False)
        dcat = categories(d)
        qualifies = (dcat >= 2) | ((dcat == 1) & (_pair_rank(dealer) >= 4))
        win, lose = (d < p) & qualifies, (d > p) & qualifies
        total += int((~qualifies).sum()) * ante + int(win.sum()) * (ante + CALL)
        total -= int(lose.sum()) * (1 + CALL)
    return Fraction(total, 1081 * 990)


def _decide(text_hole: str, text_flop: str) -> bool:
    hole = np.array([[c.index for c in parse_cards(text_hole)]], dtype=np.int64)
    flop = np.array([[c.index for c in parse_cards(text_flop)]], dtype=np.int64)
    return bool(casino_call(hole, flop)[0])


#: (hole, flop, what the old "hole card ten or higher" rule did): three obvious
#: situations and eight within 0.03 of an ante of the fold line, one or more per
#: suit pattern; the right answer comes from :func:`brute_call_ev`
SITUATIONS = [
    ("As Ad", "Ac Kd 2h"),  # trip aces: an obvious call
    ("7c 2d", "Ks Qh 9d"),  # seven high under three high cards: an obvious fold
    ("Ah Kd", "7c 4s 2h"),  # ace-king over a low board: a clear call
    ("Qs 2c", "4s Jc 5h"),  # rainbow, close: fold (the old rule called any queen)
    ("9s 4h", "Qd Tc Qs"),  # rainbow, paired board, close: call
    ("Jc 4c", "7s Ts 2h"),  # two-tone flop, close: call
    ("Td 7h", "Ac Ks 5c"),  # two-tone flop, close: fold (the old rule called any ten)
    ("As 2d", "4c 9c Qc"),  # monotone flop, close: call
    ("8d 5d", "9s Ts 3d"),  # suited hole cards and one flop card of the suit, close: call
    ("5s 9d", "Th 6d Jd"),  # the high hole card and two flop cards of its suit, close: fold
    ("4c Th", "7c Ac 6s"),  # the low hole card and two flop cards of its suit, close: call
]


@pytest.mark.slow
@pytest.mark.parametrize(("hole", "flop"), SITUATIONS)
def test_strategy_makes_the_brute_force_best_decision(hole: str, flop: str) -> None:
    ev = brute_call_ev(hole, flop)
    assert _decide(hole, flop) == (ev >= -1), float(ev)
    if hole in ("As Ad", "7c 2d", "Qs 2c"):  # the four-card-set enumeration agrees exactly
        cards = [c.index for c in parse_cards(f"{hole} {flop}")]
        assert call_ev(PINNACLE.rules, cards[:2], cards[2:]) == ev


def test_obvious_decisions_need_no_enumeration() -> None:
    # quads and a made flush call, whatever the table says; a hand with nothing
    # and only low cards under a high flop folds
    assert _decide("9h 9d", "9s 9c 2h")
    assert _decide("Ah 3h", "Kh 8h 4h")
    assert not _decide("3c 2d", "Ks Jh 8d")


def test_table_is_built_for_the_packaged_rules_and_matches_exact_totals() -> None:
    table = packaged_table()
    assert table.rules == fingerprint(PINNACLE.rules)
    keys = table_keys()
    assert len(keys) == 22_308  # 78 hole-rank pairs x 286 flop multisets of the 11 other ranks
    rng = np.random.default_rng(3)
    for key in keys[rng.choice(len(keys), 5, replace=False)].tolist():
        hole, flop = representative(tuple(key))
        code, pattern = split(np.array([hole]), np.array([flop]))
        assert int(pattern[0]) == SuitPattern.RAINBOW
        total, den = call_total(PINNACLE.rules, hole, flop)
        assert int(table.totals[code[0]]) == total and den == 1


@pytest.mark.parametrize(
    ("hole", "flop", "pattern"),
    [
        ("Ah 7d", "Kc 8s 2h", SuitPattern.RAINBOW),
        ("Ah 7d", "Kc 8c 2s", SuitPattern.TWO_TONE),
        ("Ah 7d", "Kc 8c 2c", SuitPattern.MONOTONE),
        ("Ah 7h", "Kh 8c 2s", SuitPattern.SUITED3),
        ("Ah 7d", "Kh 8h 2s", SuitPattern.HIGH3),
        ("7d Ah", "Kd 8d 2s", SuitPattern.LOW3),
        ("Ah 7h", "Kc 8s 2d", SuitPattern.RAINBOW),
    ],
)
def test_suit_patterns(hole: str, flop: str, pattern: SuitPattern) -> None:
    h = np.array([[c.index for c in parse_cards(hole)]])
    f = np.array([[c.index for c in parse_cards(flop)]])
    assert int(split(h, f)[1][0]) == pattern


def test_simulated_edge_contains_the_published_best_play_figure() -> None:
    sim = he.simulate(PINNACLE, 3_000_000, 5).bets["ante"]
    published = PUBLISHED["casino_holdem_best_edge"]
    assert sim.ci_low < -published < sim.ci_high
    # and it excludes the old rule's 3.05% (a hole card ten or higher, any four-straight)
    assert sim.ci_low > -0.0305


def test_call_ev_refuses_bad_cards() -> None:
    with pytest.raises(ValueError, match="distinct"):
        call_ev(PINNACLE.rules, [0, 0], [1, 2, 3])
    uth = next(v for v in he.VARIANTS if v.id == "ultimate-texas-holdem")
    with pytest.raises(ValueError, match="casino"):
        call_ev(uth.rules, [0, 1], [2, 3, 4])
