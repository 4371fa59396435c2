"""Craps, sic bo and roulette: simulated rounds/s against a naive peer, and the edge check.

Run: ``.venv/bin/python bench/bench_dice.py [--rounds 10000000]``

* speed, per game, median of 3 runs: the NumPy simulators (games.craps.simulate for the pass
  line, games.sicbo / games.roulette for every bet on the same rolls or spins) against a
  naive plain-Python peer, the way a hobby simulator does it: ``random.randint`` dice or
  pocket per round and the bet's rules written out with ``if``s (pass line; small; red);
  and the real engines driven by autoplay (rounds/s, for play, not simulation);
* the check: every bet's exact edge (Fractions) must fall inside the 99.9% interval of a
  ``--rounds`` simulation of that bet (default 10^7 per bet); the naive peers' own means
  are checked against the exact pass line / small / red edges as an independent cross-check.

Writes the figures as markdown to bench/results/dice.md.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from bench._common import median_rate
from games import craps, roulette, sicbo
from games.catalog import get_variant
from games.core import RollDice, SpinResult
from games.core.engine import NeedKind
from games.craps.bets import BetKey, Kind
from games.craps.simulate import simulate_bet

Z999 = 3.2905267314919255
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def naive_pass(rng: random.Random, n: int) -> tuple[int, int]:
    """Pass line, naive style: returns (sum of net units, sum of squares)."""
    total = 0
    for _ in range(n):
        s = rng.randint(1, 6) + rng.randint(1, 6)
        if s in (7, 11):
            total += 1
        elif s in (2, 3, 12):
            total -= 1
        else:
            while True:
                t = rng.randint(1, 6) + rng.randint(1, 6)
                if t == s:
                    total += 1
                    break
                if t == 7:
                    total -= 1
                    break
    return total, n


def naive_small(rng: random.Random, n: int) -> tuple[int, int]:
    total = 0
    for _ in range(n):
        a, b, c = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)
        win = not (a == b == c) and 4 <= a + b + c <= 10
        total += 1 if win else -1
    return total, n


def naive_red(rng: random.Random, n: int) -> tuple[int, int]:
    total = 0
    for _ in range(n):
        pocket = rng.randint(0, 36)  # 0 is the zero
        total += 1 if pocket in RED else -1
    return total, n


def engine_rounds(family: str, variant_id: str, n: int, seed: int) -> int:
    """Play ``n`` rounds (craps: games) through the real engine driven by autoplay."""
    fam = {"craps": craps, "sicbo": sicbo, "roulette": roulette}[family]
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    for _ in range(n):
        g = fam.new_game(variant)  # type: ignore[attr-defined]
        while not g.is_over:
            need = g.needs()
            if need is None:
                action = fam.autoplay(g, 0)  # type: ignore[attr-defined]
                assert action is not None
                g.apply(action)
            elif need.kind is NeedKind.DICE:
                g.apply(RollDice(faces=tuple(rng.randint(1, 6) for _ in range(need.count))))
            else:
                pockets = g.view(None)["wheel"]
                g.apply(SpinResult(number=pockets[rng.randrange(len(pockets))]))
    return n


def mean_ci(total: int, n: int) -> tuple[float, float, float]:
    """Mean and 99.9% interval of +1/-1 outcomes summing to ``total``."""
    mean = total / n
    se = math.sqrt(max(1 - mean * mean, 0.0) / n)
    return mean, mean - Z999 * se, mean + Z999 * se


SpeedRow = tuple[str, str, float]  # (game, simulator, rounds/s)
NaiveCheck = tuple[str, int, float, float, float, float]  # (bet, n, exact, mean, lo, hi)
CheckRow = tuple[str, int, int, list[str], float]  # (table, bets, rounds, misses, seconds)


def craps_speed(
    n_speed: int, n_naive: int, seeds: Iterator[int], rng: random.Random
) -> tuple[list[SpeedRow], NaiveCheck]:
    """The pass line: NumPy simulator, naive peer, engine; and the peer's own mean."""
    craps_v = get_variant("craps-pinnacle")
    table = craps_v.rules.paytable
    fast = median_rate(
        lambda: simulate_bet((BetKey(Kind.PASS), None), table, n_speed, next(seeds)).rounds
    )
    naive = median_rate(lambda: naive_pass(rng, n_naive)[1])
    eng = median_rate(lambda: engine_rounds("craps", "craps-pinnacle", 5_000, next(seeds)))
    rows = [
        ("craps", "games.craps.simulate, pass line decisions (NumPy)", fast),
        ("craps", "naive peer: pass line, random.randint, pure Python", naive),
        ("craps", "engine + autoplay, crap games (pass + 1x odds)", eng),
    ]
    total, n = naive_pass(random.Random(7), 2_000_000)
    check = ("craps pass line (naive peer)", n, -float(craps.house_edge(craps_v)["pass"].edge),
             *mean_ci(total, n))  # fmt: skip
    return rows, check


