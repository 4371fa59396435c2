"""What every SP 800-22 test returns: its p-values, one per variant, and its statistics.

A p-value of ``None`` means "not applicable" (the random excursion tests with fewer than
500 cycles, a sequence too short for the test): the NIST tool prints 0.000000 there, and
its final analysis leaves such sequences out; so does ours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PValue:
    """One row of the battery: a test, its variant (or None), and the p-value."""

    test: str
    variant: str | None
    p_value: float | None

    @property
    def applicable(self) -> bool:
        return self.p_value is not None


@dataclass(frozen=True, slots=True)
class TestOutcome:
    """The result of one test on one sequence."""

    test: str
    p_values: tuple[PValue, ...]
    statistics: Mapping[str, object] = field(default_factory=dict)
    note: str = ""

    @property
    def p_value(self) -> float | None:
        """The p-value of a test without variants (the first row otherwise)."""
        return self.p_values[0].p_value

    def by_variant(self) -> dict[str | None, float | None]:
        return {row.variant: row.p_value for row in self.p_values}


def single(test: str, p_value: float | None, note: str = "", **stats: object) -> TestOutcome:
    """An outcome with one p-value and no variant."""
    return TestOutcome(test, (PValue(test, None, p_value),), stats, note)
