"""Issue 19, point 4: Debian's dieharder, rngtest and ent on the appliance's stream.

The real tools, fed through pipes: a known-bad generator (a 16-bit linear congruential
generator's high bytes, period 65,536) fails dieharder and the report names the tests;
a file too short for the tests asked is refused, never rewound; rngtest's counts are
the appliance's own FIPS 140-2 counts of the same bytes; the second level flags
p-values that are individually fine but not uniform across runs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from certification.external.battery import UNIFORMITY_ALPHA, run_external, uniformity
from certification.external.dieharder import DataExhausted, parse, run_test
from certification.external.ent import run_ent
from certification.external.rngtest import run_rngtest
from certification.stats.fips140_2 import fips140_2
from kiosk_ui.cli import main


def lcg_bytes(size: int) -> bytes:
    """High bytes of x -> 25173 x + 13849 mod 2^16: a period of 65,536 bytes, repeated."""
    out, x = bytearray(), 1
    for _ in range(65_536):
        x = (x * 25_173 + 13_849) & 0xFFFF
        out.append(x >> 8)
    return (bytes(out) * (size // 65_536 + 1))[:size]


def test_a_known_bad_generator_fails_dieharder_and_the_report_names_the_test(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "lcg.bin"
    bad.write_bytes(lcg_bytes(96 << 20))
    args = ["certify", "external", "--in", str(bad), "--dieharder", "0", "--dieharder-runs", "1",
            "--dieharder-psamples", "20", "--json"]  # fmt: skip
    assert main(args) == 1  # failed, not refused
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is False
    assert "dieharder diehard_birthdays (-d 0, ntup 0)" in report["failing"]
    row = report["dieharder"]["rows"][0]
    assert row["assessments"] == ["FAILED"] and row["passed"] is False
    assert report["dieharder"]["rewinds"] == 0
    # rngtest's FIPS 140-2 blocks pass this generator: that is why labs run dieharder too
    assert report["rngtest"]["passed"] is True


def test_a_file_too_short_for_the_tests_is_refused_not_rewound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = tmp_path / "short.bin"
    short.write_bytes(os.urandom(1 << 20))
    assert main(["certify", "external", "--in", str(short), "--dieharder", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("croupier: error: dieharder test 0 ran out")
    assert "would rewind" in err[0]


def test_each_test_reads_fresh_bytes_and_the_count_is_what_was_fed() -> None:
    data = os.urandom(24 << 20)
    taken: list[tuple[int, int]] = []
    position = 0

    def read(n: int) -> bytes:
        nonlocal position
        block = data[position : position + n]
        taken.append((position, len(block)))
        position += len(block)
        return block

    run = run_test(read, 0, psamples=5)
    assert run.rows[0].test == "diehard_birthdays" and run.rows[0].psamples == 5
    assert run.bytes_read == sum(n for _, n in taken) == position
    with pytest.raises(DataExhausted):  # what is left is too short for a second one
        run_test(read, 0, psamples=5)


def test_rngtest_counts_equal_the_appliance_fips140_2_count() -> None:
    """The appliance counts FIPS 140-2 as rngtest does; the real rngtest agrees, on good
    data and on data with failing blocks."""
    good = os.urandom(2_500 * 200 + 4)
    stuck = bytearray(good)
    stuck[10_000:12_500] = b"\xff" * 2_500  # one block of ones: monobit, runs, long run
    for data in (good, bytes(stuck)):
        ours = fips140_2(data).as_dict()
        tool = run_rngtest(data).counts
        assert tool["successes"] == ours["successes"] and tool["failures"] == ours["failures"]
        assert tool["bits_received"] == ours["bits_received"]
    assert run_rngtest(bytes(stuck)).counts["failures"] >= 1


def test_ent_figures() -> None:
    uniform = run_ent(bytes(range(256)) * 4_096)
    assert uniform.entropy == pytest.approx(8.0) and uniform.chi_square == 0.0
    assert uniform.mean == pytest.approx(127.5)
    constant = run_ent(b"\x00" * 100_000)
    assert constant.entropy == 0.0 and constant.chi_square_p < 1e-12


def test_second_level_flags_p_values_that_are_not_uniform() -> None:
    assert uniformity([0.5]) is None
    assert uniformity([0.41, 0.42, 0.43, 0.44] * 10) < UNIFORMITY_ALPHA  # type: ignore[operator]
    spread = [(i + 0.5) / 40 for i in range(40)]
    assert uniformity(spread) > 0.5  # type: ignore[operator]


def test_parse_reads_dieharder_rows_and_skips_its_headers() -> None:
    text = (
        "#=====#\n   rng_name    |rands/second|   Seed   |\nstdin_input_raw|  3.48e+07  |12619|\n"
        "        test_name   |ntup| tsamples |psamples|  p-value |Assessment\n"
        "          sts_serial|  12|    100000|       5|0.99996710|   WEAK   \n"
        "   diehard_birthdays|   0|       100|     100|0.79400842|  PASSED  \n"
    )
    rows = parse(text)
    assert [(r.test, r.ntup, r.assessment) for r in rows] == [
        ("sts_serial", 12, "WEAK"),
        ("diehard_birthdays", 0, "PASSED"),
    ]
    assert rows[1].p_value == 0.79400842


def test_run_external_without_data_runs_dieharder_only() -> None:
    # A seeded stream, not /dev/urandom: dieharder's verdict on 5 p-samples is itself a
    # draw (one CI run of urandom gave birthdays p = 0.99999978, FAILED), and a test's
    # outcome must not be; this stream passes, every time.
    stream = np.random.default_rng(2026)
    report = run_external(stream.bytes, b"", tests=[0], runs=1, psamples=5)
    assert report.rngtest is None and report.ent_whole is None
    assert report.dieharder[0].uniformity_p is None and report.passed
