"""dieharder (Debian's package) on a stream: one process per test, fed on stdin (``-g 200``).

Each test gets its own stretch of fresh stream, so no byte is tested twice, and the
bytes each took are counted. A test whose input ends before it finished (a finite
file too short for it: on ``-g 201`` dieharder would rewind the file and test the
same bytes again) is refused with :class:`DataExhausted`, never reported as a result:
a run either never rewinds or does not happen.

Output rows are dieharder's own table, ``test_name|ntup|tsamples|psamples|p-value|
Assessment``; a test may print several rows (one per ``ntup``, or several per
``ntup`` as ``sts_serial`` does), kept in order.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from certification.errors import SourceError
from certification.external.feed import Reader, feed
from certification.external.tools import require

#: the default: tests dieharder itself rates "Good" (``dieharder -l``; Suspect and Do Not
#: Use left out), without the three slowest (205 byte distribution, 208 fill tree 2, 209
#: monobit 2: minutes each at the tool's sample sizes; ask for them by number or ``all``)
GOOD_TESTS = (0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 15, 16, 17, 100, 101, 102,
              200, 201, 202, 203, 204, 206, 207)  # fmt: skip
#: every test ``dieharder -l`` lists (what ``dieharder -a`` runs)
ALL_TESTS = (*range(0, 18), 100, 101, 102, *range(200, 210))
#: tests that need an ntuple (``-n``): swept as ``dieharder -a`` sweeps them
NTUPLE_SWEEPS = {200: tuple(range(1, 13))}

_ROW = re.compile(
    r"^\s*(?P<test>[A-Za-z0-9_]+)\|\s*(?P<ntup>\d+)\|\s*(?P<tsamples>\d+)\|\s*(?P<psamples>\d+)\|"
    r"\s*(?P<p>[0-9.eE+-]+)\|\s*(?P<assessment>PASSED|WEAK|FAILED)\s*$"
)


class DataExhausted(SourceError):
    """The input ended before a test finished: the run would rewind, so it is refused."""


@dataclass(frozen=True, slots=True)
class DieharderRow:
    """One row of dieharder's result table."""

    test: str
    ntup: int
    tsamples: int
    psamples: int
    p_value: float
    assessment: str  # PASSED, WEAK or FAILED (dieharder's verdict)


@dataclass(frozen=True, slots=True)
class DieharderRun:
    """One test (``-d N``) run once: its rows and the bytes it took from the stream."""

    number: int
    rows: tuple[DieharderRow, ...]
    bytes_read: int

    def as_dict(self) -> dict[str, object]:
        return {
            "test": self.number,
            "bytes_read": self.bytes_read,
            "rows": [asdict(r) for r in self.rows],
        }


def parse(text: str) -> list[DieharderRow]:
    """The result rows of dieharder's output (header and comment lines skipped)."""
    rows = []
    for line in text.splitlines():
        if m := _ROW.match(line):
            rows.append(
                DieharderRow(
                    test=m["test"],
                    ntup=int(m["ntup"]),
                    tsamples=int(m["tsamples"]),
                    psamples=int(m["psamples"]),
                    p_value=float(m["p"]),
                    assessment=m["assessment"],
                )
            )
    return rows


def command(number: int, psamples: int | None = None, ntup: int | None = None) -> list[str]:
    """dieharder reading raw binary from stdin, one test (one ntuple)."""
    cmd = [require("dieharder"), "-g", "200", "-d", str(number)]
    if psamples:
        cmd += ["-p", str(psamples)]
    if ntup is not None:
        cmd += ["-n", str(ntup)]
    return cmd


def run_test(read: Reader, number: int, psamples: int | None = None) -> DieharderRun:
    """Run test ``number`` on bytes from ``read``; DataExhausted if the input ran out."""
    rows: list[DieharderRow] = []
    fed_total = 0
    for ntup in NTUPLE_SWEEPS.get(number, (None,)):
        fed = feed(command(number, psamples, ntup), read)
        fed_total += fed.bytes_fed
        said = fed.stdout + fed.stderr
        if fed.exhausted or "Error: EOF" in said:
            raise DataExhausted(
                f"dieharder test {number} ran out of data after {fed_total:,} bytes: on a file "
                "it would rewind and test the same bytes again, so the run is refused (give "
                "more data, fewer tests or a smaller --dieharder-psamples)"
            )
        got = parse(fed.stdout)
        if fed.returncode != 0 or not got:
            last = said.strip().splitlines()[-1] if said.strip() else f"exit {fed.returncode}"
            raise SourceError(f"dieharder test {number} gave no result: {last}")
        rows += got
    return DieharderRun(number=number, rows=tuple(rows), bytes_read=fed_total)
