"""European Slot Poker's exact first hand and double-up, against card-by-card enumeration.

The symbol-multiset analysis (games/video_poker/slot_exact.py) is checked on a small
deck of distinct cards where every deal, every hold by position and every draw can be
enumerated; the double-up's recursion against hand-worked values.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from games.video_poker import fruit, hands
from games.video_poker.double_up_exact import best_value, step
from games.video_poker.exact import slot_figures, slot_house_edges
from games.video_poker.rules import SYMBOLS, load_packaged
from games.video_poker.slot_bonus import cherry_share, fruit_share, hands_to_collect
from games.video_poker.slot_exact import best_symbol_hold, first_hand
from kiosk_ui.cli import main


def fruit_line(jokers: int, groups: tuple[int, ...]) -> str | None:
    """The machine's reading (games/video_poker/hands.py fruit_line), restated for the test."""
    first = (groups[0] if groups else 0) + jokers
    second = groups[1] if len(groups) > 1 else 0
    if first >= 5:
        return "five"
    if first == 4:
        return "four"
    if first == 3 and second == 2:
        return "full"
    if first == 3:
        return "three"
    return None


DECK = {"joker": 2, "bell": 3, "plum": 4, "cherry": 3}  # 12 cards
PAYS = {"five": 40, "four": 9, "full": 5, "three": 1}


def _pay(symbols: tuple[str, ...]) -> int:
    jokers = symbols.count("joker")
    groups = tuple(sorted(Counter(s for s in symbols if s != "joker").values(), reverse=True))
    line = fruit_line(jokers, groups)
    return PAYS.get(line, 0) if line else 0


def test_first_hand_equals_enumerating_every_card_deal_hold_and_draw() -> None:
    cards = [s for s, n in DECK.items() for _ in range(n)]
    total = Fraction(0)
    deals = list(itertools.combinations(range(len(cards)), 5))
    for deal in deals:
        rest = [c for c in range(len(cards)) if c not in deal]
        best = Fraction(-1)
        for k in range(6):
            for kept in itertools.combinations(deal, k):
                draws = list(itertools.combinations(rest, 5 - k))
                finals = [tuple(cards[c] for c in (*kept, *d)) for d in draws]
                best = max(best, Fraction(sum(_pay(f) for f in finals), len(draws)))
        total += best
    got = first_hand(DECK, PAYS, fruit_line, ("plum", "cherry"))
    assert got.expected_pay == total / comb(len(cards), 5)
    assert sum(got.lines.values()) == 1
    assert got.expected_pay == sum(p * PAYS.get(line, 0) for line, p in got.lines.items())
    assert 0 < got.cherry_hit < 1


def test_bonus_chances_follow_the_best_holds() -> None:
    deck = {"joker": 1, "plum": 20, "cherry": 20}
    got = first_hand(deck, {"five": 10, "four": 4, "three": 1}, fruit_line, ("plum", "cherry"))
    # two symbols only: every final hand has 3+ of one of them, so some line always pays
    assert "nothing" not in got.lines
    # one joker: four of a kind is exactly four plums or four cherries, the joker counting
    assert got.collect["plum"] + got.collect["cherry"] == got.lines["four"] + got.lines["five"]
    assert got.cherry_hit > Fraction(1, 2)


def test_double_up_step_odds_and_the_joker_in_both_sets() -> None:
    high, low = {"joker", "bell"}, {"joker", "bar"}
    s = step({"joker": 1, "bell": 5, "bar": 5}, high, low)
    assert (s.high, s.low, s.call, s.value) == (
        Fraction(6, 11),
        Fraction(6, 11),
        "high",
        Fraction(12, 11),
    )
    assert step({"joker": 0, "bell": 1, "bar": 3}, high, low).call == "low"
    with pytest.raises(ValueError, match="at least one card"):
        step({"bell": 0}, high, low)


def test_double_up_value_looks_ahead_over_the_cards_taken() -> None:
    deck = {"joker": 1, "bell": 1, "bar": 1}
    high, low = {"joker", "bell"}, {"joker", "bar"}
    assert best_value(deck, high, low, wins=1) == Fraction(4, 3)
    # after the joker: bell or bar, even (collect); after the bell: joker or bar, Low wins
    assert best_value(deck, high, low, wins=2) == 2 * (Fraction(1, 3) * 1 + Fraction(1, 3) * 2)
    assert best_value({"bell": 3, "bar": 3}, {"bell"}, {"bar"}, wins=1) == 1


def test_hands_to_collect_is_the_coupon_collectors_expectation() -> None:
    q = {"plum": Fraction(1, 10), "bell": Fraction(1, 5), "cherry": Fraction(1, 4)}
    sets = {frozenset({f}): p for f, p in q.items()}
    sets[frozenset()] = 1 - sum(q.values())
    fruits = tuple(q)
    want = Fraction(0)
    for size in range(1, 4):  # E[T] = sum over nonempty S of (-1)^(|S|+1) / q(S)
        for s in itertools.combinations(fruits, size):
            want += (-1) ** (size + 1) / sum(q[f] for f in s)
    assert hands_to_collect(sets, fruits) == want
    # a hand collecting two fruits at once counts for both
    assert (
        hands_to_collect({frozenset({"a", "b"}): Fraction(1, 3), frozenset(): Fraction(2, 3)}, "ab")
        == 3
    )
    with pytest.raises(ValueError, match="no hand ever collects"):
        hands_to_collect({frozenset({"a"}): Fraction(1)}, ("a", "b"))


