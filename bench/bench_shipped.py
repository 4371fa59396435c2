"""The simulated figures ``croupier games house-edge`` ships, checked by fresh runs (or rebuilt).

Run: ``.venv/bin/python bench/bench_shipped.py [--rounds 1000000]``
or   ``.venv/bin/python bench/bench_shipped.py --write-data blackjack caribbean_stud pai_gow``
(``video_poker``: European Slot Poker's long run)

Some figures need a player strategy and more than a count can give (21st Century
Blackjack's main bet, Oasis Poker's ante with its bought draws, the pai gow main bet
with the house way); they are simulations of 10^7 rounds made once and shipped as
``games/<family>/data/simulated.json`` (:mod:`games.core.shipped`). The Pinnacle
blackjack tables' main bet is an approximate analysis, checked by such a run.

* default: for every figure :func:`house_edge` reports with a run behind it, an
  independent run of ``--rounds`` rounds (seed: the shipped seed + 1) of the same
  strategy; one row each: the figure, the shipped run's rounds and 99.9% interval,
  the fresh run's interval, and whether the figure lies in both (an analysis figure
  must lie in the shipped interval too). Writes bench/results/shipped.md.
* ``--write-data FAMILY ...``: rebuilds those families' ``simulated.json`` with
  runs of ``--data-rounds`` (default 10^7) at the shipped seed (blackjack about a
  minute a table, Oasis Poker half a minute, pai gow five minutes a joker rule, European
  Slot Poker a minute and a half for its two coin counts).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import machine  # noqa: E402
from games import catalog  # noqa: E402
from games.core.figures import HouseEdge, SimulationRun  # noqa: E402
from games.core.shipped import MIN_ROUNDS, write_runs  # noqa: E402

# the modules, not the families' simulate functions their packages export under that name
bj = importlib.import_module("games.blackjack.simulate")
cs = importlib.import_module("games.caribbean_stud.simulate")
pg = importlib.import_module("games.pai_gow.simulate")
vp = importlib.import_module("games.video_poker.simulate")

OUT = ROOT / "bench" / "results" / "shipped.md"
FAMILIES = ("blackjack", "caribbean_stud", "pai_gow", "video_poker")
SEED = bj.SHIP_SEED


def _blackjack(rounds: int) -> dict[str, Any]:
    return {v.id: bj.ship_entry(v, rounds) for v in catalog.families()["blackjack"].VARIANTS}


def _caribbean(rounds: int) -> dict[str, Any]:
    stud = catalog.families()["caribbean_stud"].VARIANTS
    return {v.id: cs.ship_entry(v, rounds) for v in stud if v.rules.draw_costs}


def _pai_gow(rounds: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for v in catalog.families()["pai_gow"].VARIANTS:
        key = pg.tally_key(v.rules)
        if key not in out:
            out[key] = pg.ship_entry(v.rules, rounds)
    return out


def _video_poker(rounds: int) -> dict[str, Any]:
    """European Slot Poker's long run at 1 and 10 coins (the persistent deck: issue 16)."""
    fruit = [v for v in catalog.families()["video_poker"].VARIANTS if v.rules.fruit]
    return {f"{v.id}@{c}": vp.ship_entry(v, c, rounds) for v in fruit for c in (1, 10)}


BUILDERS: dict[str, Callable[[int], dict[str, Any]]] = {
    "blackjack": _blackjack,
    "caribbean_stud": _caribbean,
    "pai_gow": _pai_gow,
    "video_poker": _video_poker,
}


def write_data(families: list[str], rounds: int) -> None:
    """Rebuild the ``simulated.json`` of ``families`` with ``rounds``-round runs."""
    for name in families:
        t0 = time.perf_counter()
        path = write_runs(ROOT / "games" / name / "data", BUILDERS[name](rounds))
        print(f"wrote {path.relative_to(ROOT)} in {time.perf_counter() - t0:.0f} s", flush=True)


def _pct(x: Any) -> str:
    return f"{float(x) * 100:.4f}%"


def _span(run: SimulationRun) -> str:
    return f"[{_pct(run.low)}, {_pct(run.high)}]"


def check_row(variant: Any, bet: str, e: HouseEdge, rounds: int) -> tuple[str, bool]:
    """One table row: the figure against the shipped run and a fresh ``rounds``-round run."""
    shipped = e.simulation
    assert shipped is not None
    family = catalog.family_of(variant)
    fresh = SimulationRun.of(family.simulate(variant, rounds, SEED + 1).bets[bet], SEED + 1)
    inside = shipped.contains(e.edge) and fresh.contains(e.edge)
    row = (
        f"| {variant.id} {bet} | {e.kind} | {_pct(e.edge)} | {shipped.rounds:,} "
        f"| {_span(shipped)} | {fresh.rounds:,} | {_span(fresh)} | {'yes' if inside else 'NO'} |"
    )
    return row, inside and shipped.rounds >= MIN_ROUNDS


def check(rounds: int) -> bool:
    """Write bench/results/shipped.md; True when every figure lies in both intervals."""
    head = machine(numpy=True, load=True)
    rows: list[str] = []
    ok = True
    t0 = time.perf_counter()
    for name in FAMILIES:
        family = catalog.families()[name]
        for variant in family.VARIANTS:
            for bet, e in family.house_edge(variant).items():
                if e.exact or e.simulation is None:
                    continue
                row, good = check_row(variant, bet, e, rounds)
                print(row, flush=True)
                rows.append(row)
                ok = ok and good
    lines = [
        "## Shipped simulated figures (croupier games house-edge)\n",
        f"Command: `.venv/bin/python bench/bench_shipped.py --rounds {rounds}`  ",
        f"Machine: {head}; {time.perf_counter() - t0:.0f} s.\n",
        "Each figure `house-edge` reports from a simulation (or, for an analysis, checked "
        "by one), against the shipped run's 99.9% interval and a fresh run's (seed "
        f"{SEED + 1}, the shipped runs' is {SEED}); the strategies are the ones "
        "`house-edge` names.\n",
        "| figure | kind | house edge | shipped rounds | shipped 99.9% interval "
        "| fresh rounds | fresh 99.9% interval | inside both |",
        "|---|---|---:|---:|---|---:|---|---|",
        *rows,
        "",
    ]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT.relative_to(ROOT)}")
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=1_000_000, help="rounds of each fresh run")
    p.add_argument("--write-data", nargs="+", choices=FAMILIES, metavar="FAMILY")
    p.add_argument("--data-rounds", type=int, default=MIN_ROUNDS, help="rounds of a shipped run")
    args = p.parse_args()
    if args.write_data:
        write_data(args.write_data, args.data_rounds)
        return 0
    return 0 if check(args.rounds) else 1


if __name__ == "__main__":
    raise SystemExit(main())
