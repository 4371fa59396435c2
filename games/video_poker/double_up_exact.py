"""The High-Low double-up's exact value: per step given the cards left, and in all.

Page 001: after a win the player may call High or Low on the next card, up to 5 wins in
a row; the High set is joker, bell, watermelon, plum, lemon and the Low set bar, joker,
cherry, diamond (the joker in both, so it wins either call); a right call doubles what is
at risk, a wrong one loses it. The double-up deals from a freshly shuffled deck and is
not shuffled between its cards, so each step's odds are the cards left.

* :func:`step`: with the cards left, each call's chance, the better call and the
  expected value of one step per unit at risk (``2 * P(win)``). A joker left makes
  ``P(high) + P(low) > 1``, so the better call's value is at least ``1 + jokers / left``:
  never below even.
* :func:`best_value`: the whole double-up from a deck, played best (at each step collect
  or make the better call, looking ahead over the cards the previous steps took), per
  unit at risk. Half Gamble risks half and banks half: ``1/2 + G/2`` for a gamble worth
  ``G``, so it is never better than the better of collecting and gambling all.

>>> s = step({"joker": 1, "bell": 2, "bar": 3}, high={"joker", "bell"}, low={"joker", "bar"})
>>> s.call, s.value
('low', Fraction(4, 3))
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Step:
    """One call's odds from the cards left (value: expected return per unit at risk)."""

    high: Fraction
    low: Fraction
    call: str  # the better call; "high" on a tie
    value: Fraction


def step(left: Mapping[str, int], high: Collection[str], low: Collection[str]) -> Step:
    """The odds of the next double-up card with ``left`` cards of each symbol."""
    total = sum(left.values())
    if total <= 0 or any(n < 0 for n in left.values()):
        raise ValueError("the double-up needs at least one card left and no negative counts")
    p_high = Fraction(sum(n for s, n in left.items() if s in high), total)
    p_low = Fraction(sum(n for s, n in left.items() if s in low), total)
    call = "high" if p_high >= p_low else "low"
    return Step(p_high, p_low, call, 2 * max(p_high, p_low))


def best_value(
    deck: Mapping[str, int], high: Collection[str], low: Collection[str], wins: int = 5
) -> Fraction:
    """Expected return per unit put into the double-up, played best, up to ``wins`` wins."""
    symbols = tuple(deck)
    in_high = tuple(s in high for s in symbols)
    in_low = tuple(s in low for s in symbols)

    @functools.cache
    def value(left: tuple[int, ...], won: int) -> Fraction:
        total = sum(left)
        if won == wins or total == 0:
            return Fraction(1)
        best = Fraction(1)  # collect
        for member in (in_high, in_low):
            v = Fraction(0)
            for i, n in enumerate(left):
                if n and member[i]:
                    after = (*left[:i], n - 1, *left[i + 1 :])
                    v += Fraction(n, total) * 2 * value(after, won + 1)
            best = max(best, v)
        return best

    return value(tuple(deck[s] for s in symbols), 0)
