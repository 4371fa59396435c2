"""NIST SP 800-22 Rev 1a: the fifteen tests, the battery and the final analysis.

Every test reproduces the computation of NIST's sts-2.1.2 tool (its tables, integer
divisions and quirks), vectorised with NumPy. One test = one function taking the bits
(a uint8 0/1 array or a :class:`Sequence`) and returning a :class:`TestOutcome` with
one :class:`PValue` per variant.
"""

from certification.stats.sp800_22.battery import (
    DEFAULTS,
    TEST_ORDER,
    Parameters,
    rows,
    run_battery,
    select_tests,
)
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
from certification.stats.sp800_22.sequence import Sequence
from certification.stats.sp800_22.templates import non_overlapping_template, overlapping_template
from certification.stats.sp800_22.universal import universal

__all__ = [
    "DEFAULTS",
    "TEST_ORDER",
    "PValue",
    "Parameters",
    "Sequence",
    "TestOutcome",
    "approximate_entropy",
    "block_frequency",
    "cumulative_sums",
    "dft",
    "frequency",
    "linear_complexity",
    "longest_run",
    "non_overlapping_template",
    "overlapping_template",
    "random_excursions",
    "random_excursions_variant",
    "rank",
    "rows",
    "run_battery",
    "runs",
    "select_tests",
    "serial",
    "universal",
]
