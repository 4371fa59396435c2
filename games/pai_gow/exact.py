"""Exact odds of the bonus bets: every seven-card hand of the 53-card deck, counted.

A bonus depends only on the player's seven cards, so its return is a sum over
the C(53, 7) = 154,143,080 hands. They are counted by their best-five category
in two parts:

* the 133,784,560 hands without the joker, evaluated one by one by the shared
  batch evaluator (:func:`games.poker.batch.exhaustive_counts7`);
* the 20,358,520 hands with it (a six-card set and the joker), classified here
  with NumPy from each set's rank counts and rank and suit bit masks: the joker
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
import numpy.typing as npt

from games.core.cards import JOKER, Card
from games.pai_gow.bonus import CATEGORY_HAND, best_five_hand, bonus_hands
from games.pai_gow.paytable import SideBet
from games.poker.batch import combinations_array, exhaustive_counts7
from games.poker.category import Category
from games.poker.pai_gow_joker import JokerRule

TOTAL = comb(53, 7)
#: classification codes, worst to best
CODES = (
    "high-card",
    "pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
    "royal-flush",
    "five-of-a-kind",
    "five-aces",
    "straight+three-of-a-kind",
)
#: a straight that also holds three of a kind (trips pay more than a straight on page 003)
STRAIGHT_TRIPS = "straight+three-of-a-kind"
_CODE = {name: i for i, name in enumerate(CODES)}
CHUNK = 1 << 20


def _window_tables() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Over 13-bit rank masks (bit 0 = 2, bit 12 = ace): four of some straight's five
    ranks held (ace low counts), and four of ten to ace held."""
    masks = np.arange(1 << 13, dtype=np.int64)
    ext = (masks << 1) | ((masks >> 12) & 1)  # bit 0 = ace low, bits 1..13 = 2..ace
    four = np.zeros(1 << 13, dtype=bool)
    for low in range(10):
        window = (ext >> low) & 0b11111
        four |= _popcount(window) >= 4
    royal = _popcount((masks >> 8) & 0b11111) >= 4
    return four, royal


def _popcount(x: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    out = np.zeros_like(x)
    y = x.copy()
    while y.any():
        out += y & 1
        y >>= 1
    return out


@functools.cache
def joker_hand_counts(joker: JokerRule) -> dict[str, int]:
    """Best-five classification counts of the C(52, 6) hands holding the joker."""
    four, royal = _window_tables()
    sixes = combinations_array(52, 6)
    hist = np.zeros(len(CODES), dtype=np.int64)
    for start in range(0, len(sixes), CHUNK):
        block = sixes[start : start + CHUNK].astype(np.int64)
        n = len(block)
        r, s = block >> 2, block & 3
        rows = np.arange(n, dtype=np.int64)[:, None] * 13
        counts = np.bincount((rows + r).ravel(), minlength=n * 13).reshape(n, 13)
        bits = np.int64(1) << r
        straight = four[np.bitwise_or.reduce(bits, axis=1)]
        flush = np.zeros(n, dtype=bool)
        sflush = np.zeros(n, dtype=bool)
        rflush = np.zeros(n, dtype=bool)
        for suit in range(4):
            in_suit = s == suit
            mask = np.bitwise_or.reduce(np.where(in_suit, bits, 0), axis=1)
            flush |= in_suit.sum(axis=1) >= 4
            sflush |= four[mask]
            rflush |= royal[mask]
        if joker is JokerRule.ACE_OR_FILLER:
            counts[:, 12] += 1
            c1 = counts.max(axis=1)
            five = np.where(c1 == 5, _CODE["five-aces"], -1)
        else:
            c1 = counts.max(axis=1)
            aces = counts[:, 12] == 4
            five = np.where(
                c1 == 4, np.where(aces, _CODE["five-aces"], _CODE["five-of-a-kind"]), -1
            )
            c1 = c1 + 1  # the wild joker joins the largest group
        pairs = (counts >= 2).sum(axis=1)
        if joker is JokerRule.WILD:
            pairs = pairs + (c1 == 2)  # a lone pair made by the joker: counts as a group
        group = np.select(
            [c1 >= 4, (c1 == 3) & (pairs >= 2), c1 == 3, pairs >= 2, c1 == 2],
            [
                _CODE["four-of-a-kind"],
                _CODE["full-house"],
                _CODE["three-of-a-kind"],
                _CODE["two-pair"],
                _CODE["pair"],
            ],
            _CODE["high-card"],
        )
        code = np.maximum.reduce(
            [
                group,
                five,
                np.where(straight, _CODE["straight"], -1),
                np.where(flush, _CODE["flush"], -1),
                np.where(sflush, _CODE["straight-flush"], -1),
                np.where(rflush, _CODE["royal-flush"], -1),
            ]
        )
        code = np.where((code == _CODE["straight"]) & (c1 >= 3), _CODE[STRAIGHT_TRIPS], code)
        hist += np.bincount(code, minlength=len(CODES))
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
