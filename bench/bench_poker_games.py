"""Caribbean Stud family, Let'Em Ride and the hold'em games: rounds/s, exact vs simulation.

Run: ``.venv/bin/python bench/bench_poker_games.py [--rounds 2000000] [--repeat 3]``

Side by side, in one run:

* simulated rounds/s for every variant: the vectorised simulation (``simulate``)
  against the pure engine driven round by round by the family's scripted player
  (the engine + ``autoplay``, the naive peer);
* Let'Em Ride's exact best-strategy enumeration (``games.let_it_ride.exact``, caches
  cleared each run) against a plain-Python loop over the same completions for a
  sample of three-card hands, scaled to all 22,100;
* the acceptance check: every exact figure (Let'Em Ride ante and progressive, every
  jackpot at its reset meter) lies inside the simulation's 99.9% interval over
  ``--rounds`` rounds; for the simulated-only figures the published best-play edge
  is shown beside the simulated one.

Writes bench/results/poker_games.md.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import games.caribbean_stud as cs  # noqa: E402
import games.holdem as he  # noqa: E402
import games.let_it_ride as lr  # noqa: E402
from bench._common import machine  # noqa: E402
from games.cli import decimal_text  # noqa: E402
from games.core.cards import Card  # noqa: E402
from games.core.records import DealCard  # noqa: E402
from games.let_it_ride import exact  # noqa: E402
from games.poker.rank5 import rank_indices  # noqa: E402
from games.sim import contains  # noqa: E402

FAMILIES: tuple[ModuleType, ...] = (cs, lr, he)
PUBLISHED = {  # best-play house edge of the ante, with the source (tests/data/<family>/README.md)
    "caribbean-stud": ("5.224% (perfect), 5.225% (our rules of thumb)", "Wizard of Odds"),
    "pinnacle-holdem": ("2.16%", "casinoaurum.com / Casino Hold'em"),
    "ultimate-texas-holdem": ("2.19%", "Wizard of Odds"),
    "lets-em-ride": ("3.51%", "Wizard of Odds"),
}


def engine_rounds_per_second(fam: ModuleType, variant: object, rounds: int) -> float:
    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    for _ in range(rounds):
        game = fam.new_game(variant)
        deck = [Card.from_index(int(i)) for i in rng.permutation(52)]
        while not game.is_over:
            if game.needs() is not None:
                game.apply(DealCard(card=deck.pop()))
                continue
            action = fam.autoplay(game, 0)
            assert action is not None
            game.apply(action)
    return rounds / (time.perf_counter() - t0)


def naive_lir_rate(sample: int) -> float:
    """Three-card hands/s for the plain-Python sum of pay multiples over 1,176 completions."""
    rules = lr.VARIANTS[0].rules
    m = exact.multiples(rules)
    all3 = list(itertools.combinations(range(52), 3))
    t0 = time.perf_counter()
    for hand in all3[:: len(all3) // sample][:sample]:
        rest = [c for c in range(52) if c not in hand]
        total = 0
        for a, b in itertools.combinations(rest, 2):
            total += int(m[rank_indices((*hand, a, b))])
    return sample / (time.perf_counter() - t0)


def exact_seconds(repeat: int) -> float:
    """Median seconds of Let'Em Ride's exact best-strategy enumeration (cold cache)."""
    exact_times = []
    for _ in range(repeat):
        exact._tables.cache_clear()
        t0 = time.perf_counter()
        lr.house_edge(lr.VARIANTS[0])
        exact_times.append(time.perf_counter() - t0)
    return statistics.median(exact_times)


def speed_rows(speed_rounds: int, repeat: int, engine_rounds: int) -> list[str]:
    """A row per variant: simulated rounds/s against the pure engine + autoplay."""
    speed = []
    for fam in FAMILIES:
        for v in fam.VARIANTS:
            fam.simulate(v, 10_000, 0)
            times = []
            for r in range(repeat):
                t0 = time.perf_counter()
                fam.simulate(v, speed_rounds, r)
                times.append(time.perf_counter() - t0)
            rate = speed_rounds / statistics.median(times)
            peer = engine_rounds_per_second(fam, v, engine_rounds)
            speed.append(
                f"| simulated rounds/s, {v.id} | {rate:,.0f} | {peer:,.0f} | {rate / peer:,.0f}x |"
            )
    return speed


def edge_rows(rounds: int) -> tuple[list[str], list[str], bool]:
    """Every bet simulated ``rounds`` times: exact returns against their 99.9% interval,
    simulated-only edges beside the published ones, and whether every exact one is inside."""
    checks, published = [], []
    all_ok = True
    for fam in FAMILIES:
        for v in fam.VARIANTS:
            result = fam.simulate(v, rounds, seed=20261130)
            edges = fam.house_edge(v)
            for bet, sim in result.bets.items():
                edge = edges[bet]
                if edge.exact:
                    ok = contains(sim, edge.edge)
                    all_ok &= ok
                    checks.append(
                        f"| {v.id} | {bet} | {decimal_text(-edge.edge, 6)} | {sim.mean:.6f} | "
                        f"[{sim.ci_low:.6f}, {sim.ci_high:.6f}] | {'inside' if ok else 'OUTSIDE'} |"
                    )
                else:
                    pub = PUBLISHED.get(v.id, ("-", ""))[0] if bet == "ante" else "-"
                    published.append(
                        f"| {v.id} | {bet} | {-sim.mean:.4%} | "
                        f"[{-sim.ci_high:.4%}, {-sim.ci_low:.4%}] | {pub} |"
                    )
    return checks, published, all_ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--speed-rounds", type=int, default=500_000)
    ap.add_argument("--engine-rounds", type=int, default=1_000)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "poker_games.md")
    args = ap.parse_args()

    exact_time = exact_seconds(args.repeat)
    naive_full = exact.HANDS3 / naive_lir_rate(10)
    speed = speed_rows(args.speed_rounds, args.repeat, args.engine_rounds)
    checks, published, all_ok = edge_rows(args.rounds)

    command = "    .venv/bin/python bench/bench_poker_games.py " + " ".join(sys.argv[1:])
    lines = [
        "## Caribbean Stud family, Let'Em Ride, hold'em (bench/bench_poker_games.py)",
        "",
        f"Command (from the repo root):\n\n{command.rstrip()}\n",
        f"Machine: {machine(numpy=True)}.",
        "",
        "| what | ours | naive peer | ratio |",
        "|---|---:|---:|---:|",
        f"| Let'Em Ride exact best-strategy enumeration (median of {args.repeat}) | "
        f"{exact_time:.2f} s | {naive_full:,.0f} s (plain Python, extrapolated from 10 "
        f"three-card hands, 3-card decision only) | {naive_full / exact_time:,.0f}x |",
        *[line.replace("|  |", "|") for line in speed],
        "",
        f"Simulated rounds/s: vectorised over {args.speed_rounds:,} rounds (median of "
        f"{args.repeat}) against the pure engine + autoplay over {args.engine_rounds:,} rounds.",
        "",
        f"Exact returns vs simulation over {args.rounds:,} rounds per variant (99.9% interval):",
        "",
        "| variant | bet | exact return | simulated mean | 99.9% interval | |",
        "|---|---|---:|---:|---|---|",
        *checks,
        "",
        "Simulated-only house edges (documented strategies) beside the published best-play edge:",
        "",
        "| variant | bet | simulated edge | 99.9% interval | published (best play) |",
        "|---|---|---:|---|---|",
        *published,
        "",
    ]
    text = "\n".join(lines)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
