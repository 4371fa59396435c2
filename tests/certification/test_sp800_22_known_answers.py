"""SP 800-22: Appendix B p-values of the five NIST sample files and the section 2 examples.

Every expected value is read from tests/data/nist-sts (NIST's published numbers).
"""

from __future__ import annotations

import csv
import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from certification.stats.bitstream import read_bits
from certification.stats.sp800_22 import (
    Sequence,
    approximate_entropy,
    block_frequency,
    cumulative_sums,
    dft,
    frequency,
    linear_complexity,
    longest_run,
    overlapping_template,
    rank,
    rows,
    run_battery,
    runs,
    serial,
)
from certification.stats.sp800_22.templates import aperiodic_templates

DATA = Path(__file__).resolve().parent.parent / "data" / "nist-sts"
FILES = {"e": "data.e", "pi": "data.pi", "sqrt2": "data.sqrt2", "sqrt3": "data.sqrt3",
         "sha1": "data.sha1"}  # fmt: skip


def _csv(name: str) -> list[dict[str, str]]:
    with (DATA / name).open() as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


@cache
def _bits(name: str) -> np.ndarray:
    bits, _ = read_bits(DATA / FILES[name])
    return bits[:1_000_000]


@cache
def _battery(name: str) -> dict[tuple[str, str | None], float | None]:
    return {(r.test, r.variant): r.p_value for r in rows(run_battery(_bits(name)))}


APPENDIX_B = [
    (row["test"], row["variant"] or None, name, row[name])
    for row in _csv("appendix_b.csv")
    for name in FILES
]


@pytest.mark.parametrize(("test", "variant", "name", "expected"), APPENDIX_B)
def test_appendix_b(test: str, variant: str | None, name: str, expected: str) -> None:
    got = _battery(name)[(test, variant)]
    if expected == "NA":
        assert got is None  # not applicable, never a p-value
    else:
        assert got is not None
        assert f"{got:.6f}" == expected


@pytest.mark.parametrize("row", _csv("excursions_e.csv"), ids=lambda r: r["variant"])
def test_every_excursion_state_of_e(row: dict[str, str]) -> None:
    got = _battery("e")[(row["test"], row["variant"])]
    assert got is not None
    assert f"{got:.6f}" == row["p_value"]


def test_battery_has_every_variant_row() -> None:
    table = _battery("e")
    counts: dict[str, int] = {}
    for test, _variant in table:
        counts[test] = counts.get(test, 0) + 1
    assert counts["NonOverlappingTemplate"] == 148
    assert counts["RandomExcursions"] == 8
    assert counts["RandomExcursionsVariant"] == 18
    assert counts["CumulativeSums"] == 2
    assert counts["Serial"] == 2
    assert len(table) == 188


def test_templates_match_nist_file() -> None:
    lines = [ln.split() for ln in (DATA / "template9").read_text().splitlines() if ln.strip()]
    from_file = tuple(int("".join(bits), 2) for bits in lines)
    assert aperiodic_templates(9) == from_file


def test_binary_and_ascii_readers_agree() -> None:
    ascii_bits, fmt = read_bits(DATA / "data.e")
    assert fmt == "ascii"
    packed = np.packbits(ascii_bits[:80_000]).tobytes()
    sha_bits, fmt2 = read_bits(DATA / "data.sha1")
    assert fmt2 == "binary" and sha_bits.size == 1_000_000
    from certification.stats.bitstream import parse_bits

    again, _ = parse_bits(packed, "binary")
    assert np.array_equal(again, ascii_bits[:80_000])


# -- section 2 worked examples ---------------------------------------------------------

EXAMPLES = json.loads((DATA / "section2_examples.json").read_text())
FUNCS = {
    "frequency": frequency,
    "block_frequency": block_frequency,
    "runs": runs,
    "dft": dft,
    "approximate_entropy": approximate_entropy,
    "cumulative_sums": cumulative_sums,
    "serial": serial,
    "rank": rank,
    "overlapping_template": overlapping_template,
    "linear_complexity": linear_complexity,
}


def _example_bits(ex: dict[str, object]) -> np.ndarray:
    if "file" in ex:
        bits, _ = read_bits(DATA / str(ex["file"]))
        prefix = ex.get("bits_prefix", 1_000_000)
        assert isinstance(prefix, int)
        return bits[:prefix]
    text = str(ex["bits"])
    text = EXAMPLES.get(text, text)
    return np.frombuffer(text.encode(), dtype=np.uint8) - 48


@pytest.mark.parametrize(
    "ex",
    EXAMPLES["examples"],
    ids=lambda e: f"{e['test']}-{str(e.get('bits', e.get('file')))[:12]}",
)
def test_section_2_example(ex: dict[str, object]) -> None:
    params = ex.get("params", {})
    assert isinstance(params, dict)
    outcome = FUNCS[str(ex["test"])](Sequence(_example_bits(ex)), **params)
    if "variants" in ex:
        variants = ex["variants"]
        assert isinstance(variants, dict)
        got = outcome.by_variant()
        for name, value in variants.items():
            assert f"{got[name]:.6f}" == f"{value:.6f}"
    else:
        assert outcome.p_value is not None
        assert f"{outcome.p_value:.6f}" == f"{ex['p_value']:.6f}"
    stats = ex.get("stats", {})
    assert isinstance(stats, dict)
    for key, value in stats.items():
        got_stat = outcome.statistics[key]
        if isinstance(value, list):
            assert got_stat == value
        else:
            assert got_stat == pytest.approx(value, abs=5e-7)


def test_longest_run_example() -> None:
    ex = EXAMPLES["longest_run_128"]
    bits = np.frombuffer(ex["bits"].encode(), dtype=np.uint8) - 48
    outcome = longest_run(bits)
    assert outcome.statistics["nu"] == ex["nu"]
    assert outcome.p_value is not None
    assert round(outcome.p_value, ex["decimals"]) == round(ex["p_value"], ex["decimals"])


def test_dft_example_formula_and_count() -> None:
    ex = EXAMPLES["dft_example"]
    from certification.stats.sp800_22.dft import dft_p_value

    p, n0, d = dft_p_value(ex["n"], ex["N1"])
    assert f"{p:.6f}" == f"{ex['p_value']:.6f}"
    assert n0 == ex["N0"]
    assert f"{d:.6f}" == f"{ex['d']:.6f}"
    # the count the tool's own computation gives on the document's string
    bits = np.frombuffer(EXAMPLES[ex["bits"]].encode(), dtype=np.uint8) - 48
    assert dft(bits).statistics["N1"] == ex["tool_count"]
