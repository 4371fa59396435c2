"""European Slot Poker's Fruit and Cherry Bonuses as long-run shares of the bet.

Both bonuses are paid across hands, so each is a renewal: the machine pays the bonus
once per cycle, and its share of the return is ``bonus / (expected hands per cycle)``
per hand. The per-hand chances come from :func:`games.video_poker.slot_exact.first_hand`
(exact for a hand from a fresh deck, under the best holds for the pay table, bonuses not
counted in the holds, as the machine's auto-hold plays):

* **Cherry Bonus** (the machine's reading: a final hand with two or more natural cherries
  adds to the meter; ``hits`` such hands fill it): ``E[hands] = hits / P(hit)``.
* **Fruit Bonus** (four or more of each fruit, the joker counting, collected over hands,
  then the collection starts again): the expected hands to collect every fruit, exactly,
  over the 2^4 collected sets, from the chance of each set one hand collects.

What is not exact: the machine's deck persists between hands (a hand after a losing one
is dealt from what is left), so the real per-hand chances drift from the fresh-deck ones;
the simulation of at least 10^7 hands measures that (docs/math/video_poker.md).

>>> hands_to_collect({frozenset(): Fraction(1, 2), frozenset({"a"}): Fraction(1, 2)}, ("a",))
Fraction(2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations


def hands_to_collect(sets: Mapping[frozenset[str], Fraction], fruits: Sequence[str]) -> Fraction:
    """Expected hands until every fruit is collected, from the empty collection.

    ``sets[S]`` is the chance one hand collects exactly the fruits ``S``. Solved exactly
    from the full collection down: ``E[A] = (1 + sum P(C) E[A | C]) / (1 - P(A | C = A))``.
    """
    everything = frozenset(fruits)
    expected: dict[frozenset[str], Fraction] = {everything: Fraction(0)}
    for size in range(len(fruits) - 1, -1, -1):
        for have in map(frozenset, combinations(fruits, size)):
            stay = Fraction(0)
            move = Fraction(1)
            for got, p in sets.items():
                after = have | (got & everything)
                if after == have:
                    stay += p
                else:
                    move += p * expected[after]
            if stay == 1:
                raise ValueError(f"no hand ever collects {sorted(everything - have)}")
            expected[have] = move / (1 - stay)
    return expected[frozenset()]


def cherry_share(hit: Fraction, hits: int, bonus: int, coins: int) -> Fraction:
    """The Cherry Bonus's return per coin bet: ``bonus`` every ``hits / hit`` hands."""
    if hit <= 0:
        return Fraction(0)
    return hit * bonus / (hits * coins)


def fruit_share(
    sets: Mapping[frozenset[str], Fraction], fruits: Sequence[str], bonus: int, coins: int
) -> Fraction:
    """The Fruit Bonus's return per coin bet: ``bonus`` once per completed collection."""
    return Fraction(bonus) / (hands_to_collect(sets, fruits) * coins)
