"""Video poker deals drawn as the machines draw them, tested against their exact laws.

What a lab checks of a video poker game (issue 16, ``certify games``): the deals the RNG
makes fall into the hand categories as often as the exact counts say, by chi-square:

* ``video-poker-deals``: the first five cards of single-deck shuffles (``rng.shoe``, as
  the runtime shuffles for Jacks or Better and Mystery Bonus Poker) by category: nothing,
  a low pair, jacks or better, two pair, three of a kind, straight or better (the rarer
  hands merged so every cell expects at least five), against the 2,598,960 hands' counts;
* ``fruit-deals``: five cards drawn as the European Slot Poker machine draws them (a
  uniform position over the cards left, ``rng.randbelow``, on a full 141-card deck) by
  symbol hand, against the exact multiset law of the shipped composition;
* ``mystery-reel``: the Mystery Bonus reel's stops (a uniform position over the total
  weight) against their weights.
"""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import Any

import numpy as np

from certification.outcomes import Check, Draws, _chi2
from games.core.cards import Card
from games.video_poker.fruit import compositions, symbol_at, without
from games.video_poker.hands import draw_hand, fruit_line
from games.video_poker.rules import load_packaged

#: the categories of a 52-card deal, and how many of the 2,598,960 hands fall in each
DEAL_CATEGORIES = (
    "nothing",
    "low-pair",
    "jacks-or-better",
    "two-pair",
    "three-of-a-kind",
    "straight+",
)
DEAL_COUNTS = (1_302_540, 760_320, 337_920, 123_552, 54_912, 19_716)
FRUIT_CATEGORIES = ("nothing", "two-pair", "three-of-a-kind", "full-house", "four-or-five")


def deal_category(cards: list[Card]) -> str:
    """The category of five dealt cards (see :data:`DEAL_CATEGORIES`)."""
    line = draw_hand(cards)
    if line is None:
        return "low-pair" if len({c.rank for c in cards}) < 5 else "nothing"
    if line in DEAL_CATEGORIES:
        return line
    return "straight+"


def _fruit_category(line: str | None) -> str:
    if line in ("four-of-a-kind", "five-of-a-kind"):
        return "four-or-five"
    return line or "nothing"


def fruit_law(deck: tuple[int, ...]) -> dict[str, float]:
    """The exact probability of each fruit category for five cards off ``deck``."""
    total = comb(sum(deck), 5)
    out: Counter[str] = Counter()
    for draw in compositions(5, len(deck)):
        ways = 1
        for d, n in zip(draw, deck, strict=True):
            ways *= comb(n, d)
        if ways:
            groups = tuple(sorted((c for c in draw[1:] if c), reverse=True))
            out[_fruit_category(fruit_line(draw[0], groups))] += ways
    return {k: out[k] / total for k in FRUIT_CATEGORIES}


def video_poker_checks(rng: Draws, deals: int) -> list[Check]:
    """The three chi-square tests over ``deals`` deals (and reel spins) each."""
    seen = Counter(
        deal_category([Card.from_index(i) for i in rng.shoe(1)[:5]]) for _ in range(deals)
    )
    expected = np.asarray(DEAL_COUNTS, dtype=np.float64) / sum(DEAL_COUNTS) * deals
    out = [
        _chi2(
            "video-poker-deals",
            "five-card video poker deals by category (single-deck shuffles)",
            np.asarray([seen[c] for c in DEAL_CATEGORIES]),
            expected,
            len(DEAL_CATEGORIES) - 1,
        )
    ]
    esp = load_packaged("european_slot_poker").rules.fruit
    assert esp is not None
    full = esp.counts()
    fruit_seen: Counter[str] = Counter()
    for _ in range(deals):
        deck, hand = full, []
        for _ in range(5):
            symbol = symbol_at(deck, 1 + rng.randbelow(sum(deck)))
            deck = without(deck, symbol)
            hand.append(symbol)
        jokers = hand.count("joker")
        groups = tuple(sorted(Counter(s for s in hand if s != "joker").values(), reverse=True))
        fruit_seen[_fruit_category(fruit_line(jokers, groups))] += 1
    law = fruit_law(full)
    out.append(
        _chi2(
            "fruit-deals",
            "European Slot Poker deals (positions over the 141 cards left) by symbol hand",
            np.asarray([fruit_seen[c] for c in FRUIT_CATEGORIES]),
            np.asarray([law[c] * deals for c in FRUIT_CATEGORIES]),
            len(FRUIT_CATEGORIES) - 1,
        )
    )
    out.append(_reel_check(rng, deals))
    return out


def _reel_check(rng: Draws, spins: int) -> Check:
    rules = load_packaged("mystery_bonus").rules
    weights = np.asarray([s.weight for s in rules.mystery], dtype=np.float64)
    labels = [s.label for s in rules.mystery]
    counts: Counter[str] = Counter(
        rules.stop_at(1 + rng.randbelow(rules.reel_weight)).label for _ in range(spins)
    )
    observed: Any = np.asarray([counts[label] for label in labels])
    return _chi2(
        "mystery-reel",
        "Mystery Bonus reel stops (a position over the total weight) against their weights",
        observed,
        weights / weights.sum() * spins,
        len(labels) - 1,
    )


__all__ = ["DEAL_CATEGORIES", "deal_category", "fruit_law", "video_poker_checks"]
