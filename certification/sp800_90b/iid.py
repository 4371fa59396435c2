"""The IID track (SP 800-90B 5 and 6.1), as NIST's ``ea_iid`` runs it.

The samples pass as IID when the permutation tests, both chi-square tests and the LRS test
pass; the entropy estimate is then the most common value estimate: ``H_original`` on the
symbols, ``H_bitstring`` on the bitstring (multi-bit symbols), and
``min(H_original, word_size * H_bitstring)``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from certification.sp800_90b.chisquare import ChiSquareRow, goodness_of_fit, independence
from certification.sp800_90b.lrs_test import LrsTestResult, lrs_test
from certification.sp800_90b.mcv import McvResult, most_common_value
from certification.sp800_90b.memory import reuses_freed_memory
from certification.sp800_90b.permutation import PERMS, PermutationResult, permutation_tests
from certification.sp800_90b.report import g17
from certification.sp800_90b.samples import Samples


@dataclass(frozen=True, slots=True)
class IidResult:
    """The IID track's tests and estimate."""

    samples: int
    alph_size: int
    word_size: int
    mean: float
    median: float
    mcv_literal: McvResult | None
    mcv_bitstring: McvResult | None
    chi_square: tuple[ChiSquareRow, ...]
    lrs: LrsTestResult
    permutation: PermutationResult
    h_original: float | None
    h_bitstring: float | None
    h_assessed: float

    @property
    def iid(self) -> bool:
        """True when every IID test passed."""
        return (
            all(r.passed for r in self.chi_square) and self.lrs.passed and self.permutation.passed
        )


@reuses_freed_memory
def assess_iid(
    samples: Samples,
    *,
    conditioned: bool = False,
    seed: int = 0,
    shuffles: int = PERMS,
    early_stop: bool = True,
) -> IidResult:
    """Run the IID track on ``samples``.

    The permutation tests (nearly all of the time, on both cores) start first, in a
    thread; the mean, median, most-common-value estimates, chi-square and LRS tests are
    computed meanwhile.
    """
    raw = samples.raw
    k = samples.alph_size
    binary = k == 2
    with ThreadPoolExecutor(1) as runner:
        perm_job = runner.submit(
            permutation_tests, raw, binary, seed=seed, shuffles=shuffles, early_stop=early_stop
        )
        n = samples.len
        mean = float(raw.astype("int64").sum()) / n
        srt = raw.copy()
        srt.sort()
        half = n // 2
        if binary:
            median = 0.5
        elif n % 2:
            median = float(srt[half])
        else:
            median = (float(srt[half]) + float(srt[half - 1])) / 2.0
        word = samples.word_size
        mcv_lit = most_common_value(samples.symbols, k) if not conditioned else None
        mcv_bits = most_common_value(samples.bits, 2) if (k > 2 or conditioned) else None
        h_original = mcv_lit.min_entropy if mcv_lit is not None else None
        h_bitstring = mcv_bits.min_entropy if mcv_bits is not None else None
        h = float(word)
        if h_original is not None:
            h = min(h, h_original)
        if h_bitstring is not None:
            h = min(h, word * h_bitstring)
        chi = (independence(samples.symbols, k), goodness_of_fit(samples.symbols, k))
        lrs = lrs_test(samples.symbols, k)
        perm = perm_job.result()
    return IidResult(
        samples=n,
        alph_size=k,
        word_size=word,
        mean=mean,
        median=median,
        mcv_literal=mcv_lit,
        mcv_bitstring=mcv_bits,
        chi_square=chi,
        lrs=lrs,
        permutation=perm,
        h_original=h_original,
        h_bitstring=h_bitstring,
        h_assessed=h,
    )


