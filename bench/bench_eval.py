"""Poker evaluators: 7-card evaluations/s against phevaluator, treys and pokerkit.

Run: ``.venv/bin/python bench/bench_eval.py [--hands 200000] [--repeat 5]``

Side by side, in one run, on the same seeded random seven-card hands (medians of
``--repeat`` timings each):

* ``games.poker.batch.rank_batch`` on an ``(N, 7)`` index array (with and without
  its duplicate-card check);
* ``games.poker.rank7.rank7`` (the scalar public API on ``Card`` tuples) in a loop;
* phevaluator ``evaluate_cards`` (its public single-hand API, on integer card ids,
  its fastest input) in a loop; treys ``Evaluator.evaluate``; pokerkit
  ``StandardHighHand.from_game`` (on a smaller sample: it is far slower);
* agreement: every peer must order the hands exactly as we do (phevaluator and
  treys rank 1 best .. 7462 worst, so ``7463 - theirs`` must equal ours; pokerkit
  hands are compared pairwise along our sorted order);
* the exhaustive category count of all 133,784,560 seven-card hands
  (``games.poker.batch.exhaustive_counts7``), checked against the published counts.

Targets (issue 4): batch at least 5x phevaluator's single-hand loop; the exhaustive
count under 30 s. Writes bench/results/eval.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from bench._common import machine, median_seconds  # noqa: E402
from games.core.cards import Card  # noqa: E402
from games.poker.batch import batch_tables, exhaustive_counts7, rank_batch  # noqa: E402
from games.poker.rank7 import rank7  # noqa: E402
from games.poker.tables import tables  # noqa: E402

NAMES = [r + s for r in "23456789TJQKA" for s in "cdhs"]


@dataclass(frozen=True)
class Hands:
    """The same seeded seven-card hands in every evaluator's input form."""

    indices: npt.NDArray[np.int64]  # (N, 7) card indices, for rank_batch
    as_ints: list[tuple[int, ...]]  # phevaluator's integer ids
    as_cards: list[tuple[Card, ...]]  # rank7's Card tuples
    treys_cards: list[list[int]]  # treys' card ints
    pk_text: list[str]  # pokerkit's text, the first ``--pokerkit-hands`` only


def make_hands(n: int, pokerkit_hands: int) -> Hands:
    """``n`` seeded random seven-card hands (the seed is fixed: every run the same hands)."""
    from treys import Card as TreysCard

    rng = np.random.default_rng(20261130)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.int64)
    as_ints = [tuple(int(i) for i in row) for row in hands]
    pk_n = min(pokerkit_hands, n)
    return Hands(
        indices=hands,
        as_ints=as_ints,
        as_cards=[tuple(Card.from_index(i) for i in row) for row in as_ints],
        treys_cards=[[TreysCard.new(NAMES[i]) for i in row] for row in as_ints],
        pk_text=["".join(NAMES[i] for i in row) for row in as_ints[:pk_n]],
    )


