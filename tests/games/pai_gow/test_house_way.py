"""The house way against the hand table written from the published rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core.cards import deck, parse_cards
from games.pai_gow.hands import foul_reason, high_key, low_key
from games.pai_gow.house_way import RULES, house_way_keys, house_way_rule
from games.poker.pai_gow_joker import JokerRule


def test_table_has_enough_hands_and_both_page_examples(house_way_table: dict[str, Any]) -> None:
    hands = house_way_table["hand"]
    assert len(hands) >= 50
    cards = {h["cards"] for h in hands}
    assert "Kd Th 4c 5s X 7d 8h" in cards  # joker completes a straight behind (page 000)
    assert "X Jd 8c 8h 6s 3d 2c" in cards  # joker to the front as an ace (page 000)
    assert {h["rule"] for h in hands} >= set(RULES)  # every rule is exercised


def test_every_hand_is_set_as_the_table_says(house_way_table: dict[str, Any]) -> None:
    wrong = []
    for h in house_way_table["hand"]:
        joker = JokerRule(h.get("joker", "ace-or-filler"))
        setting, rule = house_way_rule(parse_cards(h["cards"]), joker)
        low = sorted(c.rank.char for c in setting.low)
        if low != sorted(h["low"].split()) or rule != h["rule"]:
            wrong.append(
                f"{h['cards']}: expected {h['low']} by {h['rule']}, got {setting} by {rule}"
            )
        assert foul_reason(setting, joker) is None
        assert sorted(setting.cards) == sorted(parse_cards(h["cards"]))
    assert not wrong, "\n".join(wrong)


def test_joker_goes_behind_for_the_straight_and_in_front_as_an_ace() -> None:
    straight, _ = house_way_rule(parse_cards("Kd Th 4c 5s X 7d 8h"))
    assert any(c.is_joker for c in straight.high)
    front, _ = house_way_rule(parse_cards("X Jd 8c 8h 6s 3d 2c"))
    assert any(c.is_joker for c in front.low)


@pytest.mark.parametrize("joker", list(JokerRule))
def test_house_way_is_always_legal_and_memoised_keys_agree(joker: JokerRule) -> None:
    rng = random.Random(5)
    cards = list(deck(1))
    for _ in range(1500):
        hand = rng.sample(cards, 7)
        setting, rule = house_way_rule(hand, joker)
        assert rule in RULES
        assert foul_reason(setting, joker) is None
        keys = (low_key(setting.low, joker), high_key(setting.high, joker))
        assert house_way_keys(hand, joker) == keys


def test_refuses_anything_but_seven_distinct_cards() -> None:
    with pytest.raises(ValueError, match="seven distinct"):
        house_way_rule(parse_cards("As Kd 9h 7c 5s 4d"))
