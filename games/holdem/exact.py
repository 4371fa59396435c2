"""Exact expected value of calling at Pinnacle Hold'em (Casino Hold'em), one flop situation.

After the flop the player sees five cards (two hole cards, three on the board);
47 are unseen. Calling commits the player to the outcome over every equally
likely completion: two more board cards (turn, river) and two dealer hole cards,
1,081 x 990 = 1,070,190 completions. Folding loses exactly the ante.

The enumeration goes by the *four* unseen cards that complete the deal: the
dealer's best five of seven is the flop plus those four cards whichever two of
them are the dealer's, so it is evaluated once per four-card set (178,365 of
them); the player's hand depends only on the two board cards (1,081 pairs).
Each four-card set splits six ways into (turn and river, dealer's two), which
gives every completion exactly once. That is about 180,000 evaluations per
situation instead of a million.

Used to build and check :func:`games.holdem.strategy.casino_call` (tests and
bench only: about 0.1 s a situation). Integers throughout; the result is an
exact :class:`~fractions.Fraction` of the ante.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from math import lcm

import numpy as np
import numpy.typing as npt

from games.holdem.rules import HoldemRules
from games.poker.batch import categories, combinations_array, rank_batch
from games.poker.category import Category
from games.sim import deal_cards

I64 = npt.NDArray[np.int64]
#: completions of one flop situation: C(47, 2) board pairs x C(45, 2) dealer pairs
COMPLETIONS = 1081 * 990
#: the six ways a four-card set (positions 0..3) splits into board pair | dealer pair
_SPLITS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


@functools.cache
def _layout() -> tuple[I64, I64, I64]:
    """Four-sets of 47 positions, the pairs of 47, and each four-set's six board-pair ids."""
    fours = combinations_array(47, 4).astype(np.int64)
    pairs = combinations_array(47, 2).astype(np.int64)
    pair_id = np.full((47, 47), -1, dtype=np.int64)
    pair_id[pairs[:, 0], pairs[:, 1]] = np.arange(len(pairs))
    split_ids = np.stack([pair_id[fours[:, a], fours[:, b]] for a, b in _SPLITS], axis=1)
    return fours, pairs, split_ids


def _scaled_pays(rules: HoldemRules) -> tuple[I64, int]:
    """The ante table by category as integers over a common denominator ``den``."""
    den = lcm(*(r.den for r in rules.ante_pays.values()))
    table = np.zeros(len(Category), dtype=np.int64)
    for cat, r in rules.ante_pays.items():
        table[cat] = r.num * (den // r.den)
    return table, den


def call_total(rules: HoldemRules, hole: Sequence[int], flop: Sequence[int]) -> tuple[int, int]:
    """``(total, den)``: the call's net summed over all completions is ``total / den`` antes.

    ``hole`` and ``flop`` are card indices (``(rank - 2) * 4 + suit``), five distinct.
    """
    seen = [int(c) for c in (*hole, *flop)]
    if (
        len(hole) != 2
        or len(flop) != 3
        or len(set(seen)) != 5
        or not all(0 <= c < 52 for c in seen)
    ):
        raise ValueError(f"need two hole cards and three flop cards, all distinct: {seen}")
    if rules.style != "casino":
        raise ValueError("the call EV is for the casino (Pinnacle) style")
    fours, pairs, split_ids = _layout()
    unseen = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
    flop_a = np.array(seen[2:], dtype=np.int64)
    four_cards = unseen[fours]
    dealer = rank_batch(
        np.concatenate([np.broadcast_to(flop_a, (len(fours), 3)), four_cards], axis=1),
        validate=False,
    )
    mine = rank_batch(
        np.concatenate(
            [np.broadcast_to(np.array(seen, dtype=np.int64), (len(pairs), 5)), unseen[pairs]],
            axis=1,
        ),
        validate=False,
    )
    table, den = _scaled_pays(rules)
    ante = table[categories(mine)]
    m = rules.call_multiple * den
    qualifies = dealer >= rules.qualifier
    total = 0
    for s in range(len(_SPLITS)):
        p = mine[split_ids[:, s]]
        a = ante[split_ids[:, s]]
        net = np.where(
            ~qualifies, a, np.where(p > dealer, a + m, np.where(p < dealer, -den - m, 0))
        )
        total += int(net.sum())
    return total, den


def call_ev(rules: HoldemRules, hole: Sequence[int], flop: Sequence[int]) -> Fraction:
    """Exact expected net of calling, per unit of ante (folding is exactly -1)."""
    total, den = call_total(rules, hole, flop)
    return Fraction(total, den * COMPLETIONS)


def build_totals(rules: HoldemRules) -> list[int]:
    """The exact call total of each rank pattern's rainbow representative, in table order.

    About 22,000 situations: several minutes (``bench/bench_holdem_best.py --build-table``).
    """
    from games.holdem.calltable import representative, table_keys

    out = []
    for key in table_keys().tolist():
        hole, flop = representative(tuple(key))
        total, den = call_total(rules, hole, flop)
        if den != 1:
            raise ValueError("the call table needs whole-number ante pays")
        out.append(total)
    return out


def pattern_corrections(
    rules: HoldemRules, totals: list[int], situations: int = 6000, seed: int = 1
) -> dict[str, int]:
    """Per suit pattern: the median of (exact total - table total) over random table situations.

    Situations are the first five cards of ``situations`` seeded shuffles, kept
    when the strategy would look them up (no hidden pair, four-flush or straight+).
    The lower median of integers, so the result is exact for a given seed.
    """
    from games.holdem.calltable import SuitPattern, from_data, split
    from games.holdem.strategy import outright_call

    table = from_data(
        {"spec": 1, "rules": {}, "totals": totals, "corrections": {p.name: 0 for p in SuitPattern}},
        "corrections",
    )
    cards = deal_cards(np.random.default_rng(seed), situations, 5)
    hole, flop = cards[:, :2], cards[:, 2:]
    rows = np.flatnonzero(~outright_call(hole, flop))
    code, pattern = split(hole[rows], flop[rows])
    diffs: dict[str, list[int]] = {p.name: [] for p in SuitPattern}
    for i, row in enumerate(rows.tolist()):
        total, _ = call_total(rules, hole[row].tolist(), flop[row].tolist())
        diffs[SuitPattern(int(pattern[i])).name].append(total - int(table.totals[code[i]]))
    return {name: sorted(d)[(len(d) - 1) // 2] if d else 0 for name, d in diffs.items()}
