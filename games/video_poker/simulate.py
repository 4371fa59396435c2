"""Simulated returns of the video poker machines (never used for play).

Draw poker: hands from a fresh 52-card deck each, the machine's exact best hold, the pay
table (Mystery Bonus Poker: the reel's stop drawn by weight each hand, holds for its
table). European Slot Poker: one player's long run at one credit value and coins bet,
with the persistent deck and the page's shuffle rules (on entry, at 25 cards or fewer,
after every win and after each Cherry Bonus), the Fruit and Cherry Bonuses, every win
collected (no double-up). Its hold is the best hold of the dealt hand's class (which
symbols, how many of each) on a full deck, :func:`fruit_table`: the machine re-optimises
for the cards left, which moves the return by little (docs/math/video_poker.md). The
long-run figure of at least 10^7 hands is made by
``python -m games.video_poker.simulate --hands 10000000`` and recorded there.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from games.core.engine import Variant
from games.core.figures import SimulationResult, SimulationRun
from games.core.shipped import entry, shipped_run, write_runs
from games.sim import bet_statistics
from games.video_poker import fruit
from games.video_poker.analyser import SCALE, best_of, colex, hold_counts, subset_counts
from games.video_poker.autohold import paytable
from games.video_poker.fruit_floor import floor_tallies
from games.video_poker.hands import fruit_hand
from games.video_poker.rules import SYMBOLS, MysteryStop, VideoPokerRules

CHUNK = 8192
#: hold mask -> which of the five (ascending) positions it keeps
_KEEP = np.array([[bool(m >> i & 1) for i in range(5)] for m in range(32)])


def draw_tally(rules: VideoPokerRules, coins: int, rounds: int, seed: int) -> Counter[int]:
    """Credits paid per hand over ``rounds`` draw poker hands (NumPy, in chunks): a fresh
    shuffled deck each hand, the reel's stop by weight (Mystery), the exact best hold of
    that hand's table (:mod:`games.video_poker.analyser`), the replacements in deck order."""
    base = paytable(rules)
    counts = subset_counts(base.wild, base.keys)
    stops: tuple[MysteryStop | None, ...] = rules.mystery or (None,)
    cum = np.cumsum([s.weight if s else 1 for s in stops])
    pays = np.array([[*paytable(rules, s).pays(coins), 0] for s in stops], dtype=np.int64)
    gen = np.random.default_rng(seed)
    tally: Counter[int] = Counter()
    for lo in range(0, rounds, CHUNK):
        n = min(CHUNK, rounds - lo)
        deck = gen.permuted(np.tile(np.arange(52), (n, 1)), axis=1)[:, :10]
        hands = np.sort(deck[:, :5], axis=1)
        stop = np.searchsorted(cum, gen.integers(int(cum[-1]), size=n), side="right")
        c = hold_counts(counts, hands)
        best = np.empty(n, dtype=np.int64)
        for i in range(len(stops)):
            rows = stop == i
            best[rows] = best_of((c[rows] @ pays[i]) * SCALE)
        keep = _KEEP[best]
        nth = np.clip(np.cumsum(~keep, axis=1) - 1, 0, 4)
        final = np.where(keep, hands, np.take_along_axis(deck[:, 5:], nth, axis=1))
        line = counts.final[colex(np.sort(final, axis=1))].astype(np.int64)
        paid = pays[stop, line]
        values, times = np.unique(paid, return_counts=True)
        tally.update({int(v): int(t) for v, t in zip(values, times, strict=True)})
    return tally


@cache
def fruit_table(
    full: tuple[int, ...], pays: tuple[tuple[str, int], ...]
) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Best hold (the symbols kept) of every five-card class on a full deck of ``full``."""
    table: dict[tuple[str, ...], tuple[str, ...]] = {}
    for counts in fruit.compositions(5, len(SYMBOLS)):
        if any(c > n for c, n in zip(counts, full, strict=True)):
            continue
        hand = tuple(s for s, c in zip(SYMBOLS, counts, strict=True) for _ in range(c))
        deck = tuple(n - c for n, c in zip(full, counts, strict=True))
        held, _value = fruit.best_hold(hand, deck, dict(pays))
        table[hand] = tuple(hand[i] for i in held)
    return table


class FruitPlayer:
    """One player's long run at one European Slot Poker machine (one credit value and bet)."""

    def __init__(self, rules: VideoPokerRules, coins: int, seed: int) -> None:
        assert rules.fruit is not None
        self.fr = rules.fruit
        self.coins = coins
        self.pays = {line.hand: line.pays[coins - 1] for line in rules.lines}
        self.table = fruit_table(self.fr.counts(), tuple(sorted(self.pays.items())))
        self.r = random.Random(seed)
        self.deck = list(self.fr.counts())
        self.collected: set[str] = set()
        self.cherry = 0

    def _card(self) -> str:
        left = self.r.randrange(sum(self.deck))
        for i, n in enumerate(self.deck):
            if left < n:
                self.deck[i] -= 1
                return SYMBOLS[i]
            left -= n
        raise AssertionError("deck count")

    def hand(self) -> tuple[int, int, int]:
        """Play one hand: (line credits, fruit bonus credits, cherry bonus credits)."""
        fr = self.fr
        if sum(self.deck) <= fr.shuffle_at:
            self.deck = list(fr.counts())
        dealt = sorted((self._card() for _ in range(5)), key=SYMBOLS.index)
        keep = list(self.table[tuple(dealt)])
        final = keep + [self._card() for _ in range(5 - len(keep))]
        line = fruit_hand(final)
        credits = self.pays.get(line, 0) if line else 0
        jokers = final.count("joker")
        for symbol, need in fr.fruit_collect.items():
            if final.count(symbol) + jokers >= need:
                self.collected.add(symbol)
        fruit_bonus = cherry_bonus = 0
        if self.collected >= set(fr.fruit_collect):
            fruit_bonus = fr.fruit_bonus[self.coins - 1]
            self.collected = set()
        if final.count("cherry") >= 2:
            self.cherry += 1
            if self.cherry >= fr.cherry_hits:
                cherry_bonus = fr.cherry_bonus[self.coins - 1]
                self.cherry = 0
        if credits or cherry_bonus or sum(self.deck) <= fr.shuffle_at:
            self.deck = list(fr.counts())
        return credits, fruit_bonus, cherry_bonus


