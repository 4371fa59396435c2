"""``croupier certify``: commands, formats, JSON shape, one-line errors, run and resume."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kiosk_ui.cli import main

DATA = Path(__file__).resolve().parent.parent / "data" / "nist-sts"


def test_sp800_22_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "sp800-22", str(DATA / "data.sha1"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["sequences"] == 1 and doc["length"] == 1_000_000
    assert len(doc["tests"]) == 188
    row = doc["tests"][0]
    assert set(row) >= {"name", "variant", "p_values", "proportion", "uniformity_p"}
    assert (row["name"], row["variant"]) == ("Frequency", None)
    templates = [t for t in doc["tests"] if t["name"] == "NonOverlappingTemplate"]
    assert len(templates) == 148 and templates[0]["variant"] == "000000001"
    excursions = [t for t in doc["tests"] if t["name"] == "RandomExcursions"]
    assert all(t["p_values"] == [None] and t["proportion"] is None for t in excursions)


def test_sp800_22_ascii_and_binary_give_the_same_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bits = np.unpackbits(np.frombuffer((DATA / "data.sha1").read_bytes()[:50_000], np.uint8))
    ascii_file = tmp_path / "bits.txt"
    ascii_file.write_bytes(bytes(bits + 48) + b"\n")
    binary_file = tmp_path / "bits.bin"
    binary_file.write_bytes(np.packbits(bits).tobytes())
    args = ["--sequences", "4", "--length", "100000", "--tests", "frequency,runs,serial"]
    assert main(["certify", "sp800-22", str(ascii_file), *args]) == 0
    text_ascii = capsys.readouterr().out
    assert main(["certify", "sp800-22", str(binary_file), "--input-format", "binary", *args]) == 0
    text_binary = capsys.readouterr().out
    strip = lambda t: [ln for ln in t.splitlines() if "generator is" not in ln]  # noqa: E731
    assert strip(text_ascii) == strip(text_binary)
    assert "   4/4" in text_ascii or "   3/4" in text_ascii


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["certify", "sp800-22", "/no/such/file"], "cannot read"),
        (["certify", "sp800-22", "{bad}", "--input-format", "ascii"], "ASCII bit file"),
        (["certify", "sp800-22", "{short}", "--sequences", "3"], "need"),
        (["certify", "sp800-22", "{short}", "--tests", "frequency,nope"], "unknown test"),
        (["certify", "games", "--game", "no-such-game", "--samples", "50", "--rounds", "50"],
         "no game"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("0101x")
    short = tmp_path / "short.bin"
    short.write_bytes(bytes(range(200)))
    argv = [a.replace("{bad}", str(bad)).replace("{short}", str(short)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("croupier: error: ") and message in err[0]


def test_fips140_2_prints_rngtest_counts_and_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["certify", "fips140-2", str(DATA / "data.sha1")]) == 0
    out = capsys.readouterr().out
    assert "rngtest: FIPS 140-2 successes: 49" in out
    zeros = tmp_path / "zeros.bin"
    zeros.write_bytes(bytes(4 + 2500 * 2))
    assert main(["certify", "fips140-2", str(zeros), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["failures"] == 2 and doc["tests"]["monobit"] == 2


def test_games_single_family(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["certify", "games", "--game", "war", "--rounds", "2000", "--samples", "400",
            "--source", "sim", "--json"]  # fmt: skip
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["passed"] is True
    assert {c["name"] for c in doc["distribution_tests"]} >= {"shuffle-position", "dice-sums"}
    assert doc["rtp"] and all(r["variant"].startswith("war") for r in doc["rtp"])


def _run_args(out: Path, sequences: int = 3) -> list[str]:
    return ["certify", "run", "--source", "sim", "--out", str(out), "--sequences",
            str(sequences), "--length", "64000", "--rounds", "500", "--samples", "200",
            "--game", "war", "--raw-samples", "20000", "--dieharder", "0", "--dieharder-runs",
            "2", "--dieharder-psamples", "5"]  # fmt: skip


def test_run_writes_reports_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(_run_args(out)) == 0
    for name in ("report.html", "report.json", "finalAnalysisReport.txt", "fips140-2.txt",
                 "games.txt", "data.bin", "sp800_22.jsonl", "run.json", "raw.bin",
                 "sp800-90b.txt"):  # fmt: skip
        assert (out / name).is_file(), name
    first = json.loads((out / "report.json").read_text())
    # The raw simulated source is uniform bytes: its assessed min-entropy is high but,
    # from 20,000 samples, well under the 8-bit ceiling (the estimators are conservative).
    assert 5.0 < first["sp800_90b"]["h_assessed"] <= 8.0
    assert "H_original" in (out / "sp800-90b.txt").read_text()
    assert first["sp800_22"]["sequences"] == 3 and len(first["sp800_22"]["tests"]) == 188
    html = (out / "report.html").read_text()
    from certification.install.manifest import build_manifest

    software = build_manifest()  # the report names the build that made it (issue 19, 6)
    assert first["software"]["manifest_sha256"] == software.digest()
    assert first["software"]["files"] == len(software.files)
    assert software.digest() in html
    assert html.count("<svg") >= 17  # 15 histograms, proportion chart, RTP convergence
    external = first["external"]  # dieharder on the live stream, rngtest and ent on data.bin
    assert external["dieharder"]["rewinds"] == 0 and external["dieharder"]["runs"] == 2
    assert [r["test"] for r in external["dieharder"]["rows"]] == ["diehard_birthdays"]
    assert external["rngtest"]["agrees_with_appliance_fips140_2"] is True
    assert external["rngtest"]["successes"] == first["fips140_2"]["successes"]
    assert 7.9 < external["ent"]["whole"]["entropy"] <= 8.0
    assert "diehard_birthdays" in html and "rngtest" in html
    data = (out / "data.bin").read_bytes()

    # simulate an interruption: the last checkpoint line is lost, half a sequence is extra
    lines = (out / "sp800_22.jsonl").read_text().splitlines()
    (out / "sp800_22.jsonl").write_text("\n".join(lines[:1]) + "\n" + lines[1][:40])
    with (out / "data.bin").open("ab") as fh:
        fh.write(b"\x00" * 1000)
    capsys.readouterr()
    assert main(_run_args(out)) == 0
    assert (out / "data.bin").read_bytes() == data  # the same captured sequences, kept
    second = json.loads((out / "report.json").read_text())
    assert second["sp800_22"]["tests"] == first["sp800_22"]["tests"]

    # a different run in the same directory is refused, and nothing is changed
    capsys.readouterr()
    assert main(_run_args(out, sequences=4)) == 2
    assert "different options" in capsys.readouterr().err
    assert (out / "data.bin").read_bytes() == data


def test_run_rejects_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["certify", "run", "--source", "hw", "--out", str(tmp_path / "x")]
    assert main(argv) == 2
    assert "--url" in capsys.readouterr().err
    argv = ["certify", "run", "--source", "sim", "--out", str(tmp_path / "y"), "--length", "1001"]
    assert main(argv) == 2
    assert "multiple of 8" in capsys.readouterr().err


def test_run_on_a_hardware_url_and_a_missing_device(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hw"
    argv = ["certify", "run", "--source", "hw", "--url", "sim://trng", "--out", str(out),
            "--sequences", "1", "--length", "64000", "--rounds", "200", "--samples", "100",
            "--game", "war", "--raw-samples", "4096", "--dieharder", "none"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads((out / "report.json").read_text())["run"]["source"] == "hw"
    missing = tmp_path / "missing"
    argv = ["certify", "run", "--source", "hw", "--url", "serial:///dev/no-such-tty",
            "--out", str(missing)]  # fmt: skip
    capsys.readouterr()
    assert main(argv) == 2
    assert "cannot open the hw source" in capsys.readouterr().err
    assert not missing.exists()  # nothing written for a run that could not start
