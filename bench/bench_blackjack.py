"""Blackjack: simulated rounds/s against a naive baseline, and the edge-in-interval check.

Run: ``.venv/bin/python bench/bench_blackjack.py [--rounds 10000000]``

* games.blackjack.simulate (NumPy, vectorised) rounds/s: median of 3 runs of 10^6 rounds;
* the naive peer baseline, the way a hobby simulator does it: shuffle a fresh 312-card shoe
  with ``random.shuffle`` every round and play the same chart card by card in pure Python
  (median of 3 runs of 20,000 rounds); and the real engine driven by autoplay (rounds/s);
* the check: the Pinnacle main-bet edge from the recursive analysis, the exact insurance
  edge and the exact Buster Bet edge must fall inside the 99.9% interval of a ``--rounds``
  simulation (default 10^7).

Writes the figures as markdown to bench/results/blackjack.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.blackjack import VARIANTS, autoplay, new_game, simulate
from games.blackjack.exact import buster_edge, insurance_edge, main_edge
from games.blackjack.hand import total_of_points
from games.blackjack.strategy import choose, load_chart
from games.core import DealCard, deck

BY_ID = {v.id: v for v in VARIANTS}


def naive_round(rng: random.Random, chart_name: str) -> float:
    """One Pinnacle round, naive style: a full shuffle of 312 cards, then play by the chart."""
    shoe = [min(r, 10) if r < 14 else 1 for r in range(2, 15) for _ in range(24)]
    rng.shuffle(shoe)
    chart = load_chart(chart_name)
    p = [shoe.pop(), shoe.pop()]
    up, hole = shoe.pop(), shoe.pop()
    d_nat = {up, hole} == {1, 10}
    p_nat = sorted(p) == [1, 10]
    if d_nat or p_nat:
        return 0.0 if d_nat and p_nat else (1.5 if p_nat else -1.0)
    hands = [(p, 1.0, False)]
    done: list[tuple[list[int], float]] = []
    while hands:
        cards, stake, split = hands.pop(0)
        if len(cards) == 1:
            cards.append(shoe.pop())
            if cards[0] == 1:
                done.append((cards, stake))
                continue
        while True:
            total, soft = total_of_points(cards)
            if total >= 21:
                break
            two = len(cards) == 2
            pair = cards[0] if two and cards[0] == cards[1] else None
            d = choose(
                chart,
                total,
                soft,
                pair,
                up,
                can_double=two,
                can_split=pair is not None and not split,
                can_surrender=False,
            )
            if d == "stand":
                break
            if d == "split":
                hands.append(([cards[1]], stake, True))
                cards, split = [cards[0]], True
                cards.append(shoe.pop())
                if cards[0] == 1:
                    break
                continue
            cards.append(shoe.pop())
            if d == "double":
                stake *= 2
                break
        done.append((cards, stake))
    d_cards = [up, hole]
    while True:
        t, _ = total_of_points(d_cards)
        if t >= 17:
            break
        d_cards.append(shoe.pop())
    dt, _ = total_of_points(d_cards)
    net = 0.0
    for cards, stake in done:
        t, _ = total_of_points(cards)
        if t > 21 or (dt <= 21 and t < dt):
            net -= stake
        elif dt > 21 or t > dt:
            net += stake
    return net


def engine_rounds(n: int, seed: int) -> float:
    variant = BY_ID["blackjack-pinnacle"]
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        game = new_game(variant)
        shoe = list(deck()) * 6
        rng.shuffle(shoe)
        while not game.is_over:
            if game.needs() is not None:
                game.apply(DealCard(card=shoe.pop()))
            else:
                action = autoplay(game, 0)
                assert action is not None
                game.apply(action)
    return n / (time.perf_counter() - start)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "blackjack.md"))
    args = ap.parse_args()
    pin = BY_ID["blackjack-pinnacle"]
    c21 = BY_ID["blackjack-21st-century"]

    ours = []
    for i in range(3):
        t = time.perf_counter()
        simulate(pin, 1_000_000, seed=100 + i)
        ours.append(1_000_000 / (time.perf_counter() - t))
    naive = []
    for i in range(3):
        rng = random.Random(i)
        t = time.perf_counter()
        for _ in range(20_000):
            naive_round(rng, "s17-das")
        naive.append(20_000 / (time.perf_counter() - t))
    engine = statistics.median(engine_rounds(2_000, s) for s in range(3))
    ours_m, naive_m = statistics.median(ours), statistics.median(naive)

    t = time.perf_counter()
    edge = main_edge(pin.rules)
    t_exact = time.perf_counter() - t
    t = time.perf_counter()
    big = simulate(pin, args.rounds, seed=20261130)
    t_big = time.perf_counter() - t
    big21 = simulate(c21, args.rounds, seed=20261131)
    rows = [
        ("Pinnacle main (recursive, float64)", -edge, big.bets["main"]),
        ("Pinnacle insurance (exact)", -float(insurance_edge(pin.rules)), big.bets["insurance"]),
        ("21st Century Buster Bet (exact)", -float(buster_edge(c21.rules)), big21.bets["buster"]),
        (
            "21st Century insurance (exact)",
            -float(insurance_edge(c21.rules)),
            big21.bets["insurance"],
        ),
    ]
    lines = [
        "## Blackjack",
        "",
        f"Command: `.venv/bin/python bench/bench_blackjack.py --rounds {args.rounds}`  ",
        f"Machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, 2 shared cores (noisy); one core used.",
        "",
        "| simulator (Pinnacle rules, basic strategy) | rounds/s (median of 3) | ratio |",
        "|---|---:|---:|",
        f"| games.blackjack.simulate (NumPy, vectorised) | {ours_m:,.0f} | "
        f"{ours_m / naive_m:,.1f}x |",
        f"| naive peer baseline (random.shuffle of 312 cards per round, pure Python) "
        f"| {naive_m:,.0f} | 1.0x |",
        f"| the rules engine driven by autoplay (events, checks; for play, not simulation) "
        f"| {engine:,.0f} | {engine / naive_m:,.2f}x |",
        "",
        f"Edge check over {args.rounds:,} simulated rounds per table "
        f"(Pinnacle: {t_big:.1f} s; recursive analysis {t_exact:.1f} s):",
        "",
        "| bet | computed return | simulated mean | 99.9% interval | rounds | inside |",
        "|---|---:|---:|---|---:|---|",
    ]
    ok = True
    for name, exact, sim in rows:
        inside = sim.ci_low <= exact <= sim.ci_high
        ok &= inside
        lines.append(
            f"| {name} | {exact:+.6f} | {sim.mean:+.6f} | [{sim.ci_low:+.6f}, {sim.ci_high:+.6f}] "
            f"| {sim.rounds:,} | {'yes' if inside else 'NO'} |"
        )
    lines.append(
        f"| 21st Century main (simulated only) | n/a | {big21.bets['main'].mean:+.6f} | "
        f"[{big21.bets['main'].ci_low:+.6f}, {big21.bets['main'].ci_high:+.6f}] | "
        f"{big21.bets['main'].rounds:,} | n/a |"
    )
    lines.append("")
    text = "\n".join(lines)
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
