"""Random excursions and random excursions variant (SP 800-22 2.14, 2.15).

Cycles are the stretches of the random walk between zeros (and the tail after the last
zero). With J < max(0.005 sqrt(n), 500) cycles both tests are not applicable (the tool
prints 0.000000; we report None). Visits per state per cycle are one ``bincount`` over
(state, cycle) pairs.
"""

from __future__ import annotations

import math

import numpy as np

from certification.stats.sp800_22.result import PValue, TestOutcome
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import erfc, igamc

STATES = (-4, -3, -2, -1, 1, 2, 3, 4)
VARIANT_STATES = (-9, -8, -7, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9)
#: pi_k(x) for |x| = 1..4, k = 0..5 (k = 5 meaning "5 or more"), as the tool has them
PI = (
    (0.5000000000, 0.25000000000, 0.12500000000, 0.06250000000, 0.03125000000, 0.0312500000),
    (0.7500000000, 0.06250000000, 0.04687500000, 0.03515625000, 0.02636718750, 0.0791015625),
    (0.8333333333, 0.02777777778, 0.02314814815, 0.01929012346, 0.01607510288, 0.0803755143),
    (0.8750000000, 0.01562500000, 0.01367187500, 0.01196289063, 0.01046752930, 0.0732727051),
)


def variant_label(x: int) -> str:
    return f"x={x:+d}"


def cycle_count(seq: Sequence) -> int:
    walk = seq.walk
    zeros = int(np.count_nonzero(walk == 0))
    return zeros + (1 if walk[-1] != 0 else 0)


def constraint(n: int) -> float:
    return max(0.005 * math.sqrt(n), 500.0)


def random_excursions(bits: Bits | Sequence) -> TestOutcome:
    seq = as_sequence(bits)
    walk = seq.walk
    j = cycle_count(seq)
    name = "RandomExcursions"
    # the tool gives up (writes nothing) past max(1000, n/100) cycles; we say not applicable
    if j < constraint(seq.n) or j > max(1000, seq.n // 100):
        absent = tuple(PValue(name, variant_label(x), None) for x in STATES)
        return TestOutcome(name, absent, {"J": j}, "not applicable: J outside the tool's limits")
    is_zero = walk == 0
    cycle = np.cumsum(is_zero) - is_zero  # zeros strictly before each position
    in_range = (walk != 0) & (walk >= -4) & (walk <= 4)
    state_idx = np.where(walk[in_range] < 0, walk[in_range] + 4, walk[in_range] + 3)
    visits = np.bincount(state_idx * j + cycle[in_range], minlength=8 * j).reshape(8, j)
    rows: list[PValue] = []
    chi2s: list[float] = []
    for i, x in enumerate(STATES):
        nu = np.bincount(np.minimum(visits[i], 5), minlength=6).astype(np.float64)
        pi = np.asarray(PI[abs(x) - 1])
        chi2 = float((((nu - j * pi) ** 2) / (j * pi)).sum())
        chi2s.append(chi2)
        rows.append(PValue(name, variant_label(x), igamc(2.5, chi2 / 2.0)))
    return TestOutcome(name, tuple(rows), {"J": j, "chi2": chi2s})


def random_excursions_variant(bits: Bits | Sequence) -> TestOutcome:
    seq = as_sequence(bits)
    walk = seq.walk
    j = cycle_count(seq)
    name = "RandomExcursionsVariant"
    if j < constraint(seq.n):
        absent = tuple(PValue(name, variant_label(x), None) for x in VARIANT_STATES)
        return TestOutcome(name, absent, {"J": j}, "not applicable: fewer than 500 cycles")
    inside = walk[(walk >= -9) & (walk <= 9)]
    counts = np.bincount(inside + 9, minlength=19)
    rows: list[PValue] = []
    for x in VARIANT_STATES:
        xi = int(counts[x + 9])
        p = erfc(abs(xi - j) / math.sqrt(2.0 * j * (4.0 * abs(x) - 2)))
        rows.append(PValue(name, variant_label(x), p))
    return TestOutcome(name, tuple(rows), {"J": j, "visits": counts.tolist()})
