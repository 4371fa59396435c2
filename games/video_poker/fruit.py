"""The fruit deck of European Slot Poker and the best hold over what is left of it.

A deck is its remaining composition, counts in :data:`~games.video_poker.rules.SYMBOLS`
order. The runtime draws each card by a uniform position 1..cards left
(``Need(kind=POSITION)``, ``rng.randbelow``: no modulo), and :func:`symbol_at` names the
card at that position of the remaining cards in symbol order. Drawing a uniform card of
what is left, card after card, deals exactly as the next cards of a shuffled deck do
(each order of the remaining cards is equally likely), and the deck's order never exists
before a card is drawn, so it can neither leak nor be guessed from the log; the log keeps
every position drawn and the composition, so a replay deals the same cards.

:func:`best_hold` is the machine's auto-hold (001: "The game picks the best hand possible
... and will hold them for you"): the hold of the highest expected credits over every draw
from the cards left, computed exactly by enumerating draws as multisets of symbols with
their hypergeometric weights. :func:`simple_hold` is the simulator's fast strategy (jokers
and the largest groups), documented in docs/math/video_poker.md.

>>> deck = (3, 12, 15, 20, 22, 13, 26, 30)
>>> symbol_at(deck, 1), symbol_at(deck, 4), symbol_at(deck, 141)
('joker', 'bell', 'diamond')
>>> simple_hold(("plum", "bell", "plum", "joker", "cherry"))
(0, 2, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

from games.video_poker.hands import fruit_line
from games.video_poker.rules import SYMBOLS

Deck = tuple[int, ...]


def symbol_at(deck: Deck, position: int) -> str:
    """The symbol at ``position`` (1-based) of the cards left, in symbol order."""
    left = position
    for symbol, count in zip(SYMBOLS, deck, strict=True):
        if left <= count:
            return symbol
        left -= count
    raise ValueError(f"position {position} is past the {sum(deck)} cards left")


def without(deck: Deck, symbol: str) -> Deck:
    """The deck after one ``symbol`` card is drawn from it."""
    i = SYMBOLS.index(symbol)
    if deck[i] <= 0:
        raise ValueError(f"no {symbol} left in the deck")
    return (*deck[:i], deck[i] - 1, *deck[i + 1 :])


@cache
def compositions(k: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every way to split ``k`` cards among ``parts`` symbols."""
    if parts == 1:
        return ((k,),)
    return tuple(
        (first, *rest) for first in range(k + 1) for rest in compositions(k - first, parts - 1)
    )


def _line_of(counts: Sequence[int]) -> str | None:
    jokers = counts[0]
    groups = tuple(sorted((c for c in counts[1:] if c), reverse=True))
    return fruit_line(jokers, groups)


def hold_value(held: Sequence[str], deck: Deck, pays: Mapping[str, int]) -> Fraction:
    """Exact expected credits of keeping ``held`` and drawing the rest from ``deck``."""
    have = [0] * len(SYMBOLS)
    for s in held:
        have[SYMBOLS.index(s)] += 1
    k = 5 - len(held)
    total = 0
    for draw in compositions(k, len(SYMBOLS)):
        ways = 1
        for d, left in zip(draw, deck, strict=True):
            if d > left:
                ways = 0
                break
            if d:
                ways *= comb(left, d)
        if ways:
            line = _line_of([h + d for h, d in zip(have, draw, strict=True)])
            if line is not None:
                total += ways * pays.get(line, 0)
    return Fraction(total, comb(sum(deck), k))


def best_hold(
    cards: Sequence[str], deck: Deck, pays: Mapping[str, int]
) -> tuple[tuple[int, ...], Fraction]:
    """The positions to hold (0-based) of the best expected credits, and that value.

    Among equal values the hold keeping more cards wins (a made hand stays made), then
    the lower positions. ``pays`` is credits per line for the coins bet.
    """
    best: tuple[int, ...] = ()
    value = Fraction(-1)
    seen: dict[tuple[str, ...], Fraction] = {}
    for size in range(5, -1, -1):
        for hold in combinations(range(5), size):
            key = tuple(sorted(cards[i] for i in hold))
            if key not in seen:
                seen[key] = hold_value(key, deck, pays)
            if seen[key] > value:
                best, value = hold, seen[key]
    return best, value


def simple_hold(cards: Sequence[str]) -> tuple[int, ...]:
    """The simulator's strategy: keep the jokers and the largest natural group; with two
    pairs keep both; a full house or better stands. Positions 0-based."""
    groups = Counter(s for s in cards if s != "joker")
    ordered = sorted(groups.items(), key=lambda kv: (-kv[1], SYMBOLS.index(kv[0])))
    keep = {"joker"}
    if ordered and ordered[0][1] >= 2:
        keep.add(ordered[0][0])
        if len(ordered) > 1 and ordered[1][1] >= 2:
            keep.add(ordered[1][0])
    elif ordered and "joker" not in cards:
        keep.add(ordered[0][0])  # no pair: keep one card of the first symbol
        first = next(i for i, s in enumerate(cards) if s == ordered[0][0])
        return (first,)
    return tuple(i for i, s in enumerate(cards) if s in keep)


__all__ = ["Deck", "best_hold", "hold_value", "simple_hold", "symbol_at", "without"]