def simulate(
    variant: Variant[VideoPokerRules], rounds: int, seed: int, coins: int = 0
) -> SimulationResult:
    """The ``main`` bet's return per unit wagered over ``rounds`` hands at ``coins`` coins
    (0: the machine's maximum); European Slot Poker also reports each bonus's share
    (``fruit-bonus``, ``cherry-bonus``: what it adds per unit wagered)."""
    rules = variant.rules
    coins = coins or rules.max_coins
    if rounds < 2:
        raise ValueError("simulate needs at least 2 rounds")
    tally: Counter[int] = Counter()
    fruit_tally: Counter[int] = Counter()
    cherry_tally: Counter[int] = Counter()
    if rules.fruit is None:
        tally = draw_tally(rules, coins, rounds, seed)
    else:
        pays = tuple(sorted((line.hand, line.pays[coins - 1]) for line in rules.lines))
        table = fruit_table(rules.fruit.counts(), pays)
        tally, fruit_tally, cherry_tally = floor_tallies(rules, coins, rounds, seed, table)
    bets = {"main": bet_statistics(rounds, [(c / coins - 1, n) for c, n in tally.items()])}
    if rules.fruit is not None:
        bets["fruit-bonus"] = bet_statistics(
            rounds, [(c / coins, n) for c, n in fruit_tally.items()]
        )
        bets["cherry-bonus"] = bet_statistics(
            rounds, [(c / coins, n) for c, n in cherry_tally.items()]
        )
    return SimulationResult(variant=variant.id, rounds=rounds, seed=seed, bets=bets)


# --- the shipped long run (games/video_poker/data/simulated.json) ------------------------

DATA = "games.video_poker.data"
SHIP_SEED = 20261201
BUILT_BY = "python bench/bench_shipped.py --write-data video_poker"


def figure_rules(rules: VideoPokerRules, coins: int) -> dict[str, Any]:
    """What the long-run figure depends on, as plain data (the shipped run's key)."""
    fr = rules.fruit
    assert fr is not None
    return {
        "coins": coins,
        "lines": {line.hand: line.pays[coins - 1] for line in rules.lines},
        "deck": dict(fr.deck),
        "shuffle_at": fr.shuffle_at,
        "fruit_collect": dict(fr.fruit_collect),
        "fruit_bonus": fr.fruit_bonus[coins - 1],
        "cherry_hits": fr.cherry_hits,
        "cherry_bonus": fr.cherry_bonus[coins - 1],
    }


def long_run(variant: Variant[VideoPokerRules], coins: int) -> SimulationRun | None:
    """The shipped long run of ``variant`` at ``coins``, if made under today's rules."""
    return shipped_run(DATA, f"{variant.id}@{coins}", figure_rules(variant.rules, coins))


def ship_entry(variant: Variant[VideoPokerRules], coins: int, rounds: int) -> dict[str, Any]:
    """The ``simulated.json`` entry of a ``rounds``-hand long run at ``coins``."""
    sim = simulate(variant, rounds, SHIP_SEED, coins).bets["main"]
    return entry(SimulationRun.of(sim, SHIP_SEED, BUILT_BY), figure_rules(variant.rules, coins))


def main(argv: list[str] | None = None) -> int:
    """``python -m games.video_poker.simulate``: the long-run European Slot Poker return."""
    from games.video_poker.rules import load_packaged

    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("--machine", default="european_slot_poker")
    p.add_argument("--hands", type=int, default=10_000_000)
    p.add_argument("--coins", type=int, nargs="+", default=[1, 10])
    p.add_argument("--seed", type=int, default=SHIP_SEED)
    p.add_argument("--write-data", action="store_true", help="ship the runs in data/")
    a = p.parse_args(argv)
    variant = load_packaged(a.machine)
    runs: dict[str, dict[str, Any]] = {}
    for coins in a.coins:
        start = time.perf_counter()
        result = simulate(variant, a.hands, a.seed, coins)
        took = time.perf_counter() - start
        for bet, sim in result.bets.items():
            shown = 1 + sim.mean if bet == "main" else sim.mean
            low, high = shown - sim.mean + sim.ci_low, shown - sim.mean + sim.ci_high
            print(
                f"{variant.id} {bet}: return {shown:.4%} over {sim.rounds:,} hands, 99.9% "
                f"interval [{low:.4%}, {high:.4%}] (seed {a.seed}, {coins} coins, {took:.0f} s)"
            )
        run = SimulationRun.of(result.bets["main"], a.seed, BUILT_BY)
        runs[f"{variant.id}@{coins}"] = entry(run, figure_rules(variant.rules, coins))
    if a.write_data:
        where = Path(str(resources.files(DATA)))
        print(f"wrote {write_runs(where, runs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