def evaluator_seconds(
    sample: Hands, repeat: int
) -> tuple[npt.NDArray[np.int64], dict[str, float], float]:
    """Our ranks, the median seconds of each evaluator over all the hands, pokerkit's over its
    share (the first rank_batch, untimed, warms the tables up)."""
    from phevaluator import evaluate_cards
    from pokerkit import StandardHighHand
    from treys import Evaluator

    hands, as_ints, as_cards = sample.indices, sample.as_ints, sample.as_cards
    ours = rank_batch(hands)
    results: dict[str, float] = {}
    results["croupier rank_batch (checked)"] = median_seconds(lambda: rank_batch(hands), repeat)
    results["croupier rank_batch (validate=False)"] = median_seconds(
        lambda: rank_batch(hands, validate=False), repeat
    )
    results["croupier rank7 loop (Card tuples)"] = median_seconds(
        lambda: [rank7(c) for c in as_cards], repeat
    )
    results["phevaluator evaluate_cards loop"] = median_seconds(
        lambda: [evaluate_cards(*h) for h in as_ints], repeat
    )
    ev = Evaluator()
    results["treys Evaluator.evaluate loop"] = median_seconds(
        lambda: [ev.evaluate(h[:2], h[2:]) for h in sample.treys_cards], repeat
    )
    pk_repeat = max(1, repeat // 2)
    pk_time = median_seconds(
        lambda: [StandardHighHand.from_game(t[:4], t[4:]) for t in sample.pk_text], pk_repeat
    )
    return ours, results, pk_time


def agreement(sample: Hands, ours: npt.NDArray[np.int64]) -> dict[str, int]:
    """How many hands each peer ranks as we do (pokerkit: adjacent pairs in our order)."""
    from phevaluator import evaluate_cards
    from pokerkit import StandardHighHand
    from treys import Evaluator

    ev = Evaluator()
    phe = np.array([7463 - evaluate_cards(*h) for h in sample.as_ints])
    trs = np.array([7463 - ev.evaluate(h[:2], h[2:]) for h in sample.treys_cards])
    agree = {
        "phevaluator": int((phe == ours).sum()),
        "treys": int((trs == ours).sum()),
    }
    pk_hands = [StandardHighHand.from_game(t[:4], t[4:]) for t in sample.pk_text]
    order = np.argsort(ours[: len(sample.pk_text)], kind="stable")
    pk_ok = 0
    for a, b in itertools.pairwise(order):
        ha, hb = pk_hands[a], pk_hands[b]
        same = ours[a] == ours[b]
        pk_ok += (ha == hb) if same else (ha < hb)
    agree["pokerkit"] = pk_ok
    return agree


def exhaustive(repeat: int) -> tuple[list[float], bool]:
    """Seconds of each exhaustive seven-card count, and whether it equals the published one."""
    counts_file = ROOT / "tests" / "data" / "poker" / "category_counts.json"
    published = json.loads(counts_file.read_text())["seven_card"]["counts"]
    ex_times = []
    ex_counts: dict[str, int] = {}
    for _ in range(repeat):
        t0 = time.perf_counter()
        got = exhaustive_counts7()
        ex_times.append(time.perf_counter() - t0)
        ex_counts = {c.name: n for c, n in got.items() if n}
    return ex_times, ex_counts == published


def report(
    args: argparse.Namespace,
    rates: dict[str, float],
    agree: dict[str, int],
    build: float,
    ex_times: list[float],
    counts_ok: bool,
) -> str:
    """The results file: hands/s against phevaluator, agreement, the count, the targets."""
    n = args.hands
    pk_n = min(args.pokerkit_hands, n)
    ex_median = statistics.median(ex_times)
    base = rates["phevaluator evaluate_cards loop"]
    command = "    .venv/bin/python bench/bench_eval.py " + " ".join(sys.argv[1:])
    lines = [
        "## Poker evaluators: 7-card hands/s (bench/bench_eval.py)",
        "",
        f"Command (from the repo root):\n\n{command.rstrip()}\n",
        f"Machine: {machine(numpy=True)}.",
        "",
        f"Same {n:,} seeded random 7-card hands for every evaluator (pokerkit: the first "
        f"{pk_n:,}); medians of {args.repeat} runs. Table build (once per process): "
        f"{build:.2f} s.",
        "",
        "| evaluator | hands/s | vs phevaluator loop |",
        "|---|---:|---:|",
    ]
    for name, rate in rates.items():
        lines.append(f"| {name} | {rate:,.0f} | {rate / base:.2f}x |")
    batch_ratio = rates["croupier rank_batch (checked)"] / base
    lines += [
        "",
        "Agreement on the ordering of these hands: "
        + ", ".join(f"{k} {v:,}/{(pk_n - 1) if k == 'pokerkit' else n:,}" for k, v in agree.items())
        + " (pokerkit: adjacent pairs in our sorted order compared with its own < and ==).",
        "",
        f"Exhaustive count of all 133,784,560 seven-card hands: median {ex_median:.2f} s over "
        f"{args.exhaustive_repeat} runs (runs: {', '.join(f'{t:.2f}' for t in ex_times)} s); "
        f"counts {'equal' if counts_ok else 'DIFFER FROM'} the published table "
        "(tests/data/poker/category_counts.json).",
        "",
        f"Targets: batch >= 5x phevaluator loop: {batch_ratio:.1f}x "
        f"({'met' if batch_ratio >= 5 else 'NOT met'}); exhaustive count < 30 s: "
        f"{ex_median:.2f} s ({'met' if ex_median < 30 else 'NOT met'}).",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pokerkit-hands", type=int, default=5_000)
    ap.add_argument("--exhaustive-repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "eval.md")
    args = ap.parse_args()

    hands = make_hands(args.hands, args.pokerkit_hands)
    t0 = time.perf_counter()
    tables()
    batch_tables()
    build = time.perf_counter() - t0

    ours, results, pk_time = evaluator_seconds(hands, args.repeat)
    agree = agreement(hands, ours)
    ex_times, counts_ok = exhaustive(args.exhaustive_repeat)

    n = args.hands
    pk_n = len(hands.pk_text)
    rates = {name: n / t for name, t in results.items()}
    rates["pokerkit StandardHighHand.from_game loop"] = pk_n / pk_time
    text = report(args, rates, agree, build, ex_times, counts_ok)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    full = all(v == (pk_n - 1 if k == "pokerkit" else n) for k, v in agree.items())
    return 0 if full and counts_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
