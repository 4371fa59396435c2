"""The main pot and side pots of a hand, and a pot split with the odd-chip rule.

Each all-in player caps what they can win: the pot is cut at every level a live
(unfolded) all-in player put in, each layer holding every seat's chips between the
previous level and this one and won only by the live seats that reached it. A folded
seat's chips count in every layer they reach but win none. Layers with the same
eligible seats are one pot.

>>> [(p.amount, p.eligible) for p in side_pots({0: 500, 1: 200, 2: 500}, folded=set())]
[(600, (0, 1, 2)), (600, (0, 2))]
>>> split(300, [2, 0], chip=100)
{2: 200, 0: 100}
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


def split(amount: int, winners: Sequence[int], chip: int) -> dict[int, int]:
    """``amount`` shared by ``winners``, listed in the odd-chip order: equal shares in
    whole chips, then the odd chips (and any cents under a chip) one by one from the
    first winner on."""
    n = len(winners)
    each = amount // (n * chip) * chip
    out = dict.fromkeys(winners, each)
    rest = amount - each * n
    for seat in winners:
        if rest <= 0:
            break
        give = min(chip, rest)
        out[seat] += give
        rest -= give
    return out


__all__ = ["Pot", "side_pots", "split"]
