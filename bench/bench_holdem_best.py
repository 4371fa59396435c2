"""Pinnacle Hold'em best play: the strategy against exact call EVs and the published edge.

Run: ``.venv/bin/python bench/bench_holdem_best.py [--rounds 10000000] [--situations 12000]``

In one run:

* simulates ``--rounds`` rounds of ``pinnacle-holdem`` with the strategy of
  :func:`games.holdem.strategy.casino_call` (vectorised, :func:`games.holdem.simulate`)
  and checks that the published best-play ante edge (2.16%, tests/data/holdem/
  README.md) lies inside the simulation's 99.9% interval; reports the AA bonus
  edge under the same strategy (the bonus is lost on a fold);
* deals ``--situations`` random flop situations (seed 7, not the seed the table's
  suit corrections were fitted on) and computes the exact EV of calling for
  each (:func:`games.holdem.exact.call_total`, all 1,070,190 completions): how
  often the strategy makes the best decision, and the mean loss against best
  play (the exact cost of its mistakes, per round, with its standard error),
  the best-play call rate and a best-play edge estimate.

``--write-data`` instead only simulates ``--rounds`` rounds (``--seed``) and writes the
run to ``games/holdem/data/simulated.json`` (:mod:`games.core.shipped`), the figures
``croupier games house-edge pinnacle-holdem`` ships; run with ``--rounds 100000000``.

``--build-table`` instead rebuilds ``games/holdem/data/casino_call.json`` (the
22,308 rank-pattern totals and the six suit corrections; several minutes).

Writes bench/results/holdem_best.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import games.holdem as he  # noqa: E402
from bench._common import machine  # noqa: E402
from games.core.shipped import write_runs  # noqa: E402
from games.holdem.calltable import COMPLETIONS, fingerprint, packaged_table  # noqa: E402
from games.holdem.exact import build_totals, call_total, pattern_corrections  # noqa: E402
from games.holdem.simulate import ship_entries  # noqa: E402
from games.holdem.strategy import casino_call  # noqa: E402
from games.sim import contains, deal_cards  # noqa: E402

PUBLISHED = json.loads((ROOT / "tests" / "data" / "holdem" / "published.json").read_text())
TABLE = ROOT / "games" / "holdem" / "data" / "casino_call.json"
VARIANT = next(v for v in he.VARIANTS if v.id == "pinnacle-holdem")


def build_table() -> None:
    rules = VARIANT.rules
    t0 = time.perf_counter()
    totals = build_totals(rules)
    corrections = pattern_corrections(rules, totals)
    head = {
        "spec": 1,
        "rules": fingerprint(rules),
        "completions": COMPLETIONS,
        "built_by": "python bench/bench_holdem_best.py --build-table",
        "corrections": corrections,
    }
    text = json.dumps(head, indent=2)[:-2]
    text += ',\n  "totals": [' + ",".join(map(str, totals)) + "]\n}\n"
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE} ({len(totals)} totals) in {time.perf_counter() - t0:.0f} s")


def write_data(rounds: int, seed: int) -> None:
    """Ship the run behind ``croupier games house-edge pinnacle-holdem`` (simulated.json)."""
    t0 = time.perf_counter()
    path = write_runs(ROOT / "games" / "holdem" / "data", ship_entries(VARIANT, rounds, seed))
    print(f"wrote {path} ({rounds:,} rounds, seed {seed}) in {time.perf_counter() - t0:.0f} s")


@dataclass(frozen=True)
class ExactCheck:
    """The strategy against best play on random flop situations, from exact call EVs."""

    n: int  # situations
    seconds: float  # computing their exact EVs
    wrong: int  # situations where the strategy's decision is not the best one
    regret: float  # mean loss to best play per round, in antes
    regret_se: float
    call_rate: float  # the strategy's
    best_rate: float  # best play's
    best_mean: float  # best play's mean net, in antes
    best_se: float


def exact_check(n: int) -> ExactCheck:
    """``n`` seeded flop situations, each call's exact EV over all its completions."""
    cards = deal_cards(np.random.default_rng(7), n, 5)
    hole, flop = cards[:, :2], cards[:, 2:]
    t0 = time.perf_counter()
    ev = np.array(
        [call_total(VARIANT.rules, r[:2], r[2:])[0] for r in cards.tolist()], dtype=np.int64
    )
    exact_time = time.perf_counter() - t0
    call = casino_call(hole, flop)
    best = ev >= -COMPLETIONS
    chosen = np.where(call, ev, -COMPLETIONS)
    best_net = np.where(best, ev, -COMPLETIONS)
    regret = (best_net - chosen) / COMPLETIONS
    return ExactCheck(
        n=n,
        seconds=exact_time,
        wrong=int((call != best).sum()),
        regret=regret.mean(),
        regret_se=float(regret.std(ddof=1)) / math.sqrt(n),
        call_rate=call.mean(),
        best_rate=best.mean(),
        best_mean=float(best_net.mean()) / COMPLETIONS,
        best_se=float((best_net / COMPLETIONS).std(ddof=1)) / math.sqrt(n),
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--situations", type=int, default=12_000)
    ap.add_argument("--build-table", action="store_true")
    ap.add_argument(
        "--write-data",
        action="store_true",
        help="only simulate and ship the run as games/holdem/data/simulated.json",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "holdem_best.md")
    args = ap.parse_args()
    if args.build_table:
        build_table()
        return 0
    if args.write_data:
        write_data(args.rounds, args.seed)
        return 0
    if packaged_table().rules != fingerprint(VARIANT.rules):
        print("the packaged call table was built for other rules", file=sys.stderr)
        return 1

    t0 = time.perf_counter()
    sim = he.simulate(VARIANT, args.rounds, args.seed)
    sim_time = time.perf_counter() - t0
    ante, bonus = sim.bets["ante"], sim.bets["bonus"]
    published = PUBLISHED["casino_holdem_best_edge"]
    inside = contains(ante, Fraction(str(published)))

    x = exact_check(args.situations)
    n, exact_time, wrong = x.n, x.seconds, x.wrong

    command = "    .venv/bin/python bench/bench_holdem_best.py " + " ".join(sys.argv[1:])
    lines = [
        "## Pinnacle Hold'em best play (bench/bench_holdem_best.py)",
        "",
        f"Command (from the repo root):\n\n{command.rstrip()}\n",
        f"Machine: {machine(numpy=True)}.",
        "",
        f"Simulation: {args.rounds:,} rounds, seed {args.seed}, {sim_time:.0f} s "
        f"({args.rounds / sim_time:,.0f} rounds/s), strategy games.holdem.strategy.casino_call.",
        "",
        "| bet | simulated edge | 99.9% interval | published best play | |",
        "|---|---:|---|---:|---|",
        f"| ante | {-ante.mean:.4%} | [{-ante.ci_high:.4%}, {-ante.ci_low:.4%}] | "
        f"{published:.2%} | {'inside' if inside else 'OUTSIDE'} |",
        f"| AA bonus (lost on a fold) | {-bonus.mean:.4%} | "
        f"[{-bonus.ci_high:.4%}, {-bonus.ci_low:.4%}] | - | |",
        "",
        f"Exact check: {n:,} random flop situations (seed 7), the exact EV of calling over "
        f"all 1,070,190 completions of each ({exact_time:.0f} s, "
        f"{exact_time / n * 1000:.1f} ms a situation):",
        "",
        "| what | value |",
        "|---|---:|",
        f"| strategy's decision = best decision | {n - wrong:,} of {n:,} ({(n - wrong) / n:.2%}) |",
        f"| strategy's loss to best play, per round | {x.regret:.4%} of the ante "
        f"(standard error {x.regret_se:.4%}) |",
        f"| strategy's call rate | {x.call_rate:.2%} |",
        f"| best play's call rate | {x.best_rate:.2%} |",
        f"| best play's edge estimated from these situations | {-x.best_mean:.2%} "
        f"(standard error {x.best_se:.2%}) |",
        "",
        "The loss to best play is exact per situation (no completion sampling), so it "
        "measures the strategy against best play far more tightly than the simulation "
        "can: the simulated edge minus it estimates the best-play edge.",
        "",
    ]
    text = "\n".join(lines)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0 if inside else 1


if __name__ == "__main__":
    raise SystemExit(main())