def sicbo_speed(
    n_speed: int, n_naive: int, seeds: Iterator[int], rng: random.Random
) -> tuple[list[SpeedRow], NaiveCheck]:
    """Every sic bo bet on the same rolls, the naive small, the engine; the peer's mean."""
    sicbo_v = get_variant("sicbo-macau")
    nbets = len(sicbo.house_edge(sicbo_v))
    fast = median_rate(lambda: sicbo.simulate(sicbo_v, n_speed, next(seeds)).rounds)
    naive = median_rate(lambda: naive_small(rng, n_naive)[1])
    eng = median_rate(lambda: engine_rounds("sicbo", "sicbo-macau", 20_000, next(seeds)))
    rows = [
        ("sic bo", f"games.sicbo.simulate, rolls with all {nbets} bets settled (NumPy)", fast),
        ("sic bo", "naive peer: small, random.randint, pure Python", naive),
        ("sic bo", "engine + autoplay, rounds", eng),
    ]
    total, n = naive_small(random.Random(8), 2_000_000)
    check = ("sic bo small (naive peer)", n, -float(sicbo.house_edge(sicbo_v)["small"].edge),
             *mean_ci(total, n))  # fmt: skip
    return rows, check


def roulette_speed(
    n_speed: int, n_naive: int, seeds: Iterator[int], rng: random.Random
) -> tuple[list[SpeedRow], NaiveCheck]:
    """Every single-zero bet on the same spins, the naive red, the engine; the peer's mean."""
    single = get_variant("roulette-single-zero")
    nbets = len(roulette.house_edge(single))
    fast = median_rate(lambda: roulette.simulate(single, n_speed, next(seeds)).rounds)
    naive = median_rate(lambda: naive_red(rng, n_naive)[1])
    eng = median_rate(
        lambda: engine_rounds("roulette", "roulette-single-zero", 20_000, next(seeds))
    )
    rows = [
        ("roulette", f"games.roulette.simulate, spins with all {nbets} bets settled (NumPy)", fast),
        ("roulette", "naive peer: red, random.randint, pure Python", naive),
        ("roulette", "engine + autoplay, rounds", eng),
    ]
    total, n = naive_red(random.Random(9), 2_000_000)
    check = ("roulette single-zero red (naive peer)", n,
             -float(roulette.house_edge(single)["red"].edge), *mean_ci(total, n))  # fmt: skip
    return rows, check


def edge_checks(rounds: int) -> tuple[list[CheckRow], list[tuple[float, str]]]:
    """Every bet of every table simulated ``rounds`` times against its exact edge.

    Returns a row per table (the bets outside their 99.9% interval) and every bet's |z|.
    """
    check_rows: list[CheckRow] = []
    worst: list[tuple[float, str]] = []
    for fam, variant_id in [
        (craps, "craps-pinnacle"),
        (sicbo, "sicbo-macau"),
        (roulette, "roulette-single-zero"),
        (roulette, "roulette-double-zero"),
        (roulette, "roulette-la-partage"),
    ]:
        v = get_variant(variant_id)
        edges = fam.house_edge(v)  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        result = fam.simulate(v, rounds, seed=20261130)  # type: ignore[attr-defined]
        secs = time.perf_counter() - t0
        misses = []
        for name, sim in result.bets.items():
            exact = -float(edges[name].edge)
            z = (sim.mean - exact) / sim.std_error if sim.std_error else 0.0
            worst.append((abs(z), f"{variant_id} {name}"))
            if not sim.ci_low <= exact <= sim.ci_high:
                misses.append(f"{name} (z = {z:+.2f})")
        check_rows.append((variant_id, len(result.bets), rounds, misses, secs))
    return check_rows, worst


