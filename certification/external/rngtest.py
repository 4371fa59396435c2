"""rngtest (Debian's rng-tools5) on a block of bytes: FIPS 140-2 counts as the tool prints them.

The appliance counts FIPS 140-2 itself (:mod:`certification.stats.fips140_2`, exactly as
rngtest does); running the real rngtest beside it on the same bytes lets a lab see both
counts agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from certification.errors import SourceError
from certification.external.feed import feed
from certification.external.tools import require

_COUNT = re.compile(r"^rngtest: (?P<name>[^:]+(?:\)[^:]*)?): (?P<value>\d+)\s*$")
_FIELDS = {
    "bits received from input": "bits_received",
    "FIPS 140-2 successes": "successes",
    "FIPS 140-2 failures": "failures",
    "FIPS 140-2(2001-10-10) Monobit": "monobit",
    "FIPS 140-2(2001-10-10) Poker": "poker",
    "FIPS 140-2(2001-10-10) Runs": "runs",
    "FIPS 140-2(2001-10-10) Long run": "long_run",
    "FIPS 140-2(2001-10-10) Continuous run": "continuous_run",
}


@dataclass(frozen=True, slots=True)
class RngtestResult:
    """rngtest's counters (the names of :class:`certification.stats.fips140_2.Fips140Report`)."""

    counts: dict[str, int]
    text: str

    @property
    def passed(self) -> bool:
        return self.counts.get("successes", 0) > 0 and self.counts.get("failures", 1) == 0


def parse(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for line in text.splitlines():
        name, _, value = line.removeprefix("rngtest: ").rpartition(": ")
        if line.startswith("rngtest: ") and name in _FIELDS and value.strip().isdigit():
            counts[_FIELDS[name]] = int(value)
    return counts


def run_rngtest(data: bytes) -> RngtestResult:
    """Feed ``data`` to rngtest; its exit status 1 only says a block failed."""
    chunks = iter(data[i : i + 65536] for i in range(0, len(data), 65536))
    fed = feed([require("rngtest")], lambda n: next(chunks, b""), limit=len(data))
    counts = parse(fed.stderr)
    if "successes" not in counts:
        raise SourceError(f"rngtest gave no counts (exit status {fed.returncode})")
    lines = [ln for ln in fed.stderr.splitlines() if _COUNT.match(ln) and "speed" not in ln]
    return RngtestResult(counts=counts, text="\n".join(lines) + "\n")
