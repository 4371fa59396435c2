"""The ``sp800-90b`` sub-command, driven through a real argparse tree."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from certification.sp800_90b.cli import add_command

from .resfile import DATA


def _parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="certify")
    add_command(root.add_subparsers(dest="battery"))
    return root


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    code: int = args.handler(args)
    return code


def test_verbose_output_is_the_tools_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["sp800-90b", str(DATA / "rand1_short.bin"), "-v"]) == 0
    out = capsys.readouterr().out
    assert "Loaded 10000 samples of 2 distinct 1-bit-wide symbols" in out
    assert "Literal LZ78Y Prediction Estimate: C = 4998" in out
    assert out.rstrip().endswith("Assessed min entropy: 0.61171620479394506")


def test_summary_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["sp800-90b", str(DATA / "rand4_short.bin")]) == 0
    out = capsys.readouterr().out
    assert "min(H_original, 4 X H_bitstring): 3.215488" in out
    assert _run(["sp800-90b", str(DATA / "rand4_short.bin"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["non_iid"]["bits_per_symbol"] == 4
    assert doc["h_assessed"] == pytest.approx(3.2154882678767365, rel=1e-12)
    names = {(e["estimator"], e["track"]) for e in doc["non_iid"]["estimates"]}
    assert ("Compression", "Bitstring") in names and ("LZ78Y Prediction", "Literal") in names


def test_iid_track(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "iid.bin"
    f.write_bytes(np.random.default_rng(105).integers(0, 16, 20_000, dtype=np.uint8).tobytes())
    assert _run(["sp800-90b", str(f), "--iid", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["iid"]["iid"] is True
    assert doc["iid"]["h_assessed"] == pytest.approx(doc["h_assessed"])


def test_bad_input_raises_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read sample file"):
        _run(["sp800-90b", str(tmp_path / "missing.bin")])
    with pytest.raises(ValueError, match="does not fit within 2 bits"):
        _run(["sp800-90b", str(DATA / "rand8_short.bin"), "--bits-per-symbol", "2"])
    with pytest.raises(SystemExit):
        _run(["sp800-90b", "x.bin", "--iid", "--non-iid"])


def test_croupier_certify_dispatch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from kiosk_ui.cli import main

    assert main(["certify", "sp800-90b", str(DATA / "rand1_short.bin")]) == 0
    assert "H_original: 0.611716" in capsys.readouterr().out
    assert main(["certify", "sp800-90b", str(tmp_path / "missing.bin")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("croupier: error: ")
    assert "cannot read sample file" in err[0]
