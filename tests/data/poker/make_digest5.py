"""Independent reference for the five-card ordering digest (run by hand, not by the tests).

It shares no code with ``games.poker``: a textbook evaluator written from the
rules (category, then the ranks that break ties), applied to all 2,598,960
five-card sets of card indices 0..51 (index = (rank - 2) * 4 + suit) in
``itertools.combinations`` order. Distinct values are numbered 1 (worst) to
7,462 (best); the digest is SHA-256 over those numbers as big-endian uint16.
If phevaluator is installed, its ranks (1 best .. 7462 worst) are checked to
give the same numbering (7463 - its rank), an independent second opinion.

    .venv/bin/python tests/data/poker/make_digest5.py
"""

from __future__ import annotations

import hashlib
import itertools
import struct


def value(hand: tuple[int, ...]) -> tuple[int, ...]:
    ranks = sorted((c // 4 + 2 for c in hand), reverse=True)
    flush = len({c % 4 for c in hand}) == 1
    counts = {r: ranks.count(r) for r in ranks}
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    straight_top = 0
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if straight_top:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *ranks)


def main() -> None:
    hands = list(itertools.combinations(range(52), 5))
    values = [value(h) for h in hands]
    number = {v: i + 1 for i, v in enumerate(sorted(set(values)))}
    print("distinct values:", len(number))
    dense = [number[v] for v in values]
    digest = hashlib.sha256(b"".join(struct.pack(">H", d) for d in dense)).hexdigest()
    print("sha256:", digest)
    try:
        from phevaluator import evaluate_cards  # type: ignore[import-not-found]
    except ImportError:
        return
    names = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    bad = sum(
        1
        for h, d in zip(hands, dense, strict=True)
        if 7463 - evaluate_cards(*(names[c] for c in h)) != d
    )
    print("phevaluator disagreements:", bad)


if __name__ == "__main__":
    main()
