"""The main pot and side pots of a hand, and a pot split with the odd-chip rule.

Each all-in player caps what they can win: the pot is cut at every level a live
(unfolded) all-in player put in, each layer holding every seat's chips between the
previous level and this one and won only by the live seats that reached it. A folded
seat's chips count in every layer they reach but win none. Layers with the same
eligible seats are one pot.

>>> [(p.amount, p.eligible) for p in side_pots({0: 500, 1: 200, 2: 500}, folded=set())]
[(600, (0, 1, 2)), (600, (0, 2))]
>>> split(301, [2, 0])
{2: 151, 0: 150}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its cents, each seat's share of them, the seats that may win it."""

    amount: int
    shares: tuple[tuple[int, int], ...]
    eligible: tuple[int, ...]


def side_pots(total: Mapping[int, int], folded: set[int]) -> list[Pot]:
    """The pots, main first, of chips ``total`` (seat -> cents put in this hand)."""
    live = [s for s in sorted(total) if s not in folded]
    levels = sorted({total[s] for s in live if total[s] > 0})
    pots: list[Pot] = []
    below = 0
    for n, level in enumerate(levels):
        top = n == len(levels) - 1
        shares = tuple(
            (s, (total[s] if top else min(total[s], level)) - min(total[s], below))
            for s in sorted(total)
            if total[s] > below
        )
        eligible = tuple(s for s in live if total[s] >= level)
        amount = sum(a for _, a in shares)
        if pots and pots[-1].eligible == eligible:
            last = pots.pop()
            merged: dict[int, int] = dict(last.shares)
            for s, a in shares:
                merged[s] = merged.get(s, 0) + a
            shares, amount = tuple(sorted(merged.items())), amount + last.amount
        pots.append(Pot(amount=amount, shares=shares, eligible=eligible))
        below = level
    return pots


def split(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """``amount`` shared by ``winners``, listed in the odd-chip order: equal shares to the
    cent (a kiosk's chips are cents), then the odd cents one each from the first winner on."""
    each, rest = divmod(amount, len(winners))
    return {seat: each + (1 if n < rest else 0) for n, seat in enumerate(winners)}


__all__ = ["Pot", "side_pots", "split"]