def test_bonus_shares_per_coin() -> None:
    assert cherry_share(Fraction(1, 4), hits=25, bonus=50, coins=2) == Fraction(1, 4)
    assert cherry_share(Fraction(0), hits=25, bonus=50, coins=2) == 0
    sets = {frozenset({"a"}): Fraction(1, 100), frozenset(): Fraction(99, 100)}
    assert fruit_share(sets, ("a",), bonus=20, coins=1) == Fraction(1, 5)


@dataclass(frozen=True)
class Fruit:
    """The shape of the rules' FruitRules, on the small deck."""

    deck: Mapping[str, int]
    high: frozenset[str] = frozenset({"joker", "bell"})
    low: frozenset[str] = frozenset({"joker", "plum", "cherry"})
    fruit_collect: Mapping[str, int] = field(default_factory=lambda: {"plum": 4, "cherry": 4})
    fruit_bonus: tuple[int, ...] = (20, 40)
    cherry_hits: int = 5
    cherry_bonus: tuple[int, ...] = (3, 6)
    double_up_wins: int = 5


def test_slot_figures_add_up_and_become_house_edges() -> None:
    fruit = Fruit(DECK)
    pays = {line: (p, 2 * p) for line, p in PAYS.items()}
    got = slot_figures(fruit, pays, 2, fruit_line)
    assert got.hand_return == first_hand(DECK, PAYS, fruit_line).expected_pay  # 2 coins, 2x pays
    assert got.cherry == cherry_share(got.first.cherry_hit, 5, 6, 2) > 0
    assert got.fruit == fruit_share(got.first.collect_sets, ("plum", "cherry"), 40, 2) > 0
    assert got.double_up == best_value(DECK, fruit.high, fruit.low, 5) > 1
    assert got.with_double_up == got.with_bonuses * got.double_up
    edges = slot_house_edges(got)
    assert set(edges) == {"first-hand", "first-hand-with-bonuses", "double-up"}
    assert edges["first-hand-with-bonuses"].edge == 1 - got.hand_return - got.cherry - got.fruit
    assert edges["double-up"].edge < 0  # the joker in both sets favours the player
    assert all(e.exact for e in edges.values())
    with pytest.raises(ValueError, match="one collect count"):
        slot_figures(Fruit(DECK, fruit_collect={"plum": 4, "cherry": 3}), pays, 1, fruit_line)


def _cli_bets(capsys: pytest.CaptureFixture[str], game: str) -> dict[str, Any]:
    assert main(["games", "house-edge", game, "--json"]) == 0
    bets: dict[str, Any] = json.loads(capsys.readouterr().out)["bets"]
    return bets


def test_house_edge_prints_the_fruit_machines_exact_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = load_packaged("european_slot_poker").rules
    assert rules.fruit is not None
    want = slot_figures(rules.fruit, rules.table(), rules.max_coins, hands.fruit_line)
    bets = _cli_bets(capsys, "video-poker-european-slot")
    assert Fraction(bets["first-hand"]["house_edge"]) == 1 - want.hand_return
    assert Fraction(bets["first-hand-with-bonuses"]["house_edge"]) == 1 - want.with_bonuses
    assert Fraction(bets["double-up"]["house_edge"]) == 1 - want.double_up
    exact = {k: b for k, b in bets.items() if k != "main"}  # main: the simulated long run
    assert all(b["exact"] and b["kind"] == "exact" for b in exact.values())
    assert bets["main"]["kind"] == "simulated"
    assert "fresh" in bets["first-hand"]["note"]  # says what the exact figure is of


def test_fruit_auto_hold_value_equals_the_machines_enumeration() -> None:
    """best_symbol_hold against fruit.best_hold (pure enumeration) on partly used decks."""
    rules = load_packaged("european_slot_poker").rules
    assert rules.fruit is not None
    pays = {line.hand: line.pays[-1] for line in rules.lines}
    rnd = random.Random(141)
    for _ in range(25):
        deck = list(rules.fruit.counts())
        cards = []
        for n in range(rnd.randrange(60) + 5):
            i = rnd.choices(range(len(SYMBOLS)), weights=deck)[0]
            deck[i] -= 1
            if n < 5:
                cards.append(SYMBOLS[i])
        keep, value = best_symbol_hold(cards, deck, pays, SYMBOLS, hands.fruit_line)
        assert value == fruit.best_hold(cards, tuple(deck), pays)[1]
        assert value == fruit.hold_value([cards[i] for i in keep], tuple(deck), pays)
    with pytest.raises(ValueError, match="five cards of"):
        best_symbol_hold(["plum"] * 4, deck, pays, SYMBOLS, hands.fruit_line)
    with pytest.raises(ValueError, match="one count"):
        best_symbol_hold(["plum"] * 5, deck[:-1], pays, SYMBOLS, hands.fruit_line)
