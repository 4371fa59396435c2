"""The NIST tool's final analysis: proportion of passing sequences and P-value uniformity.

sts-2.1.2 writes each p-value with ``%f`` (six decimals), reads it back as a C ``float``
and only then analyses it; :func:`as_tool_reads` reproduces that, so a p-value of
0.0100004 that prints as 0.010000 is judged as the float 0.00999999977 (a failure), as
the tool judges it. For each test variant:

* proportion: sequences with p >= alpha (0.01) out of the sample; acceptable within
  p-hat +- 3 sqrt(p-hat (1 - p-hat) / m), p-hat = 1 - alpha, bounds truncated to integers;
* uniformity: a 10-bin histogram of the p-values, chi-square against m // 10 per bin
  (integer division, as the tool), P = igamc(9/2, chi2/2); undefined for m < 10.

For the random excursion tests the sample is only the sequences whose p-value is
positive (the applicable ones: the tool writes 0.000000 where J < 500).
"""

from __future__ import annotations

import math
from collections.abc import Sequence as Seq
from dataclasses import dataclass

import numpy as np

from certification.stats.sp800_22.result import PValue
from certification.stats.special import igamc

ALPHA = 0.01
EXCURSION_TESTS = frozenset({"RandomExcursions", "RandomExcursionsVariant"})


def as_tool_reads(p_value: float | None) -> float:
    """The p-value as the tool's final analysis sees it: '%f' text read into a float."""
    if p_value is None:
        return 0.0
    return float(np.float32(float(f"{p_value:f}")))


def tool_reads(p_values: Seq[float | None]) -> list[float]:
    """:func:`as_tool_reads` of every value, the float32 rounding done on the whole array
    (a NumPy scalar a value cost more than the rest of the final analysis)."""
    text = [0.0 if p is None else float(f"{p:f}") for p in p_values]
    read: list[float] = np.asarray(text, dtype=np.float64).astype(np.float32).tolist()
    return read


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantSummary:
    """Final analysis of one test variant over all sequences."""

    test: str
    variant: str | None
    p_values: tuple[float | None, ...]
    sample_size: int
    passed: int
    min_pass: int
    max_pass: int
    histogram: tuple[int, ...]
    uniformity_p: float | None

    @property
    def proportion(self) -> float | None:
        return self.passed / self.sample_size if self.sample_size else None

    @property
    def proportion_ok(self) -> bool:
        return self.sample_size > 0 and self.min_pass <= self.passed <= self.max_pass

    @property
    def uniformity_ok(self) -> bool:
        return self.uniformity_p is None or self.uniformity_p >= 0.0001

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.test,
            "variant": self.variant,
            "p_values": list(self.p_values),
            "proportion": self.proportion,
            "uniformity_p": self.uniformity_p,
            "passed": self.passed,
            "sample_size": self.sample_size,
            "min_pass": self.min_pass,
            "max_pass": self.max_pass,
            "proportion_ok": self.proportion_ok,
            "histogram": list(self.histogram),
        }


def pass_bounds(sample_size: int) -> tuple[int, int]:
    """(minimum, maximum) passing count the tool accepts for a sample of that size."""
    if sample_size == 0:
        return 0, 0
    p_hat = 1.0 - ALPHA
    spread = 3.0 * math.sqrt((p_hat * ALPHA) / sample_size)
    return int((p_hat - spread) * sample_size), int((p_hat + spread) * sample_size)


def summarise(test: str, variant: str | None, p_values: Seq[float | None]) -> VariantSummary:
    """The tool's ``computeMetrics`` for one variant's p-values (None = not applicable)."""
    read = tool_reads(p_values)
    if test in EXCURSION_TESTS:
        sample = [c for c in read if c > 0.0]
    else:
        sample = [c for c, p in zip(read, p_values, strict=True) if p is not None]
    size = len(sample)
    failures = sum(1 for c in sample if c < ALPHA)
    passed = size - failures if size else 0
    low, high = pass_bounds(size)
    bins = [0] * 10
    for c in sample:
        pos = math.floor(c * 10)
        bins[min(pos, 9)] += 1
    expected = size // 10
    uniformity: float | None = None
    if expected:
        chi2 = sum((f - expected) ** 2 / expected for f in bins)
        uniformity = igamc(9.0 / 2.0, chi2 / 2.0)
    return VariantSummary(
        test=test,
        variant=variant,
        p_values=tuple(p_values),
        sample_size=size,
        passed=passed,
        min_pass=low,
        max_pass=high,
        histogram=tuple(bins),
        uniformity_p=uniformity,
    )


def final_analysis(per_sequence: Seq[Seq[PValue]]) -> list[VariantSummary]:
    """Summaries of every (test, variant) row, in the battery's row order.

    ``per_sequence[i]`` is the row list of sequence i; every sequence must have the same rows.
    """
    if not per_sequence:
        return []
    layout = [(r.test, r.variant) for r in per_sequence[0]]
    columns: list[list[float | None]] = [[] for _ in layout]
    for seq_rows in per_sequence:
        if [(r.test, r.variant) for r in seq_rows] != layout:
            raise ValueError("every sequence must be tested with the same tests and variants")
        for col, row in zip(columns, seq_rows, strict=True):
            col.append(row.p_value)
    return [summarise(t, v, col) for (t, v), col in zip(layout, columns, strict=True)]
