"""Poker rooms: hands/s through our engine against pokerkit on the same action sequences.

Run: ``.venv/bin/python bench/bench_poker_room.py [--hands 2000] [--repeat 3]``

For each game (fixed-limit hold'em, Omaha, seven-card stud) the hands are first played
on both engines in lockstep (bench/pokerkit_room.py, the differential test's driver:
2 to 9 players, stud 2 to 8, stacks that go all-in often, random legal actions, the
same cards), which records each engine's own calls. Then each engine replays its calls
alone, timed in CPU seconds of this process (the machine is shared): ours every action
through ``PokerRoomRound.apply`` (verify, then apply, events out), pokerkit every
operation (its own checks inside). A second column for ours
also lists every seat's legal actions with amounts before each decision (what a room
does for the acting player's page). Stud hands that deal the common card are left out
(pokerkit has no such rule). Target: ours >= 5x pokerkit.

Writes bench/results/poker_room.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import machine  # noqa: E402
from bench.pokerkit_room import Script, lockstep, replay_peer  # noqa: E402
from games.core.cards import DECK  # noqa: E402
from games.core.records import Decide  # noqa: E402
from games.poker_room.engine import PokerRoomRound  # noqa: E402
from games.poker_room.rules import load_packaged, without_collection  # noqa: E402

GAMES = ("holdem-2-4", "omaha-2-4", "stud-2-4")
UNITS = (1, 2, 3, 4, 6, 9, 15, 40)
TARGET = 5.0


def scripts(name: str, hands: int, seed: int) -> list[Script]:
    """``hands`` hands both engines played alike (stud: none with a common card)."""
    variant = without_collection(load_packaged(name))
    rnd = random.Random(f"{seed}-{name}")
    out: list[Script] = []
    while len(out) < hands:
        n = rnd.randint(2, variant.seats)
        seats = sorted(rnd.sample(range(variant.seats), n))
        ante = variant.rules.ante
        stacks = {s: rnd.choice(UNITS) * variant.rules.lower_limit + ante for s in seats}
        deck = list(DECK)
        rnd.shuffle(deck)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            script, outcome = lockstep(
                variant, stacks, deck, lambda o: rnd.randrange(len(o)), rnd.randint(1, n)
            )
        if outcome.compared and outcome.mine_stacks == outcome.peer_stacks:
            out.append(script)
    return out


def ours(batch: list[Script], *, options: bool) -> float:
    """Seconds for our engine to replay every script (``options``: list them each turn)."""
    t0 = time.process_time()
    for s in batch:
        r = PokerRoomRound(s.variant, s.variant.seats, button=None)
        for action in s.log:
            if options and isinstance(action, Decide):
                for seat in r.seats_in:
                    r.options(seat)
            r.apply(action)
        assert r.is_over
    return time.process_time() - t0


def theirs(batch: list[Script]) -> float:
    """Seconds for pokerkit to replay every script's recorded operations."""
    t0 = time.process_time()
    for s in batch:
        st = replay_peer(s.variant.rules, [s.stacks[seat] for seat in s.order], s.peer_ops)
        assert not st.status
    return time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "poker_room.md")
    args = ap.parse_args()
    where = machine(load=True)
    rows = []
    met = True
    for name in GAMES:
        batch = scripts(name, args.hands, args.seed)
        decisions = sum(isinstance(a, Decide) for s in batch for a in s.log) / len(batch)
        players = sum(len(s.stacks) for s in batch) / len(batch)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            peer = statistics.median(theirs(batch) for _ in range(args.repeat))
        mine = statistics.median(ours(batch, options=False) for _ in range(args.repeat))
        listed = statistics.median(ours(batch, options=True) for _ in range(args.repeat))
        ratio = peer / mine
        met &= ratio >= TARGET
        rows.append(
            f"| {name} | {len(batch):,} | {players:.1f} | {decisions:.1f} | "
            f"{len(batch) / mine:,.0f} | {len(batch) / listed:,.0f} | {len(batch) / peer:,.0f} | "
            f"{ratio:.1f}x | {peer / listed:.1f}x |"
        )
    command = "    .venv/bin/python bench/bench_poker_room.py " + " ".join(sys.argv[1:])
    lines = [
        "## Poker rooms: hands/s, our engine vs pokerkit (bench/bench_poker_room.py)",
        "",
        f"Command (from the repo root):\n\n{command.rstrip()}\n",
        f"Machine: {where}.",
        "",
        "The same hands on both engines (played first in lockstep, the differential test's",
        "driver, then replayed by each alone); medians of "
        f"{args.repeat} runs. Stud hands that deal the common card are left out (pokerkit",
        "has no such rule). 'listed' also lists every seat's legal actions before each decision.",
        "",
        "| game | hands | players (mean) | decisions/hand | ours hands/s | ours listed | "
        "pokerkit hands/s | ours vs pokerkit | listed vs pokerkit |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        f"Target: ours >= {TARGET:.0f}x pokerkit: {'met' if met else 'NOT met'}.",
        "",
    ]
    text = "\n".join(lines)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
