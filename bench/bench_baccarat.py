"""baccarat and Casino War: exact enumeration time, simulation speed, exact vs simulation.

Run: ``.venv/bin/python bench/bench_baccarat.py [--repeat 5] [--rounds 10000000]``

Side by side, in one run (medians of ``--repeat`` runs each):

* exact enumeration of a full 6-deck and 8-deck shoe (``games.baccarat.exact.coup_counts``,
  cache bypassed) against a plain-Python enumeration of the same point-value grid
  (nested loops over the four first cards, then the third cards), which is the naive peer;
* simulated coups/s: the vectorised NumPy simulation (``games.baccarat.simulate``) against
  a plain-Python loop (``random.Random.sample`` of six card positions and the tableau as
  a dict), the usual way a simulation is written; the pure engine driven round by round
  (``BaccaratRound`` with the scripted player) for scale;
* the acceptance check: every bet's exact return lies inside the simulation's 99.9%
  interval over ``--rounds`` (at least 10^7) coups, for each baccarat and war table.

Targets (issue 4): exact enumeration under 0.1 s per shoe; at least 10^6 simulated coups/s
on one core. Writes bench/results/baccarat.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games.baccarat as bac  # noqa: E402
import games.war as war  # noqa: E402
from bench._common import machine, median_seconds  # noqa: E402
from games.baccarat.exact import composition, coup_counts  # noqa: E402
from games.baccarat.rules import banker_draws  # noqa: E402
from games.baccarat.simulate import tally  # noqa: E402
from games.core.cards import Card  # noqa: E402
from games.core.records import DealCard  # noqa: E402
from games.war.exact import war_odds  # noqa: E402

#: baccarat point of rank index 0..12 (deuce .. ace)
POINT_OF_RANK = [2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1]
DRAW = {(b, p): banker_draws(b, p) for b in range(10) for p in [*range(10), None]}


def naive_enumeration(decks: int) -> tuple[int, int, int]:
    """Plain-Python exact counts (player, banker, tie wins over six-card sequences)."""
    counts = list(composition(decks))
    n = sum(counts)
    pw = bw = tie = 0
    for a in range(10):
        wa = counts[a]
        counts[a] -= 1
        for b in range(10):
            wb = wa * counts[b]
            counts[b] -= 1
            for c in range(10):
                wc = wb * counts[c]
                counts[c] -= 1
                for d in range(10):
                    w4 = wc * counts[d]
                    if not w4:
                        continue
                    counts[d] -= 1
                    p2, b2 = (a + c) % 10, (b + d) % 10
                    if p2 >= 8 or b2 >= 8 or (p2 >= 6 and not DRAW[(b2, None)]):
                        w = w4 * (n - 4) * (n - 5)
                        pw += w * (p2 > b2)
                        bw += w * (b2 > p2)
                        tie += w * (p2 == b2)
                    elif p2 >= 6:  # player stands, banker draws
                        for e in range(10):
                            w = w4 * counts[e] * (n - 5)
                            bf = (b2 + e) % 10
                            pw += w * (p2 > bf)
                            bw += w * (bf > p2)
                            tie += w * (p2 == bf)
                    else:
                        for e in range(10):
                            w5 = w4 * counts[e]
                            counts[e] -= 1
                            pf = (p2 + e) % 10
                            if DRAW[(b2, e)]:
                                for f in range(10):
                                    w = w5 * counts[f]
                                    bf = (b2 + f) % 10
                                    pw += w * (pf > bf)
                                    bw += w * (bf > pf)
                                    tie += w * (pf == bf)
                            else:
                                w = w5 * (n - 5)
                                pw += w * (pf > b2)
                                bw += w * (b2 > pf)
                                tie += w * (pf == b2)
                            counts[e] += 1
                    counts[d] += 1
                counts[c] += 1
            counts[b] += 1
        counts[a] += 1
    return pw, bw, tie


def naive_simulation(decks: int, rounds: int, seed: int) -> tuple[int, int, int]:
    """A plain-Python loop: sample six positions, play the coup by the tableau."""
    rng = random.Random(seed)
    values = [POINT_OF_RANK[(i % 52) // 4] for i in range(52 * decks)]
    pw = bw = 0
    for _ in range(rounds):
        v = [values[i] for i in rng.sample(range(52 * decks), 6)]
        p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
        if p < 8 and b < 8:
            if p <= 5:
                third = v[4]
                p = (p + third) % 10
                if DRAW[(b, third)]:
                    b = (b + v[5]) % 10
            elif b <= 5:
                b = (b + v[4]) % 10
        pw += p > b
        bw += b > p
    return pw, bw, rounds - pw - bw


def engine_rounds(rounds: int, seed: int) -> int:
    """Drive the pure engine with the scripted player and a shuffled shoe per round."""
    rng = random.Random(seed)
    variant = bac.VARIANTS[0]
    shoe = [Card.from_index(i % 52) for i in range(52 * variant.rules.decks)]
    for _ in range(rounds):
        game = bac.new_game(variant)
        cards = iter(rng.sample(shoe, 6))
        while not game.is_over:
            if game.needs() is not None:
                game.apply(DealCard(card=next(cards)))
            else:
                action = bac.autoplay(game, 0)
                assert action is not None
                game.apply(action)
    return rounds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "baccarat.md")
    args = ap.parse_args()
    if args.rounds < 10_000_000:
        print("note: the acceptance check needs --rounds >= 10000000", file=sys.stderr)
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text)
        lines.append(text)

    say("## baccarat and Casino War")
    say()
    say(f"Command: `.venv/bin/python bench/bench_baccarat.py --repeat {args.repeat} "
        f"--rounds {args.rounds}`  ")  # fmt: skip
    say(f"Machine: {machine()}  ")
    try:
        load = Path("/proc/loadavg").read_text().split()[0]
        say(f"Load average at start: {load} (other engineers' jobs share the 2 cores)  ")
    except OSError:
        pass
    say(f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; medians of "
        f"{args.repeat} runs, one process, one core.")  # fmt: skip
    say()
    say("### Exact enumeration of a full shoe (target < 0.1 s)")
    say()
    say("| shoe | croupier (NumPy int64 grid) | plain-Python loops (peer) | ratio |")
    say("|---|---|---|---|")
    for decks in (6, 8):
        ours = median_seconds(lambda d=decks: coup_counts.__wrapped__(d), args.repeat)
        naive = median_seconds(lambda d=decks: naive_enumeration(d), max(1, args.repeat // 2))
        c = coup_counts(decks)
        if naive_enumeration(decks) != (c.player, c.banker, c.tie):
            raise SystemExit("the plain-Python enumeration disagrees")
        say(f"| {decks} decks | {ours * 1000:.1f} ms | {naive * 1000:.0f} ms | "
            f"{naive / ours:.0f}x |")  # fmt: skip
    war_t = median_seconds(lambda: war_odds.__wrapped__(6), args.repeat)
    say(f"| Casino War, 6 decks | {war_t * 1000:.2f} ms | | |")
    say()
    say("### Simulated coups per second, one core (target >= 1,000,000)")
    say()
    n_fast, n_naive, n_engine = 2_000_000, 200_000, 5_000
    fast = median_seconds(lambda: tally(6, n_fast, 1), args.repeat)
    naive = median_seconds(lambda: naive_simulation(6, n_naive, 1), max(1, args.repeat // 2))
    eng = median_seconds(lambda: engine_rounds(n_engine, 1), max(1, args.repeat // 2))
    wt = median_seconds(lambda: war.simulate(war.VARIANTS[0], n_fast, 1), args.repeat)
    say("| what | rounds/s | vs plain Python |")
    say("|---|---|---|")
    say(f"| croupier vectorised baccarat (6 decks) | {n_fast / fast:,.0f} | "
        f"{(n_fast / fast) / (n_naive / naive):.0f}x |")  # fmt: skip
    say(f"| plain-Python loop, random.sample (peer) | {n_naive / naive:,.0f} | 1x |")
    say(f"| pure engine + scripted player, round by round | {n_engine / eng:,.0f} | |")
    say(f"| croupier vectorised Casino War (6 decks) | {n_fast / wt:,.0f} | |")
    say()
    say(f"### Exact house edge against simulation, {args.rounds:,} rounds per table")
    say()
    say("| table | bet | exact edge | simulated edge | 99.9% interval | inside |")
    say("|---|---|---|---|---|---|")
    failures = 0
    fams = [(bac, v) for v in bac.VARIANTS] + [(war, v) for v in war.VARIANTS]
    for seed, (fam, variant) in enumerate(fams, start=2026):
        sim = fam.simulate(variant, args.rounds, seed)
        exact = fam.house_edge(variant)
        for bet, s in sim.bets.items():
            ret = -float(exact[bet].edge)
            inside = s.ci_low < ret < s.ci_high
            failures += not inside
            say(f"| {variant.id} | {bet} | {-ret:.4%} | {-s.mean:.4%} | "
                f"{-s.ci_high:.4%} .. {-s.ci_low:.4%} | {'yes' if inside else 'NO'} |")  # fmt: skip
    say()
    say(
        "Every exact figure inside its interval: " + ("yes" if not failures else f"NO ({failures})")
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
