"""Caribbean Stud's exact best-play ante edge, against the published counts and a simulation.

Run: ``.venv/bin/python bench/bench_caribbean_exact.py [--rounds 10000000] [--write-data]``

In one run:

* times :func:`games.caribbean_stud.exact.deal_counts` (every player suit class x
  up card x dealer hand, by inclusion-exclusion) and the edges derived from it;
* the exact total loss of the best play with and without the up card, and of the
  published fixed strategies, beside the Wizard of Odds' totals over all
  19,933,230,517,200 deals (tests/data/caribbean_stud/published.json);
* simulates ``--rounds`` rounds (default 10^7) of the best play, with and without
  the up card, deciding from the exact code's :class:`CallTable`, and checks the
  exact edge lies inside each simulation's 99.9% interval;
* with ``--write-data``, writes games/caribbean_stud/data/exact.json, the figures
  :func:`games.caribbean_stud.house_edge` reports (the slow test recomputes them).

Writes bench/results/caribbean_exact.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

import games.caribbean_stud as cs  # noqa: E402
from bench._common import machine  # noqa: E402
from games.caribbean_stud import exact  # noqa: E402
from games.caribbean_stud.rules import StudRules, load_packaged, loads  # noqa: E402
from games.caribbean_stud.simulate import Decide, rules_of_thumb  # noqa: E402
from games.core.cards import DECK, parse_cards  # noqa: E402
from games.core.engine import Variant  # noqa: E402
from games.core.figures import BetSimulation  # noqa: E402
from games.poker.batch import categories  # noqa: E402
from games.poker.rank5 import rank5  # noqa: E402

PUBLISHED = ROOT / "tests" / "data" / "caribbean_stud" / "published.json"
DATA = ROOT / "games" / "caribbean_stud" / "data" / "exact.json"
I64 = npt.NDArray[np.int64]


def fixed_strategies(qualifier: int) -> dict[str, Decide]:
    """The Wizard of Odds' named strategies as row rules (their table's names)."""
    akj83 = rank5(parse_cards("Ah Kd Jc 8s 3h"))

    def by_rank(low: int) -> Decide:
        def decide(p: I64, r: I64, u: I64 | None) -> npt.NDArray[np.bool_]:
            out: npt.NDArray[np.bool_] = r >= low
            return out

        return decide

    def matching(p: I64, r: I64, u: I64 | None) -> npt.NDArray[np.bool_]:
        assert u is not None
        ak = (categories(r) == 0) & (r >= qualifier)
        match = (p // 4 == (u // 4)[:, None]).any(axis=1)
        out: npt.NDArray[np.bool_] = (categories(r) >= 1) | (ak & match)
        return out

    pair = rank5(parse_cards("2h 2d 3c 4s 5h"))
    return {
        "rules_of_thumb": rules_of_thumb,
        "akj83": by_rank(akj83),
        "matching_rank": matching,
        "pair_or_better": by_rank(pair),
        "ace_king_or_better": by_rank(qualifier),
        "raise_everything": by_rank(1),
    }


Row = tuple[str, Fraction, int | None]  # (strategy, exact total ante loss, published)
Sim = tuple[bool, exact.ExactEdge, exact.CallTable, BetSimulation, float, bool]


def exact_rows(
    counts: exact.DealCounts, rules: StudRules, want_loss: dict[str, int]
) -> tuple[exact.ExactEdge, exact.ExactEdge, float, list[Row]]:
    """Both best-play edges (timed) and every strategy's exact loss beside the published one."""
    t0 = time.perf_counter()
    best_up = exact.optimal_edge(counts, rules, True)
    best_no = exact.optimal_edge(counts, rules, False)
    t_edges = time.perf_counter() - t0
    rows: list[Row] = [
        ("best play, up card shown", best_up.loss, want_loss["perfect"]),
        ("best play, no up card", best_no.loss, None),
    ]
    for name, decide in fixed_strategies(rules.qualifier).items():
        loss = exact.strategy_edge(counts, rules, exact.decisions_of(counts, decide)).loss
        rows.append((name.replace("_", " "), loss, want_loss[name]))
    for name, got, want in rows:
        print(f"{name}: {got} (published {want})")
    return best_up, best_no, t_edges, rows


def simulate_best(
    variant: Variant[StudRules],
    counts: exact.DealCounts,
    best_up: exact.ExactEdge,
    best_no: exact.ExactEdge,
    rounds: int,
    seed: int,
) -> list[Sim]:
    """The best play simulated with and without the up card, against its exact edge."""
    rules = variant.rules
    sims: list[Sim] = []
    for upcard, best in ((True, best_up), (False, best_no)):
        table = exact.call_table(counts, rules, upcard)
        v = variant
        if not upcard:
            v = loads(
                (ROOT / "games/caribbean_stud/paytables/caribbean-stud.toml")
                .read_text(encoding="utf-8")
                .replace("dealer_shows_card = true", "dealer_shows_card = false")
            )
        t0 = time.perf_counter()
        res = cs.simulate(v, rounds, seed, decide=table.calls)
        t_sim = time.perf_counter() - t0
        a = res.bets["ante"]
        inside = a.ci_low < float(-best.edge) < a.ci_high
        sims.append((upcard, best, table, a, t_sim, inside))
        print(
            f"upcard={upcard}: sim {-a.mean:.5%} [{-a.ci_high:.5%}, {-a.ci_low:.5%}] "
            f"exact {float(best.edge):.5%} inside={inside} ({t_sim:.0f} s)"
        )
    return sims


