"""The NIST tool's ``finalAnalysisReport.txt`` layout, line for line (sts-2.1.2 assess.c).

One row per test variant in the tool's order: the ten histogram bins C1..C10, the
uniformity P-VALUE (starred below 0.0001, dashes when undefined), the proportion
passed/sample (starred outside the acceptance interval) and the test name.
"""

from __future__ import annotations

from collections.abc import Sequence

from certification.stats.sp800_22.final_analysis import (
    EXCURSION_TESTS,
    VariantSummary,
    pass_bounds,
)

RULE = "-" * 78
DASHES = "- " * 40 + "\n"


def _row(s: VariantSummary) -> str:
    out = "".join(f"{f:3d} " for f in s.histogram)
    if s.uniformity_p is None:
        out += "    ----    "
    elif s.uniformity_p < 0.0001:
        out += f" {s.uniformity_p:8.6f} * "
    else:
        out += f" {s.uniformity_p:8.6f}   "
    if s.sample_size == 0:
        out += f" ------     {s.test}\n"
    elif not s.proportion_ok:
        out += f"{s.passed:4d}/{s.sample_size:<4d} *  {s.test}\n"
    else:
        out += f"{s.passed:4d}/{s.sample_size:<4d}    {s.test}\n"
    return out


def final_analysis_report(summaries: Sequence[VariantSummary], generator: str) -> str:
    """The full text of ``finalAnalysisReport.txt``."""
    lines = [
        RULE + "\n",
        "RESULTS FOR THE UNIFORMITY OF P-VALUES AND THE PROPORTION OF PASSING SEQUENCES\n",
        RULE + "\n",
        f"   generator is <{generator}>\n",
        RULE + "\n",
        " C1  C2  C3  C4  C5  C6  C7  C8  C9 C10  P-VALUE  PROPORTION  STATISTICAL TEST\n",
        RULE + "\n",
    ]
    lines += [_row(s) for s in summaries]
    general = [s for s in summaries if s.test not in EXCURSION_TESTS]
    excursion = [s for s in summaries if s.test in EXCURSION_TESTS]
    lines.append("\n\n" + DASHES)
    if general:
        size = general[-1].sample_size
        if size == 0:
            lines.append(
                "The minimum pass rate for each statistical test with the exception of the\n"
                "random excursion (variant) test is undefined.\n\n"
            )
        else:
            lines.append(
                "The minimum pass rate for each statistical test with the exception of the\n"
                f"random excursion (variant) test is approximately = {pass_bounds(size)[0]} "
                "for a\n"
                f"sample size = {size} binary sequences.\n\n"
            )
    if excursion:
        size = excursion[-1].sample_size
        if size == 0:
            lines.append(
                "The minimum pass rate for the random excursion (variant) test is undefined.\n\n"
            )
        else:
            lines.append(
                "The minimum pass rate for the random excursion (variant) test\n"
                f"is approximately = {pass_bounds(size)[0]} for a sample size = {size} "
                "binary sequences.\n\n"
            )
    lines.append(
        "For further guidelines construct a probability table using the MAPLE program\n"
        "provided in the addendum section of the documentation.\n"
    )
    lines.append(DASHES)
    return "".join(lines)
