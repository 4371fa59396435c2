"""Many European Slot Poker machines played at once (NumPy), for the long-run figure.

Each of ``players`` machines keeps its own deck, Fruit collection and Cherry meter from
hand to hand under the page's shuffle rules, exactly as one player's machine does
(:class:`games.video_poker.simulate.FruitPlayer` is the one-player reference, tested
against this); all of them play their next hand together, one NumPy step per card. The
hold is the best hold of the dealt hand's class on a full deck (``table``). A long run
of 10^7 hands is 2,000 machines x 5,000 hands: each machine starts from a fresh deck and
an empty meter (the page's "shuffled when the player first enters"), and both renew
within a few hands (the deck) or a few hundred (the bonuses), so the start weighs little.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from games.video_poker.fruit import compositions
from games.video_poker.hands import fruit_line
from games.video_poker.rules import SYMBOLS, VideoPokerRules

I64 = npt.NDArray[np.int64]
_BASE6 = 6 ** np.arange(len(SYMBOLS), dtype=np.int64)
Tallies = tuple[Counter[int], Counter[int], Counter[int]]


class FruitFloor:
    """``players`` machines at one credit value and coins bet, played hand by hand."""

    def __init__(
        self,
        rules: VideoPokerRules,
        coins: int,
        seed: int,
        players: int,
        table: Mapping[tuple[str, ...], tuple[str, ...]],
    ) -> None:
        fr = rules.fruit
        assert fr is not None
        self.fr, self.coins, self.players = fr, coins, players
        pays = {line.hand: line.pays[coins - 1] for line in rules.lines}
        size = 6 ** len(SYMBOLS)
        self.keep = np.zeros((size, len(SYMBOLS)), dtype=np.int64)
        self.credits = np.zeros(size, dtype=np.int64)
        for counts in compositions(5, len(SYMBOLS)):
            code = int(np.dot(counts, _BASE6))
            groups = tuple(sorted((c for c in counts[1:] if c), reverse=True))
            line = fruit_line(counts[0], groups)
            self.credits[code] = pays.get(line, 0) if line else 0
            hand = tuple(s for s, c in zip(SYMBOLS, counts, strict=True) for _ in range(c))
            if hand in table:
                self.keep[code] = [table[hand].count(s) for s in SYMBOLS]
        self.full = np.array(fr.counts(), dtype=np.int64)
        self.deck = np.tile(self.full, (players, 1))
        self.collected = np.zeros((players, len(fr.fruit_collect)), dtype=bool)
        self.cherry = np.zeros(players, dtype=np.int64)
        self.gen = np.random.default_rng(seed)
        self.fruit_idx = np.array([SYMBOLS.index(s) for s in fr.fruit_collect], dtype=np.int64)
        self.fruit_need = np.array(list(fr.fruit_collect.values()), dtype=np.int64)
        self.cherry_idx = SYMBOLS.index("cherry")

    def _draw(self, counts: I64, active: npt.NDArray[np.bool_]) -> None:
        """One card off each active machine's deck: a uniform position over the cards left."""
        left = self.deck.sum(axis=1)
        pos = self.gen.integers(0, np.maximum(left, 1))
        symbol = (pos[:, None] >= np.cumsum(self.deck, axis=1)).sum(axis=1)
        rows = np.nonzero(active)[0]
        self.deck[rows, symbol[rows]] -= 1
        counts[rows, symbol[rows]] += 1

    def hands(self) -> tuple[I64, I64, I64]:
        """One hand at every machine: (line credits, Fruit Bonus, Cherry Bonus) each."""
        fr, n = self.fr, self.players
        self.deck[self.deck.sum(axis=1) <= fr.shuffle_at] = self.full
        dealt = np.zeros((n, len(SYMBOLS)), dtype=np.int64)
        for _ in range(5):
            self._draw(dealt, np.ones(n, dtype=bool))
        final = self.keep[dealt @ _BASE6]
        need = 5 - final.sum(axis=1)
        for k in range(5):
            self._draw(final, need > k)
        credits = self.credits[final @ _BASE6]
        self.collected |= final[:, self.fruit_idx] + final[:, :1] >= self.fruit_need
        full = self.collected.all(axis=1)
        fruit_bonus = np.where(full, fr.fruit_bonus[self.coins - 1], 0)
        self.collected[full] = False
        self.cherry += final[:, self.cherry_idx] >= 2
        paid = self.cherry >= fr.cherry_hits
        cherry_bonus = np.where(paid, fr.cherry_bonus[self.coins - 1], 0)
        self.cherry[paid] = 0
        reset = (credits > 0) | paid | (self.deck.sum(axis=1) <= fr.shuffle_at)
        self.deck[reset] = self.full
        return credits, fruit_bonus, cherry_bonus


def floor_tallies(
    rules: VideoPokerRules,
    coins: int,
    rounds: int,
    seed: int,
    table: Mapping[tuple[str, ...], tuple[str, ...]],
) -> Tallies:
    """(hand + bonuses, Fruit Bonus, Cherry Bonus) credit tallies of ``rounds`` hands,
    played by up to 2,000 machines at once, each playing 5,000 hands or more (a machine
    starts on an empty Fruit collection, which takes ~1,000 hands to fill: shorter runs a
    machine would count too few Fruit Bonuses)."""
    players = max(1, min(2_000, rounds // 5_000))  # 5,000 hands a machine at least
    floor = FruitFloor(rules, coins, seed, players, table)
    tallies: Tallies = (Counter(), Counter(), Counter())
    played = 0
    while played < rounds:
        take = min(players, rounds - played)
        line, fruit_bonus, cherry_bonus = (v[:take] for v in floor.hands())
        for tally, values in zip(
            tallies, (line + fruit_bonus + cherry_bonus, fruit_bonus, cherry_bonus), strict=True
        ):
            v, t = np.unique(values, return_counts=True)
            tally.update({int(a): int(b) for a, b in zip(v, t, strict=True)})
        played += take
    return tallies


__all__ = ["FruitFloor", "floor_tallies"]
