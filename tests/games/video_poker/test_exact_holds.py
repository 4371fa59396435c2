"""Video poker hold values: the subset-count method against plain enumeration of draws.

Fast tests (a few seconds): the class counts of all 2,598,960 hands against the
published tables, the subset counts' totals, sampled deals' 32 hold values equal to
enumerating every draw, the tie rule and the bad inputs.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from games.core.cards import DECK, Card, parse_cards
from games.poker.errors import InvalidHand
from games.video_poker.analyser import HOLD_ORDER, all_hands, hand_classes, subset_counts
from games.video_poker.brute import enumerate_hold_values
from games.video_poker.classes import DEUCES, NATURAL
from games.video_poker.holds import best_hold, held, hold_values
from games.video_poker.pays import (
    DEUCES_WILD_FULL_PAY,
    JACKS_OR_BETTER_9_6,
    PayLine,
    PayTable,
)

# the 5-card hand counts everyone publishes (natural; and with the four deuces wild)
NATURAL_COUNTS = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "nothing": 1302540,
}
DEUCES_COUNTS = {
    "natural_royal_flush": 4,
    "four_deuces": 48,
    "wild_royal_flush": 480,
    "five_of_a_kind": 624,
    "straight_flush": 2068,
    "four_of_a_kind": 31552,
    "full_house": 12672,
    "flush": 14472,
    "straight": 62232,
    "three_of_a_kind": 355080,
    "nothing": 2119728,
}


def test_natural_class_counts_are_the_published_ones() -> None:
    got = np.bincount(hand_classes("none"), minlength=len(NATURAL.names))
    grouped: dict[str, int] = {}
    for name, n in zip(NATURAL.names, got, strict=True):
        key = name.split("_")[0] if name.startswith(("pair_", "four_")) else name
        grouped[key] = grouped.get(key, 0) + int(n)
    assert grouped == NATURAL_COUNTS
    assert len(set(got[NATURAL.id("pair_2") : NATURAL.id("pair_A") + 1])) == 1  # 84,480 each


def test_deuces_wild_class_counts_are_the_published_ones() -> None:
    got = np.bincount(hand_classes("deuces"), minlength=len(DEUCES.names))
    assert dict(zip(DEUCES.names, got.tolist(), strict=True)) == DEUCES_COUNTS


def test_subset_rows_count_every_hand_containing_the_subset() -> None:
    counts = subset_counts("none", JACKS_OR_BETTER_9_6.keys)
    for k, rows in enumerate(counts.rows):
        assert rows.shape[0] == comb(52, k)
        assert set(rows.sum(axis=1).tolist()) == {comb(52 - k, 5 - k)}
    assert all_hands().shape == (comb(52, 5), 5)


def _deals(seed: int, n: int) -> list[list[Card]]:
    rnd = random.Random(seed)
    return [rnd.sample(DECK[:52], 5) for _ in range(n)]


@pytest.mark.parametrize(
    ("table", "deal"),
    [
        (JACKS_OR_BETTER_9_6, parse_cards("Ah Kh Qh Jh 3c")),
        (JACKS_OR_BETTER_9_6, parse_cards("Jh Jd 4c 7s 9h")),
        (JACKS_OR_BETTER_9_6, _deals(16, 1)[0]),
        (DEUCES_WILD_FULL_PAY, parse_cards("2h 2d Kc Qc 9c")),
        (DEUCES_WILD_FULL_PAY, _deals(17, 1)[0]),
    ],
)
def test_all_32_hold_values_equal_enumerating_every_draw(table: PayTable, deal: list[Card]) -> None:
    want = enumerate_hold_values([c.index for c in deal], table, 5)
    got = hold_values(deal, table, 5)
    assert {m: got[m] for m in range(32)} == want


def test_sampled_deals_partial_holds_equal_enumeration() -> None:
    """Twenty random deals, every hold keeping 2 to 5 cards (the cheap ones to enumerate)."""
    masks = [m for m in range(32) if len(held(m)) >= 2]
    for deal in _deals(2026, 20):
        want = enumerate_hold_values([c.index for c in deal], JACKS_OR_BETTER_9_6, 1, masks)
        got = hold_values(deal, JACKS_OR_BETTER_9_6, 1)
        assert {m: got[m] for m in masks} == want


def test_best_hold_is_the_greatest_value_and_follows_dealt_order() -> None:
    deal = parse_cards("3c Qh Jh Ah Kh")
    mask, value = best_hold(deal, JACKS_OR_BETTER_9_6, 5)
    assert held(mask) == (1, 2, 3, 4)
    assert value == max(hold_values(deal, JACKS_OR_BETTER_9_6, 5))
    # four to a royal beats the made pair of jacks
    assert best_hold(parse_cards("As Ks Qs Js Jd"), JACKS_OR_BETTER_9_6, 1)[0] == 0b01111
    assert best_hold(parse_cards("As Ks Qs Js Ts"), JACKS_OR_BETTER_9_6, 5) == (31, Fraction(4000))


def test_tie_rule_keeps_more_cards_then_earlier_positions() -> None:
    nothing_pays = PayTable("zero", "none", (PayLine("royal_flush", (0,)),))
    assert best_hold(parse_cards("2c 7d 9h Js 4c"), nothing_pays, 1) == (31, Fraction(0))
    assert HOLD_ORDER[:7] == (31, 15, 23, 27, 29, 30, 7)
    values = hold_values(parse_cards("2c 7d 9h Js 4c"), nothing_pays, 1)
    assert set(values) == {Fraction(0)}


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As Ks Qs Js", "5 cards"),
        ("As Ks Qs Js Js", "same card twice"),
        ("As Ks Qs Js X", "no joker"),
    ],
)
def test_bad_deals_are_refused_clearly(cards: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        hold_values(parse_cards(cards), JACKS_OR_BETTER_9_6, 1)


def test_bad_coins_and_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="bet 1 to 5 coins, not 6"):
        best_hold(parse_cards("As Ks Qs Js Ts"), JACKS_OR_BETTER_9_6, 6)
    with pytest.raises(ValueError, match="unknown line 'four_jokers'"):
        PayTable("x", "none", (PayLine("four_jokers", (1,)),))
    with pytest.raises(ValueError, match="line 'flush' twice"):
        PayTable("x", "none", (PayLine("flush", (1,)), PayLine("flush", (2,))))
    with pytest.raises(ValueError, match="needs 1 pays"):
        PayTable("x", "none", (PayLine("flush", (1,)), PayLine("straight", (2, 3))))
    with pytest.raises(ValueError, match="no line"):
        JACKS_OR_BETTER_9_6.with_pays({"five_of_a_kind": 3})
