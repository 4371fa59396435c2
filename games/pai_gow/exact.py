"""Exact odds of the bonus bets: every seven-card hand of the 53-card deck, counted.

A bonus depends only on the player's seven cards, so its return is a sum over
the C(53, 7) = 154,143,080 hands. They are counted by their best-five category
in two parts:

* the 133,784,560 hands without the joker, evaluated one by one by the shared
  batch evaluator (:func:`games.poker.batch.exhaustive_counts7`);
* the 20,358,520 hands with it (a six-card set and the joker), classified with
  NumPy (:func:`games.pai_gow.classify.best_five`, the simulator's classifier too)
  from each set's rank counts and rank and suit bit masks: the joker
  adds one to the aces (ace-or-filler) or to the largest rank group (wild), and
  completes a straight, flush or straight flush wherever four of its five cards
  are held.

The few hands a table pays apart (seven-card straight flushes, a royal flush
with a pair of 2s) are listed one by one and moved out of the category their
best five fall in. Returns are exact fractions; the Bonus Pai Gow payout cap is
applied per stake (:func:`side_return`).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np

from games.core.cards import JOKER, Card
from games.pai_gow.bonus import CATEGORY_HAND, best_five_hand, bonus_hands
from games.pai_gow.classify import BEST_FIVE, best_five
from games.pai_gow.rules import SideBet
from games.poker.batch import combinations_array, exhaustive_counts7
from games.poker.category import Category
from games.poker.pai_gow_joker import JokerRule

TOTAL = comb(53, 7)
#: classification codes, worst to best (the best five's kinds)
CODES = BEST_FIVE
#: a straight that also holds three of a kind (trips pay more than a straight on page 003)
STRAIGHT_TRIPS = "straight+three-of-a-kind"
CHUNK = 1 << 20


@functools.cache
def joker_hand_counts(joker: JokerRule) -> dict[str, int]:
    """Best-five classification counts of the C(52, 6) hands holding the joker."""
    sixes = combinations_array(52, 6)
    hist = np.zeros(len(CODES), dtype=np.int64)
    for start in range(0, len(sixes), CHUNK):
        block = sixes[start : start + CHUNK].astype(np.int64)
        n = len(block)
        r = block >> 2
        rows = np.arange(n, dtype=np.int64)[:, None] * 13
        counts = np.bincount((rows + r).ravel(), minlength=n * 13).reshape(n, 13)
        with_joker = np.ones(n, dtype=np.int64)
        shape = best_five(np.int64(1) << r, block & 3, counts, with_joker, joker)
        hist += np.bincount(shape.code, minlength=len(CODES))
    return {name: int(hist[i]) for i, name in enumerate(CODES)}


def plain_straight_trips() -> int:
    """Seven cards without the joker whose best five are a straight (not a flush) while
    they also hold three of a kind: ranks 3-1-1-1-1 on one straight's five ranks,
    every suit assignment listed and the flushes left out."""
    n = 0
    for low in range(1, 11):
        window = [14 if r == 1 else r for r in range(low, low + 5)]
        for _trip_rank in window:
            for trip_suits in combinations(range(4), 3):
                for singles in np.ndindex(4, 4, 4, 4):
                    flush = len(set(singles)) == 1 and singles[0] in trip_suits
                    n += not flush
    return n


@functools.cache
def plain_hand_counts() -> dict[str, int]:
    """Best-five classification counts of the C(52, 7) hands without the joker."""
    names = {**CATEGORY_HAND, Category.TWO_PAIR: "two-pair", Category.PAIR: "pair"}
    names[Category.HIGH_CARD] = "high-card"
    out = dict.fromkeys(CODES, 0)
    for cat, n in exhaustive_counts7().items():
        if n:
            out[names[cat]] += n
    both = plain_straight_trips()
    out["straight"] -= both
    out[STRAIGHT_TRIPS] += both
    return out


def special_hands(joker: JokerRule) -> dict[str, list[tuple[Card, ...]]]:
    """Every seven-card hand of the rarely paid kinds, listed."""
    out: dict[str, list[tuple[Card, ...]]] = {
        "seven-card-straight-flush": [],
        "seven-card-straight-flush-joker": [],
        "royal-flush-deuces": [],
    }
    for suit in range(4):
        suited = [Card.from_index(r * 4 + suit) for r in range(13)]
        for seven in combinations(suited, 7):
            if "seven-card-straight-flush" in bonus_hands(seven, joker):
                out["seven-card-straight-flush"].append(seven)
        for six in combinations(suited, 6):
            hand = (*six, JOKER)
            if "seven-card-straight-flush-joker" in bonus_hands(hand, joker):
                out["seven-card-straight-flush-joker"].append(hand)
    deuces = [Card.from_index(i) for i in range(4)]
    tens_up = [Card.from_index(i) for i in range(32, 52)]
    for pair in combinations(deuces, 2):
        for five in combinations([*tens_up, JOKER], 5):
            hand = (*pair, *five)
            if best_five_hand(five, joker) == "royal-flush":
                out["royal-flush-deuces"].append(hand)
    return out


@functools.cache
def hand_counts(joker: JokerRule, specials: tuple[str, ...]) -> dict[str, int]:
    """How many of the 154,143,080 seven-card hands are each kind, with the kinds
    named in ``specials`` counted apart from their best five."""
    plain, wild = plain_hand_counts(), joker_hand_counts(joker)
    counts = {name: plain[name] + wild[name] for name in CODES}
    for name, hands in special_hands(joker).items():
        if name not in specials:
            continue
        counts[name] = len(hands)
        for hand in hands:
            best = best_five_hand(hand, joker)
            assert best is not None
            counts[best] -= 1
    assert sum(counts.values()) == TOTAL
    return counts


def side_return(side: SideBet, joker: JokerRule, stake: int) -> Fraction:
    """The exact return per unit staked of the side bet on the player's own hand
    (no envy), for a bet of ``stake`` cents (the payout cap depends on it)."""
    specials = tuple(h for h in side.pays if h in _SPECIAL)
    counts = hand_counts(joker, specials)
    total = Fraction(0)
    for name, n in counts.items():
        ratios = [side.pays[h] for h in name.split("+") if h in side.pays]
        if not ratios:
            total -= n * stake
            continue
        win = max(Fraction(stake * r.num, r.den) for r in ratios)
        if side.payout_cap and win > side.payout_cap:
            win = Fraction(side.payout_cap)
        total += n * win
    return total / (TOTAL * stake)


def envy_per_seat(side: SideBet, joker: JokerRule) -> Fraction:
    """Expected Envy (cents) one other seat's hand pays an eligible bet (linearity:
    another seat's seven cards are distributed like any seven cards)."""
    specials = tuple(h for h in side.envy if h in _SPECIAL)
    counts = hand_counts(joker, specials)
    return Fraction(sum(counts.get(h, 0) * amount for h, amount in side.envy.items()), TOTAL)


_SPECIAL = ("seven-card-straight-flush", "seven-card-straight-flush-joker", "royal-flush-deuces")
