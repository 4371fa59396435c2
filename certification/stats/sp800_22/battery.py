"""The full SP 800-22 battery on one sequence, in the NIST tool's test order.

``TEST_ORDER`` is sts-2.1.2's numbering (1 Frequency ... 15 LinearComplexity), which is
also the order of the rows in ``finalAnalysisReport.txt``. :func:`run_battery` runs the
chosen tests with the tool's default parameters unless told otherwise, sharing the
derived arrays (random walk, window counts) between tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from certification.errors import ParameterError
from certification.stats.sp800_22.dft import dft
from certification.stats.sp800_22.entropy import approximate_entropy, serial
from certification.stats.sp800_22.excursions import random_excursions, random_excursions_variant
from certification.stats.sp800_22.frequency import (
    block_frequency,
    cumulative_sums,
    frequency,
    runs,
)
from certification.stats.sp800_22.linear_complexity import linear_complexity
from certification.stats.sp800_22.longest_run import longest_run
from certification.stats.sp800_22.rank import rank
from certification.stats.sp800_22.result import PValue, TestOutcome
from certification.stats.sp800_22.sequence import Bits, Sequence
from certification.stats.sp800_22.templates import non_overlapping_template, overlapping_template
from certification.stats.sp800_22.universal import universal

TEST_ORDER: tuple[str, ...] = (
    "Frequency",
    "BlockFrequency",
    "CumulativeSums",
    "Runs",
    "LongestRun",
    "Rank",
    "FFT",
    "NonOverlappingTemplate",
    "OverlappingTemplate",
    "Universal",
    "ApproximateEntropy",
    "RandomExcursions",
    "RandomExcursionsVariant",
    "Serial",
    "LinearComplexity",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Parameters:
    """The tool's adjustable parameters, with its defaults."""

    block_frequency: int = 128
    non_overlapping_template: int = 9
    overlapping_template: int = 9
    approximate_entropy: int = 10
    serial: int = 16
    linear_complexity: int = 500

    def as_dict(self) -> dict[str, int]:
        return {
            "block_frequency": self.block_frequency,
            "non_overlapping_template": self.non_overlapping_template,
            "overlapping_template": self.overlapping_template,
            "approximate_entropy": self.approximate_entropy,
            "serial": self.serial,
            "linear_complexity": self.linear_complexity,
        }


DEFAULTS = Parameters()


def _runners(p: Parameters) -> dict[str, Callable[[Sequence], TestOutcome]]:
    return {
        "Frequency": frequency,
        "BlockFrequency": lambda s: block_frequency(s, p.block_frequency),
        "CumulativeSums": cumulative_sums,
        "Runs": runs,
        "LongestRun": longest_run,
        "Rank": rank,
        "FFT": dft,
        "NonOverlappingTemplate": lambda s: non_overlapping_template(s, p.non_overlapping_template),
        "OverlappingTemplate": lambda s: overlapping_template(s, p.overlapping_template),
        "Universal": universal,
        "ApproximateEntropy": lambda s: approximate_entropy(s, p.approximate_entropy),
        "RandomExcursions": random_excursions,
        "RandomExcursionsVariant": random_excursions_variant,
        "Serial": lambda s: serial(s, p.serial),
        "LinearComplexity": lambda s: linear_complexity(s, p.linear_complexity),
    }


def select_tests(names: Iterable[str] | None) -> tuple[str, ...]:
    """The chosen tests in the tool's order; names are matched case-insensitively."""
    if names is None:
        return TEST_ORDER
    wanted = {n.strip().lower() for n in names if n.strip()}
    unknown = wanted - {t.lower() for t in TEST_ORDER}
    if unknown:
        raise ParameterError(
            f"unknown test(s) {', '.join(sorted(unknown))}; known: {', '.join(TEST_ORDER)}"
        )
    return tuple(t for t in TEST_ORDER if t.lower() in wanted)


def run_battery(
    bits: Bits | Sequence,
    params: Parameters = DEFAULTS,
    tests: Iterable[str] | None = None,
) -> list[TestOutcome]:
    """Run the chosen tests (all by default) on one sequence, in the tool's order."""
    seq = bits if isinstance(bits, Sequence) else Sequence(bits)
    chosen = select_tests(tests)
    width = max(
        params.serial if "Serial" in chosen else 0,
        params.approximate_entropy + 1 if "ApproximateEntropy" in chosen else 0,
    )
    if width:
        seq.counts(width)  # one histogram serves serial and approximate entropy
    runners = _runners(params)
    return [runners[name](seq) for name in chosen]


def rows(outcomes: Iterable[TestOutcome]) -> list[PValue]:
    """Every p-value row of the outcomes, in order."""
    return [row for outcome in outcomes for row in outcome.p_values]