def report(
    cmd: str,
    rounds: int,
    speed_rows: list[SpeedRow],
    check_rows: list[CheckRow],
    worst: list[tuple[float, str]],
    naive_checks: list[NaiveCheck],
) -> str:
    """The results file: speeds against the naive peers, the edge check, the peers' means."""
    base = {g: r for g, label, r in speed_rows if label.startswith("naive")}
    lines = [
        "## Dice and wheel: craps, sic bo, roulette",
        "",
        f"Command: {cmd}  ",
        f"Machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, numpy {np.__version__}, 2 shared cores (noisy); "
        "one core used.",
        "",
        "| game | simulator | rounds/s (median of 3) | ratio to naive peer |",
        "|---|---|---:|---:|",
    ]
    for game, label, rate in speed_rows:
        ratio = rate / base[game]
        shown = f"{ratio:.1f}x" if ratio >= 1 else f"{ratio:.3f}x"
        lines.append(f"| {game} | {label} | {rate:,.0f} | {shown} |")
    lines += [
        "",
        'A craps "round" is one bet made and played to its settlement (3.38 rolls on',
        "average for the pass line); sic bo and roulette rounds settle every bet on the",
        "layout at once, so their NumPy rate counts rolls (spins), each settling all bets.",
        "",
        f"Edge check: every bet simulated over {rounds:,} rounds; the exact edge",
        "(fractions.Fraction) must lie inside the simulation's 99.9% interval:",
        "",
        "| table | bets | rounds per bet | inside 99.9% interval | simulate time |",
        "|---|---:|---:|---|---:|",
    ]
    for vid, nb, n_rounds, misses, secs in check_rows:
        inside = (
            "all" if not misses else f"{nb - len(misses)} of {nb}; outside: {', '.join(misses)}"
        )
        lines.append(f"| {vid} | {nb} | {n_rounds:,} | {inside} | {secs:.1f} s |")
    total_bets = sum(r[1] for r in check_rows)
    worst.sort(reverse=True)
    lines += [
        "",
        f"{total_bets} intervals in all (about {total_bets / 1000:.1f} misses expected by chance "
        f"at 99.9%); largest deviations: "
        + ", ".join(f"{name} |z| = {z:.2f}" for z, name in worst[:3])
        + ".",
        "",
        "Naive peers as an independent cross-check (their own rules, Python's Mersenne Twister):",
        "",
        "| bet | rounds | exact return | peer mean | 99.9% interval | inside |",
        "|---|---:|---:|---:|---|---|",
    ]
    for label, n, exact, mean, lo, hi in naive_checks:
        ok = "yes" if lo <= exact <= hi else "NO"
        lines.append(
            f"| {label} | {n:,} | {exact:.6f} | {mean:.6f} | [{lo:.6f}, {hi:.6f}] | {ok} |"
        )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10_000_000, help="rounds per bet in the check")
    ap.add_argument("--speed-rounds", type=int, default=1_000_000)
    ap.add_argument("--naive-rounds", type=int, default=200_000)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "dice.md"))
    args = ap.parse_args()
    cmd = "`.venv/bin/python bench/bench_dice.py" + (
        f" --rounds {args.rounds}`" if args.rounds != 10_000_000 else "`"
    )

    n_speed, n_naive = args.speed_rounds, args.naive_rounds
    seeds = iter(range(1000, 2000))  # one seed per timed run, in order
    rng = random.Random(1)  # the naive peers' timed runs share one generator, in order
    speed_rows: list[SpeedRow] = []
    naive_checks: list[NaiveCheck] = []
    for game in (craps_speed, sicbo_speed, roulette_speed):
        rows, check = game(n_speed, n_naive, seeds, rng)
        speed_rows += rows
        naive_checks.append(check)

    check_rows, worst = edge_checks(args.rounds)
    text = report(cmd, args.rounds, speed_rows, check_rows, worst, naive_checks)
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
