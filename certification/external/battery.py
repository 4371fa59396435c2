"""The external batteries together, with their second level across runs.

``runs`` runs of each dieharder test, each on fresh stream; rngtest over the whole
captured block (beside the appliance's own FIPS 140-2 count of the same bytes); ent
over each of ``runs`` equal parts of the block and over the whole. Where a tool gives
p-values, the p-values of the same row across runs are tested for uniformity
(Kolmogorov-Smirnov against U(0,1), SciPy), with NIST SP 800-22's second-level
threshold: uniform unless p < 0.0001.

Verdicts: a dieharder row fails when dieharder says FAILED in any run, or when its
p-values across runs are not uniform; WEAK is shown, not failed (dieharder's own
advice: run it again). rngtest fails on any failed block; ent is reported, and fails
only on a non-uniform second level of its chi-square p-values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scipy.stats import kstest

from certification.external.dieharder import DieharderRun, run_test
from certification.external.ent import EntResult, run_ent
from certification.external.feed import Reader
from certification.external.rngtest import RngtestResult, run_rngtest

UNIFORMITY_ALPHA = 0.0001  # SP 800-22 section 4.2.2's threshold for the p-values' uniformity


def uniformity(p_values: Sequence[float]) -> float | None:
    """KS p-value of ``p_values`` against U(0,1); None for fewer than two."""
    if len(p_values) < 2:
        return None
    return float(kstest(list(p_values), "uniform").pvalue)


@dataclass(frozen=True, slots=True)
class RowSummary:
    """One dieharder row (test, ntup, position) over every run."""

    test: str
    number: int
    ntup: int
    p_values: tuple[float, ...]
    assessments: tuple[str, ...]
    uniformity_p: float | None

    @property
    def passed(self) -> bool:
        uniform = self.uniformity_p is None or self.uniformity_p >= UNIFORMITY_ALPHA
        return "FAILED" not in self.assessments and uniform

    def as_dict(self) -> dict[str, object]:
        return {
            "test": self.test,
            "number": self.number,
            "ntup": self.ntup,
            "p_values": list(self.p_values),
            "assessments": list(self.assessments),
            "uniformity_p": self.uniformity_p,
            "passed": self.passed,
        }


def summarise(runs: Sequence[Sequence[DieharderRun]]) -> list[RowSummary]:
    """Rows of the same test and position gathered across runs (runs x tests)."""
    gathered: dict[tuple[int, int], list[tuple[str, int, float, str]]] = {}
    for one_run in runs:
        for test_run in one_run:
            for k, row in enumerate(test_run.rows):
                key = (test_run.number, k)
                gathered.setdefault(key, []).append(
                    (row.test, row.ntup, row.p_value, row.assessment)
                )
    out = []
    for (number, _), rows in sorted(gathered.items()):
        ps = tuple(r[2] for r in rows)
        out.append(
            RowSummary(
                test=rows[0][0],
                number=number,
                ntup=rows[0][1],
                p_values=ps,
                assessments=tuple(r[3] for r in rows),
                uniformity_p=uniformity(ps),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class ExternalReport:
    """Everything the external tools said, as data."""

    dieharder: list[RowSummary]
    dieharder_runs: list[list[DieharderRun]]
    rngtest: RngtestResult | None
    fips_agrees: bool | None  # rngtest's counts equal the appliance's own FIPS count
    ent_whole: EntResult | None
    ent_parts: list[EntResult] = field(default_factory=list)

    @property
    def ent_uniformity_p(self) -> float | None:
        return uniformity([e.chi_square_p for e in self.ent_parts])

    @property
    def failing(self) -> list[str]:
        """What failed, in words a report can print."""
        out = [f"dieharder {r.test} (-d {r.number}, ntup {r.ntup})"
               for r in self.dieharder if not r.passed]  # fmt: skip
        if self.rngtest is not None and not self.rngtest.passed:
            out.append(f"rngtest: {self.rngtest.counts.get('failures', 0)} blocks failed")
        u = self.ent_uniformity_p
        if u is not None and u < UNIFORMITY_ALPHA:
            out.append(f"ent chi-square p-values not uniform across parts (p = {u:.6f})")
        return out

    @property
    def passed(self) -> bool:
        return not self.failing

    def bytes_tested(self) -> int:
        return sum(t.bytes_read for run in self.dieharder_runs for t in run)

    def as_dict(self) -> dict[str, object]:
        rngtest: dict[str, object] | None = None
        if self.rngtest is not None:
            rngtest = {**self.rngtest.counts, "passed": self.rngtest.passed}
            rngtest["agrees_with_appliance_fips140_2"] = self.fips_agrees
        return {
            "passed": self.passed,
            "failing": self.failing,
            "dieharder": {
                "generator": "-g 200 (raw binary on stdin, fresh stream per test and run)",
                "runs": len(self.dieharder_runs),
                "rewinds": 0,  # a run that would rewind is refused (DataExhausted)
                "bytes_read": self.bytes_tested(),
                "rows": [r.as_dict() for r in self.dieharder],
                "per_run": [[t.as_dict() for t in run] for run in self.dieharder_runs],
            },
            "rngtest": rngtest,
            "ent": {
                "whole": self.ent_whole.as_dict() if self.ent_whole else None,
                "parts": [e.as_dict() for e in self.ent_parts],
                "chi_square_uniformity_p": self.ent_uniformity_p,
            },
        }

    def text(self) -> str:
        """The transcript a lab reads beside report.html."""
        lines = [
            f"dieharder: {len(self.dieharder_runs)} run(s), "
            f"{self.bytes_tested():,} bytes read, 0 rewinds",
            f"{'test_name':>20}|ntup| p-values (per run)             |uniformity|verdict",
        ]
        for r in self.dieharder:
            ps = " ".join(f"{p:.6f}" for p in r.p_values)
            u = "-" if r.uniformity_p is None else f"{r.uniformity_p:.6f}"
            verdict = "PASSED" if r.passed else "FAILED"
            lines.append(f"{r.test:>20}|{r.ntup:4d}| {ps:<31}|{u:>10}|{verdict}")
        if self.rngtest is not None:
            lines += ["", self.rngtest.text.rstrip()]
            lines.append(f"agrees with the appliance's FIPS 140-2 count: {self.fips_agrees}")
        if self.ent_whole is not None:
            e = self.ent_whole
            lines += [
                "",
                f"ent over {e.bytes:,} bytes: entropy {e.entropy:.6f} bits/byte, chi-square "
                f"{e.chi_square:.2f} (p {e.chi_square_p:.4f}), mean {e.mean:.4f}, "
                f"pi {e.monte_carlo_pi:.6f}, serial correlation {e.serial_correlation:.6f}",
            ]
            uniform = self.ent_uniformity_p
            if uniform is not None:
                lines.append(
                    f"ent chi-square p over {len(self.ent_parts)} parts: uniformity {uniform:.6f}"
                )
        lines += ["", "PASSED" if self.passed else "FAILED: " + "; ".join(self.failing)]
        return "\n".join(lines) + "\n"


def run_external(
    stream: Reader,
    data: bytes,
    *,
    tests: Sequence[int],
    runs: int = 1,
    psamples: int | None = None,
    fips_counts: dict[str, int] | None = None,
) -> ExternalReport:
    """dieharder on ``stream``; rngtest and ent on ``data`` (may be empty: skipped)."""
    dieharder_runs = [[run_test(stream, n, psamples) for n in tests] for _ in range(runs)]
    rngtest = run_rngtest(data) if data else None
    agrees = None
    if rngtest is not None and fips_counts is not None:
        agrees = all(rngtest.counts.get(k) == v for k, v in fips_counts.items())
    parts = []
    if data and runs > 1:
        size = len(data) // runs
        parts = [run_ent(data[i * size : (i + 1) * size]) for i in range(runs)]
    return ExternalReport(
        dieharder=summarise(dieharder_runs),
        dieharder_runs=dieharder_runs,
        rngtest=rngtest,
        fips_agrees=agrees,
        ent_whole=run_ent(data) if data else None,
        ent_parts=parts,
    )
