"""The NIST final analysis: proportion, uniformity, the excursion sample, the report layout."""

from __future__ import annotations

import pytest

from certification.report.nist_text import final_analysis_report
from certification.stats.sp800_22.final_analysis import (
    as_tool_reads,
    final_analysis,
    pass_bounds,
    summarise,
)
from certification.stats.sp800_22.result import PValue


def test_pvalue_is_judged_as_the_tool_reads_it() -> None:
    # printed as 0.010000 and read into a C float: 0.0099999998 < 0.01, a failure
    assert as_tool_reads(0.0100004) < 0.01
    assert summarise("Frequency", None, [0.0100004]).passed == 0
    assert summarise("Frequency", None, [0.0100006]).passed == 1
    assert as_tool_reads(None) == 0.0


def test_acceptance_interval_truncated_like_the_tool() -> None:
    # 0.99 -+ 3 sqrt(0.99 * 0.01 / m), times m, truncated to int
    assert pass_bounds(100) == (96, 101)
    assert pass_bounds(1000) == (980, 999)
    assert pass_bounds(1) == (0, 1)


def test_uniformity_of_evenly_spread_pvalues_is_one() -> None:
    values = [(i + 0.5) / 100 for i in range(100)]
    s = summarise("Runs", None, values)
    assert s.histogram == (10,) * 10
    assert s.uniformity_p == pytest.approx(1.0)
    assert s.passed == 99 and s.proportion_ok  # 0.005 < 0.01 fails


def test_uniformity_undefined_below_ten_sequences() -> None:
    s = summarise("Runs", None, [0.5] * 9)
    assert s.uniformity_p is None


def test_uniformity_of_clustered_pvalues_is_tiny() -> None:
    s = summarise("Runs", None, [0.95] * 100)
    assert s.histogram[9] == 100
    assert s.uniformity_p is not None and s.uniformity_p < 1e-30
    assert not s.uniformity_ok


def test_excursions_count_only_applicable_sequences() -> None:
    s = summarise("RandomExcursions", "x=+1", [0.5, None, 0.005, None, 0.7])
    assert s.sample_size == 3
    assert s.passed == 2
    other = summarise("Frequency", None, [0.5, 0.005, 0.7])
    assert other.sample_size == 3 and other.passed == 2


def test_final_analysis_keeps_row_order_and_rejects_mismatched_layouts() -> None:
    seq = [PValue("Frequency", None, 0.4), PValue("CumulativeSums", "forward", 0.2)]
    out = final_analysis([seq, seq])
    assert [(s.test, s.variant) for s in out] == [
        ("Frequency", None),
        ("CumulativeSums", "forward"),
    ]
    with pytest.raises(ValueError, match="same tests"):
        final_analysis([seq, seq[:1]])


def test_report_layout() -> None:
    rows = [
        summarise("Frequency", None, [(i + 0.5) / 20 for i in range(20)]),
        summarise("Runs", None, [0.001] * 10 + [0.5] * 10),
        summarise("RandomExcursions", "x=-4", [None] * 20),
    ]
    text = final_analysis_report(rows, "data/data.e").splitlines()
    assert text[3] == "   generator is <data/data.e>"
    assert (
        text[5] == " C1  C2  C3  C4  C5  C6  C7  C8  C9 C10  P-VALUE  PROPORTION  STATISTICAL TEST"
    )
    assert text[7] == "  2   2   2   2   2   2   2   2   2   2  1.000000     20/20      Frequency"
    assert text[8].endswith(" *   10/20   *  Runs")
    assert (
        text[9]
        == "  0   0   0   0   0   0   0   0   0   0     ----     ------     RandomExcursions"
    )
    joined = "\n".join(text)
    assert "random excursion (variant) test is approximately = 18 for a" in joined
    assert "sample size = 20 binary sequences." in joined
    assert "The minimum pass rate for the random excursion (variant) test is undefined." in joined
