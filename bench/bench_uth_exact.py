"""Ultimate Texas Hold'em best play, exact, and a simulation of best play around it.

Run: ``.venv/bin/python bench/bench_uth_exact.py [--rounds 10000000] [--build]``

``--build`` runs the whole exact enumeration of :mod:`games.holdem.uth_exact` (every
decision best, from exact expected values; 1,755 flop classes, minutes) and writes
``games/holdem/data/uth_best.json`` (the sums per hole class, a check sum per flop class,
the command). Without it the shipped file is read.

Then it simulates ``--rounds`` rounds of best play: the flop class drawn by its size,
the other six cards (hole, turn and river, dealer's two) dealt at random from the 49
left; the player's decisions are best play's (4x by the shipped hole classes, the flop
and river decisions from :func:`games.holdem.uth_exact.flop_decisions`), the outcome is
scored card by card (both hands ranked, the dealer's qualifier, the blind table), not
from the enumeration's counts. It checks the exact edge lies inside the simulation's
99.9% interval, and does the same for the Trips bet (exact over the 133,784,560
seven-card hands, :func:`games.holdem.trips.trips_edge`) on the same deals.

Writes bench/results/uth_exact.md. ``--check-trips`` instead counts, over every flop
class, the river folds of best play that change the Trips pay
(:func:`games.holdem.uth_exact.trips_fold_changes`; none, so the never-fold count is
the exact Trips edge under best play) and writes bench/results/uth_trips_folds.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

import games.holdem as he  # noqa: E402
from bench._common import machine  # noqa: E402
from games.core.figures import BetSimulation  # noqa: E402
from games.holdem import uth_exact as ux  # noqa: E402
from games.holdem.rules import HoldemRules  # noqa: E402
from games.holdem.trips import trips_edge, trips_nets  # noqa: E402
from games.poker.batch import categories, rank_batch  # noqa: E402
from games.sim import bet_statistics, contains  # noqa: E402

DATA = ROOT / "games" / "holdem" / "data" / "uth_best.json"
VARIANT = next(v for v in he.VARIANTS if v.id == "ultimate-texas-holdem")
PUBLISHED = json.loads((ROOT / "tests" / "data" / "holdem" / "published.json").read_text())
F64 = npt.NDArray[np.float64]


def build(command: str) -> ux.BestPlay:
    t0 = time.perf_counter()
    result = ux.best_play(VARIANT.rules)
    data = ux.to_data(result, VARIANT.rules, command)
    DATA.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA} in {time.perf_counter() - t0:.0f} s: edge {float(result.edge):.5%}")
    return result


def _blind(rules: HoldemRules) -> F64:
    out = np.zeros(11)
    for cat, r in rules.blind.items():
        out[cat] = r.num / r.den
    return out


def play_flop(
    rules: HoldemRules, flop: tuple[int, int, int], bet4: set[int], n: int, rng: np.random.Generator
) -> tuple[F64, F64]:
    """``n`` rounds of best play on one flop: the ante nets and the Trips nets."""
    lay = ux._layout()
    rest, bet2, river = ux.flop_decisions(rules, flop)
    pos = np.argsort(rng.random((n, 49)), axis=1)[:, :6]
    cards = rest[pos]
    hole, tr, dealer = np.sort(pos[:, :2], 1), np.sort(pos[:, 2:4], 1), cards[:, 4:]
    pair_id = np.full((49, 49), -1, dtype=np.int64)
    pair_id[lay.pairs[:, 0], lay.pairs[:, 1]] = np.arange(len(lay.pairs))
    h_id, t_id = pair_id[hole[:, 0], hole[:, 1]], pair_id[tr[:, 0], tr[:, 1]]
    mult = np.where(np.isin(ux.hole_class(cards[:, :2]), list(bet4)), 4.0, 0.0)
    mult = np.where((mult == 0) & bet2[h_id], 2.0, mult)
    late = river[t_id, lay.kpos[t_id, h_id]]
    mult = np.where((mult == 0) & late, 1.0, mult)
    board = np.concatenate([np.broadcast_to(np.array(flop), (n, 3)), cards[:, 2:4]], axis=1)
    p = rank_batch(np.concatenate([cards[:, :2], board], 1), validate=False)
    d = rank_batch(np.concatenate([dealer, board], 1), validate=False)
    qual = (d >= rules.qualifier).astype(np.float64)
    win = mult + qual + _blind(rules)[categories(p)]
    value = np.where(p > d, win, np.where(p < d, -mult - qual - 1.0, 0.0))
    ante = np.where(mult > 0, value, -2.0)
    trips = trips_nets(rules, cards[:, :2], board, folded=mult == 0)
    return ante, trips


def simulate_best(result: ux.BestPlay, rounds: int, seed: int) -> dict[str, BetSimulation]:
    rng = np.random.default_rng(seed)
    classes = ux.flop_classes()
    weights = np.array([w for _, w in classes], dtype=np.float64)
    counts = rng.multinomial(rounds, weights / weights.sum())
    bet4 = set(result.bet4_classes())
    tallies: dict[str, dict[float, int]] = {"ante": {}, "trips": {}}
    for (flop, _), n in zip(classes, counts.tolist(), strict=True):
        if not n:
            continue
        nets_of = play_flop(VARIANT.rules, flop, bet4, n, rng)
        for bet, nets in zip(("ante", "trips"), nets_of, strict=True):
            values, c = np.unique(nets, return_counts=True)
            t = tallies[bet]
            for v, k in zip(values.tolist(), c.tolist(), strict=True):
                t[v] = t.get(v, 0) + k
    return {b: bet_statistics(rounds, list(t.items())) for b, t in tallies.items()}


def check_trips(out: Path) -> int:
    """Over every flop class: the river folds of best play that change the Trips pay."""
    machine_line = machine(numpy=True, load=True)
    t0 = time.perf_counter()
    total = 0
    for flop, weight in ux.flop_classes():
        total += weight * ux.trips_fold_changes(VARIANT.rules, flop)
    lines = [
        "## UTH Trips: does best play ever fold a hand rule 6 pays otherwise? "
        "(bench/bench_uth_exact.py --check-trips)\n",
        "Command (from the repo root):\n",
        "    .venv/bin/python bench/bench_uth_exact.py --check-trips\n",
        f"Machine: {machine_line}.\n",
        f"Over all 1,755 flop classes (every hole, turn and river; {time.perf_counter() - t0:.0f}"
        f" s): {total:,} (hole, board) situations where best play folds on the river and the "
        "Trips pay of the player's seven cards differs from the board's own. "
        + (
            "So the never-fold count is the exact Trips edge under best play."
            if total == 0
            else "The never-fold count is NOT exact under best play."
        ),
    ]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0 if total == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--build", action="store_true")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "uth_exact.md")
    ap.add_argument("--check-trips", action="store_true")
    args = ap.parse_args()
    if args.check_trips:
        return check_trips(ROOT / "bench" / "results" / "uth_trips_folds.md")
    command = "python bench/bench_uth_exact.py --build"
    machine_line = machine(numpy=True, load=True)
    t0 = time.perf_counter()
    result = build(command) if args.build else ux.packaged_result()[0]
    exact_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    sims = simulate_best(result, args.rounds, args.seed)
    sim_s = time.perf_counter() - t0
    edges = {"ante": result.edge, "trips": trips_edge(VARIANT.rules)}
    published = {"ante": PUBLISHED["uth_best_edge"], "trips": PUBLISHED["uth_trips_edge"]}
    lines = [
        "## Ultimate Texas Hold'em best play, exact (bench/bench_uth_exact.py)\n",
        "Command (from the repo root):\n",
        f"    .venv/bin/python bench/bench_uth_exact.py --rounds {args.rounds}"
        + (" --build" if args.build else "")
        + "\n",
        f"Machine: {machine_line}.\n",
        f"Exact: {'built' if args.build else 'read'} in {exact_s:.0f} s; best play bets 4x "
        f"with {len(result.bet4_classes())} of the 169 hole classes. Simulation of best play: "
        f"{args.rounds:,} rounds, seed {args.seed}, {sim_s:.0f} s.\n",
        "| bet | exact edge | simulated | 99.9% interval | published | exact inside |",
        "|---|---:|---:|---|---:|---|",
    ]
    ok = True
    for bet, sim in sims.items():
        inside = contains(sim, edges[bet])
        ok &= inside
        lines.append(
            f"| {bet} | {float(edges[bet]):.4%} | {-sim.mean:.4%} | "
            f"[{-sim.ci_high:.4%}, {-sim.ci_low:.4%}] | {published[bet]:.2%} | "
            f"{'yes' if inside else 'NO'} |"
        )
    lines.append(
        f"\nExact ante edge as a fraction: {edges['ante']} (per unit of ante); "
        f"Trips: {edges['trips']}."
    )
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
