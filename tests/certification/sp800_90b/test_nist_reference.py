"""Every estimator on NIST's sample files reproduces ``ea_non_iid -vv`` (the .res files)."""

from __future__ import annotations

import pytest

from certification.sp800_90b.non_iid import assess_non_iid
from certification.sp800_90b.report import render_non_iid
from certification.sp800_90b.samples import read_samples

from .resfile import DATA, parse, same_value

SHORT = ["rand1_short", "rand4_short", "rand8_short"]


def _compare(name: str) -> None:
    expected = parse((DATA / f"{name}.res").read_text())
    samples = read_samples(DATA / f"{name}.bin")
    result = assess_non_iid(samples)
    actual = parse(render_non_iid(result, f"../../bin/{name}.bin", verbose=2))
    assert len(expected) > 40
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    assert not missing, f"quantities not reported: {missing}"
    assert not extra, f"quantities the tool does not report: {extra}"
    wrong = {
        key: (expected[key], actual[key])
        for key in expected
        if not same_value(expected[key], actual[key])
    }
    assert not wrong, f"differs from NIST's tool: {wrong}"


@pytest.mark.parametrize("name", SHORT)
def test_short_files_match_nist_tool(name: str) -> None:
    _compare(name)


@pytest.mark.slow
def test_truerand_8bit_matches_nist_tool() -> None:
    _compare("truerand_8bit")


def test_parser_sees_every_estimator() -> None:
    expected = parse((DATA / "rand4_short.res").read_text())
    estimators = {key[1] for key in expected if len(key) == 3}
    assert estimators == {
        "Most Common Value",
        "Collision",
        "Markov",
        "Compression",
        "t-Tuple",
        "LRS",
        "MultiMCW Prediction",
        "Lag Prediction",
        "MultiMMC Prediction",
        "LZ78Y Prediction",
    }


def test_same_value_rejects_real_differences() -> None:
    assert same_value("0.50080000000000002", "0.5008")
    assert not same_value("0.50080000000000002", "0.5009")
    assert not same_value("5008", "5009")
    assert not same_value("Found p.", "Could Not Find p.")


def test_conditioned_mode_assesses_the_bitstring_only() -> None:
    # The tool's -c runs the same bitstring estimators; h' is H_bitstring of the transcript.
    expected = parse((DATA / "rand4_short.res").read_text())
    result = assess_non_iid(read_samples(DATA / "rand4_short.bin"), conditioned=True)
    assert {row.track for row in result.rows} == {"Bitstring"}
    assert result.h_original is None
    assert result.h_bitstring is not None
    assert same_value(expected[("H_bitstring",)], repr(result.h_bitstring))
    assert "h': 0.803872" in render_non_iid(result, "f.bin")