def no_upcard_lines(
    counts: exact.DealCounts,
    rules: StudRules,
    best_no: exact.ExactEdge,
    want_loss: dict[str, int],
) -> list[str]:
    """Where the best play without the up card differs from raising on A-K-J-8-3 or better."""
    no_up = exact.optimal_decisions(counts, rules, False)[:, 0]
    akj83 = counts.rank >= rank5(parse_cards("Ah Kd Jc 8s 3h"))
    odd = np.flatnonzero(no_up != akj83)
    return [
        "",
        "The best play without the up card (decide on the five cards alone, values summed",
        "over the 47 possible up cards) loses "
        f"{_int(best_no.loss)}, {_int(want_loss['akj83'] - best_no.loss)} less than",
        '"raise on A-K-J-8-3 or better": both round to 5.316%. They differ on '
        f"{int(counts.weight[odd].sum()):,} hands ({len(odd)} suit classes):",
        ", ".join(
            " ".join(str(DECK[int(c)]) for c in counts.player[i][::-1])
            + (" call" if no_up[i] else " fold")
            for i in odd
        )
        + ".\n",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--write-data", action="store_true", help="write data/exact.json")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "caribbean_exact.md")
    args = ap.parse_args()
    published = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    want_loss: dict[str, int] = published["caribbean_total_loss"]
    variant = load_packaged("caribbean-stud")
    rules = variant.rules

    t0 = time.perf_counter()
    counts = exact.deal_counts(rules.qualifier)
    t_counts = time.perf_counter() - t0
    print(f"deal_counts: {t_counts:.1f} s, {len(counts.weight):,} player classes")
    best_up, best_no, t_edges, rows = exact_rows(counts, rules, want_loss)

    if args.write_data:
        entry = exact.figures_entry(counts, rules)
        doc = {"spec": 1, "entries": [entry]}
        DATA.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {DATA.relative_to(ROOT)}")

    sims = simulate_best(variant, counts, best_up, best_no, args.rounds, args.seed)

    lines = [
        "## Caribbean Stud: exact best-play ante edge (games/caribbean_stud/exact.py)\n",
        f"Command: `.venv/bin/python bench/bench_caribbean_exact.py --rounds {args.rounds}"
        f"{' --write-data' if args.write_data else ''}`  ",
        f"Machine: {machine(numpy=True)}\n",
        f"Exact count of all {exact.DEALS:,} deals (player hand x up card x 4 hidden dealer",
        f"cards) over {len(counts.weight):,} player suit classes: **{t_counts:.1f} s** for the",
        f"counts (`deal_counts`), {t_edges:.1f} s for both best-play edges.\n",
        "| strategy | total ante loss (ours, exact) | published (Wizard of Odds) | edge |",
        "|---|---:|---:|---:|",
    ]
    for name, got, want in rows:
        w = "-" if want is None else (f"{want:,}" + (" (equal)" if got == want else " **DIFFERS**"))
        lines.append(f"| {name} | {_int(got)} | {w} | {exact.percent(got / exact.DEALS, 4)}% |")
    lines += no_upcard_lines(counts, rules, best_no, want_loss)
    lines += [
        f"Simulation of {args.rounds:,} rounds of the best play (seed {args.seed}), deciding",
        "from `exact.call_table` (the exceptions to 'call with a pair or better'):\n",
        "| up card | exact edge | simulated edge | 99.9% interval | exact inside | table keys "
        "| sim time |",
        "|---|---:|---:|---|---|---:|---:|",
    ]
    for upcard, best, table, a, t_sim, inside in sims:
        lines.append(
            f"| {'shown' if upcard else 'not shown'} | {exact.percent(best.edge, 4)}% "
            f"| {-a.mean:.4%} | {-a.ci_high:.4%} .. {-a.ci_low:.4%} | {'yes' if inside else 'NO'} "
            f"| {len(table.keys):,} | {t_sim:.0f} s |"
        )
    text = "\n".join(lines) + "\n"
    args.out.write_text(text, encoding="utf-8")
    print(text)
    ok = all(s[-1] for s in sims) and all(w is None or g == w for _, g, w in rows)
    return 0 if ok else 1


def _int(x: Fraction) -> str:
    return f"{x.numerator:,}" if x.denominator == 1 else str(x)


if __name__ == "__main__":
    raise SystemExit(main())
