"""Three-card games: exact enumeration time, simulated rounds/s, exact vs 10^7-round simulation.

Run: ``.venv/bin/python bench/bench_three_card.py [--rounds 10000000] [--repeat 3]``

Side by side, in one run:

* exact enumeration of every bet (``games.three_card.exact``, caches cleared each run):
  the 1,755 suit classes x 22,100 dealer hands in NumPy, against a plain-Python loop over
  the same sums for a sample of player hands, scaled to all 22,100 (the naive peer);
* simulated rounds/s: the vectorised simulation (``games.three_card.simulate``) against the
  pure engine driven round by round with the scripted player (``ThreeCardRound`` + autoplay);
* the acceptance check: every bet's exact return lies inside the simulation's 99.9% interval
  over ``--rounds`` rounds, for each variant.

Writes bench/results/three_card.md.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import games.three_card as tc  # noqa: E402
from bench._common import machine  # noqa: E402
from games.cli import decimal_text  # noqa: E402
from games.core.cards import Card  # noqa: E402
from games.core.records import DealCard  # noqa: E402
from games.poker.three_card import rank3  # noqa: E402
from games.sim import contains  # noqa: E402
from games.three_card import exact  # noqa: E402


def clear_caches() -> None:
    exact._class_sums.cache_clear()
    exact._play_table.cache_clear()
    exact.six_card_counts.cache_clear()


def naive_sums_rate(sample: int) -> float:
    """Player hands/s for the plain-Python sum over all disjoint dealer hands."""
    deck = [Card.from_index(i) for i in range(52)]
    all3 = list(itertools.combinations(range(52), 3))
    ranks = {h: rank3([deck[i] for i in h]) for h in all3}
    q = tc.VARIANTS[1].rules.qualifier
    t0 = time.perf_counter()
    for p in all3[:: len(all3) // sample][:sample]:
        pr = ranks[p]
        total = 0
        for d in all3:
            if p[0] in d or p[1] in d or p[2] in d:
                continue
            dr = ranks[d]
            total += 1 if dr < q else 2 if pr > dr else -2 if pr < dr else 0
    return sample / (time.perf_counter() - t0)


def engine_rounds_per_second(rounds: int) -> float:
    variant = tc.VARIANTS[0]
    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    for _ in range(rounds):
        game = tc.new_game(variant, 1)
        deck = [Card.from_index(int(i)) for i in rng.permutation(52)[:6]]
        while not game.is_over:
            if game.needs() is not None:
                game.apply(DealCard(card=deck.pop()))
                continue
            action = tc.autoplay(game, 0)
            assert action is not None
            game.apply(action)
    return rounds / (time.perf_counter() - t0)


def exact_seconds(repeat: int) -> dict[str, float]:
    """Median seconds of every variant's exact enumeration, caches cleared each run."""
    exact_times: dict[str, float] = {}
    for v in tc.VARIANTS:
        times = []
        for _ in range(repeat):
            clear_caches()
            t0 = time.perf_counter()
            tc.house_edge(v)
            times.append(time.perf_counter() - t0)
        exact_times[v.id] = statistics.median(times)
    return exact_times


def simulation_rates(speed_rounds: int, repeat: int) -> dict[str, float]:
    """Median simulated rounds/s of every variant (tables built before the timing)."""
    sim_rates: dict[str, float] = {}
    for v in tc.VARIANTS:
        tc.simulate(v, 10_000, 0)  # tables built
        times = []
        for r in range(repeat):
            t0 = time.perf_counter()
            tc.simulate(v, speed_rounds, r)
            times.append(time.perf_counter() - t0)
        sim_rates[v.id] = speed_rounds / statistics.median(times)
    return sim_rates


def edge_checks(rounds: int) -> tuple[list[str], bool]:
    """A row per bet: its exact return inside the ``rounds``-round 99.9% interval or not."""
    checks = []
    all_ok = True
    for v in tc.VARIANTS:
        result = tc.simulate(v, rounds, seed=20261130)
        edges = tc.house_edge(v)
        for bet, sim in result.bets.items():
            ok = contains(sim, edges[bet].edge)
            all_ok &= ok
            checks.append(
                f"| {v.id} | {bet} | {decimal_text(-edges[bet].edge, 6)} | {sim.mean:.6f} | "
                f"[{sim.ci_low:.6f}, {sim.ci_high:.6f}] | {'inside' if ok else 'OUTSIDE'} |"
            )
    return checks, all_ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--speed-rounds", type=int, default=1_000_000)
    ap.add_argument("--engine-rounds", type=int, default=2_000)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "three_card.md")
    args = ap.parse_args()

    exact_times = exact_seconds(args.repeat)
    exact.hands()
    naive_rate = naive_sums_rate(20)
    naive_full = exact.HANDS / naive_rate
    sim_rates = simulation_rates(args.speed_rounds, args.repeat)
    engine_rate = engine_rounds_per_second(args.engine_rounds)
    checks, all_ok = edge_checks(args.rounds)

    command = "    .venv/bin/python bench/bench_three_card.py " + " ".join(sys.argv[1:])
    lines = [
        "## Three Card Poker and Tri-Card Poker (bench/bench_three_card.py)",
        "",
        f"Command (from the repo root):\n\n{command.rstrip()}\n",
        f"Machine: {machine(numpy=True)}.",
        "",
        "| what | ours | naive peer | ratio |",
        "|---|---:|---:|---:|",
    ]
    for vid, t in exact_times.items():
        lines.append(
            f"| exact enumeration, every bet, {vid} (median of {args.repeat}) | {t:.2f} s | "
            f"{naive_full:,.0f} s (plain Python, extrapolated from 20 hands) | "
            f"{naive_full / t:,.0f}x |"
        )
    for vid, rate in sim_rates.items():
        lines.append(
            f"| simulated rounds/s, {vid} ({args.speed_rounds:,} rounds, median) | {rate:,.0f} | "
            f"{engine_rate:,.0f} (pure engine + autoplay, three-card-poker) | "
            f"{rate / engine_rate:,.0f}x |"
        )
    lines += [
        "",
        f"Exact return vs simulation over {args.rounds:,} rounds per variant (99.9% interval):",
        "",
        "| variant | bet | exact return | simulated mean | 99.9% interval | |",
        "|---|---|---:|---:|---|---|",
        *checks,
        "",
    ]
    text = "\n".join(lines)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