def render_iid(res: IidResult, path: str, *, verbose: int = 1) -> str:
    """Console text in the terms of ``ea_iid``."""
    out: list[str] = []
    if verbose >= 2:
        out.append(f"Opening file: '{path}'")
        out.append(
            f"Loaded {res.samples} samples of {res.alph_size} distinct "
            f"{res.word_size}-bit-wide symbols"
        )
    out.append("Calculating baseline statistics...")
    out.append(f"\tRaw Mean: {res.mean:f}")
    out.append(f"\tMedian: {res.median:f}")
    out.append(f"\tBinary: {'true' if res.alph_size == 2 else 'false'}")
    out.append("")
    for label, m in (("Literal", res.mcv_literal), ("Bitstring", res.mcv_bitstring)):
        if m is None:
            continue
        if verbose >= 2:
            out.append(f"{label} Most Common Value Estimate: Mode count = {m.mode}")
            out.append(f"{label} Most Common Value Estimate: p-hat = {g17(m.p_hat)}")
            out.append(f"{label} Most Common Value Estimate: p_u = {g17(m.p_u)}")
            out.append(f"{label} Most Common Value Estimate: min entropy = {g17(m.min_entropy)}")
        else:
            out.append(
                f"{label} MCV Estimate: mode = {m.mode}, p-hat = {g17(m.p_hat)}, p_u = {g17(m.p_u)}"
            )
    out.append("")
    if res.h_original is not None:
        out.append(f"H_original: {res.h_original:f}")
    if res.h_bitstring is not None:
        out.append(f"H_bitstring: {res.h_bitstring:f}")
        if res.h_original is not None:
            out.append(f"min(H_original, {res.word_size} X H_bitstring): {res.h_assessed:f}")
    out.append("")
    for row in res.chi_square:
        out.append(row.name)
        out.append(f"\tscore = {row.score:f}")
        out.append(f"\tdegrees of freedom = {row.df}")
        out.append(f"\tp-value = {row.p_value:f}")
        out.append("")
    chi_ok = all(r.passed for r in res.chi_square)
    out.append("** Passed chi square tests" if chi_ok else "** Failed chi square tests")
    out.append("")
    out.append("Literal Longest Repeated Substring results")
    out.append(f"\tP_col: {res.lrs.p_col:g}")
    out.append(f"\tLength of LRS: {res.lrs.w}")
    out.append(f"\tPr(X >= 1): {res.lrs.pr_x_ge_1:g}")
    out.append(
        "** Passed length of longest repeated substring test"
        if res.lrs.passed
        else "** Failed length of longest repeated substring test"
    )
    out.append("")
    out.append(f"Permutation tests ({res.permutation.shuffles} shuffles run)")
    out.append("              statistic  C[i][0]  C[i][1]  C[i][2]")
    out.append("----------------------------------------------------")
    for r in res.permutation.rows:
        star = "" if r.passed else "*"
        out.append(f"{r.name + star:>23}{r.c0:>9}{r.c1:>9}{r.c2:>9}")
    out.append("(* denotes failed test)")
    out.append(
        "** Passed IID permutation tests"
        if res.permutation.passed
        else "** Failed IID permutation tests"
    )
    out.append("")
    out.append("IID assumption: " + ("holds" if res.iid else "rejected"))
    return "\n".join(out) + "\n"


def iid_json(res: IidResult) -> dict[str, Any]:
    """JSON-ready dictionary of the IID track."""
    return {
        "samples": res.samples,
        "distinct_symbols": res.alph_size,
        "bits_per_symbol": res.word_size,
        "mean": res.mean,
        "median": res.median,
        "iid": res.iid,
        "h_original": res.h_original,
        "h_bitstring": res.h_bitstring,
        "h_assessed": res.h_assessed,
        "chi_square": [
            {"test": r.name, "score": r.score, "df": r.df, "p_value": r.p_value, "passed": r.passed}
            for r in res.chi_square
        ],
        "lrs": {
            "p_col": res.lrs.p_col,
            "length": res.lrs.w,
            "pr_x_ge_1": res.lrs.pr_x_ge_1,
            "passed": res.lrs.passed,
        },
        "permutation": {
            "shuffles": res.permutation.shuffles,
            "tests": [
                {
                    "statistic": r.name,
                    "t": r.t,
                    "c0": r.c0,
                    "c1": r.c1,
                    "c2": r.c2,
                    "passed": r.passed,
                }
                for r in res.permutation.rows
            ],
        },
    }
