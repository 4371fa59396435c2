"""The full 52-card analysis (all 2,598,960 deals x 32 holds) against the published returns.

Slow (about 15 s of CPU for the three tables; the suit classes and hand classes are
built once per session): Jacks or Better 9/6 99.5439% and 8/5 97.2984%, Full Pay Deuces
Wild 100.7620% (the Wizard of Odds' figures, 4,000 coins for a five-coin royal), and the
best-hold table agreeing with the single-hand advice; Mystery Bonus over a reel.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from games.core.cards import Card
from games.video_poker.analyser import DEALS, DRAW_LCM, analyse, suit_classes
from games.video_poker.exact import table_return
from games.video_poker.holds import best_hold
from games.video_poker.mystery import ReelStop, mystery_return, stop_table
from games.video_poker.pays import (
    DEUCES_WILD_FULL_PAY,
    JACKS_OR_BETTER_8_5,
    JACKS_OR_BETTER_9_6,
    PayTable,
)
from kiosk_ui.cli import main

pytestmark = pytest.mark.slow


def test_suit_classes_cover_every_deal_once() -> None:
    hands, weights = suit_classes()
    assert hands.shape == (134_459, 5)
    assert int(weights.sum()) == DEALS
    assert set(np.unique(weights).tolist()) <= {4, 6, 12, 24}


@pytest.mark.parametrize(
    ("table", "published"),
    [
        (JACKS_OR_BETTER_9_6, "0.995439"),
        (JACKS_OR_BETTER_8_5, "0.972984"),
        (DEUCES_WILD_FULL_PAY, "1.007620"),
    ],
)
def test_return_under_best_holds_is_the_published_one(table: PayTable, published: str) -> None:
    got = table_return(table, 5)
    assert isinstance(got, Fraction)
    assert f"{float(got):.6f}" == published


def test_nine_six_line_probabilities_sum_to_one_and_give_the_return() -> None:
    a = analyse(JACKS_OR_BETTER_9_6, 5)
    p = a.probabilities()
    assert sum(p.values()) == 1
    pays = dict(zip(JACKS_OR_BETTER_9_6.keys, JACKS_OR_BETTER_9_6.pays(5), strict=True))
    assert sum(p[k] * pays[k] for k in pays) / 5 == a.expected_return
    assert f"{float(p['royal_flush']):.9f}" == "0.000024758"  # Wizard of Odds: 1 in 40,391


def test_best_hold_table_agrees_with_the_single_hand_advice() -> None:
    a = analyse(JACKS_OR_BETTER_9_6, 5)
    pick = np.random.default_rng(16).choice(a.hands.shape[0], 300, replace=False)
    for i in pick:
        cards = [Card.from_index(int(c)) for c in a.hands[i]]
        mask, value = best_hold(cards, JACKS_OR_BETTER_9_6, 5)
        assert mask == int(a.best[i])
        assert value == Fraction(int(a.value[i]), DRAW_LCM)


def five(per_coin: int) -> tuple[int, ...]:
    return tuple(per_coin * n for n in range(1, 6))


def test_mystery_return_is_the_weighted_mean_of_each_stops_best_play() -> None:
    base = JACKS_OR_BETTER_9_6
    same = ReelStop("two pair pays 2", 3, "two_pair", {"two_pair": five(2)})
    aces = ReelStop("four aces pay 400", 1, "four_aces", {"four_aces": five(400)})
    got = mystery_return(base, [same, aces], 5)
    assert got.per_stop[0] == table_return(base, 5)  # a stop that changes nothing
    assert got.expected_return == (3 * got.per_stop[0] + got.per_stop[1]) / 4
    # the four-aces stop re-optimises holds: keeping the base table's holds returns less
    raised = stop_table(base, aces)
    fixed = analyse(raised, 5, holds=analyse(base, 5).best).expected_return
    assert fixed < got.per_stop[1]
    assert got.per_stop[1] - fixed > Fraction(1, 10**4)


def test_reel_stops_refuse_bad_data() -> None:
    with pytest.raises(ValueError, match="positive weight"):
        mystery_return(JACKS_OR_BETTER_9_6, [ReelStop("x", 0, "flush", {"flush": five(7)})], 5)
    with pytest.raises(ValueError, match="gives no pays"):
        stop_table(JACKS_OR_BETTER_9_6, ReelStop("x", 1, "flush", {"straight": five(7)}))


@pytest.mark.parametrize(
    ("game", "decimal"), [("video-poker-jacks", "0.004561"), ("video-poker-mystery", "0.004831")]
)
def test_house_edge_prints_the_draw_machines_exact_returns(
    capsys: pytest.CaptureFixture[str], game: str, decimal: str
) -> None:
    assert main(["games", "house-edge", game, "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["bets"]["main"]
    assert row["exact"] and row["kind"] == "exact"
    assert f"{float(Fraction(row['house_edge'])):.6f}" == decimal


def test_best_hold_table_reads_as_cards_kept() -> None:
    rows = {deal: (kept, n, v) for deal, kept, n, v in analyse(JACKS_OR_BETTER_9_6, 5).table_rows()}
    assert len(rows) == 134_459
    assert sum(n for _, n, _ in rows.values()) == DEALS
    royal = next(k for k in rows if k.endswith("Tc Jc Qc Kc Ac"))  # the class of any royal
    assert rows[royal] == ("Tc Jc Qc Kc Ac", 4, Fraction(4000))
