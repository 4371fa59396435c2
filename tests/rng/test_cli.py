"""``croupier rng``: kat, health, and stream piped into the real rngtest and ent.

Needs the Debian packages rng-tools5 (rngtest) and ent on the PATH.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk_ui.cli import main

DATA = Path(__file__).parents[1] / "data" / "cavp"
CROUPIER = [sys.executable, "-m", "kiosk_ui.cli"]


def test_kat_runs_nist_files_and_ends_with_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "rng",
            "kat",
            str(DATA / "no_reseed" / "HMAC_DRBG.rsp"),
            str(DATA / "pr_false" / "CTR_DRBG.rsp"),
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[-1] == "2400 passed, 0 failed"
    assert any(
        "skipped (not implemented): CTR_DRBG [3KeyTDEA use df] (240)" in line for line in out
    )


def test_kat_exits_non_zero_on_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (DATA / "pr_true_extracts" / "HMAC_DRBG.rsp").read_text()
    bad = tmp_path / "HMAC_DRBG.rsp"
    bad.write_text(text.replace("ReturnedBits = d3", "ReturnedBits = d4"))
    assert main(["rng", "kat", str(bad)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "0 passed, 1 failed"


def test_kat_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rng", "kat", str(tmp_path / "nope.rsp")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("croupier: error:") and "no such file" in err and "Traceback" not in err


def test_health_reports_counters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rng", "health", "--source", "sim", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "for_play=NO state=ok" in out
    assert re.search(r"samples=\d+ windows=\d+ rct_cutoff=6 apt_cutoff=\d+/1024", out)
    assert re.search(r"drbg CTR_DRBG\(AES-256 use df\): requests=16 bytes=1048576", out)


def test_health_shows_a_failed_source(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["rng", "health", "--source", "hw", "--url", "sim://trng?seed=1&fault=stuck"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "state=failed" in out and "HALTED" in out and "RCT" in out


def run_pipe(stream_args: list[str], consumer: list[str]) -> subprocess.CompletedProcess[bytes]:
    producer = subprocess.Popen([*CROUPIER, "rng", "stream", *stream_args], stdout=subprocess.PIPE)
    assert producer.stdout is not None
    result = subprocess.run(consumer, stdin=producer.stdout, capture_output=True, timeout=120)
    producer.stdout.close()
    assert producer.wait(timeout=60) == 0
    return result


def test_stream_into_rngtest_shows_a_good_generator() -> None:
    """4 MB = 1600 FIPS 140-2 blocks; a good generator fails about 0.08 % of them.

    rngtest keeps the first 32 bits to prime its continuous-run test, hence the + 4.
    """
    result = run_pipe(["--source", "sim", "--seed", "42", "--bytes", "4000004"], ["rngtest"])
    text = result.stderr.decode()
    ok = int(re.search(r"FIPS 140-2 successes: (\d+)", text).group(1))  # type: ignore[union-attr]
    bad = int(re.search(r"FIPS 140-2 failures: (\d+)", text).group(1))  # type: ignore[union-attr]
    assert ok + bad == 1600
    assert bad <= 8  # Poisson(1.3): P(> 8) < 1e-5; the seed makes it fixed anyway


def test_stream_into_ent() -> None:
    result = run_pipe(["--source", "os", "--bytes", "2000000"], ["ent"])
    text = result.stdout.decode()
    entropy = float(re.search(r"Entropy = ([\d.]+) bits per byte", text).group(1))  # type: ignore[union-attr]
    assert entropy > 7.999


def test_raw_stream_is_the_tested_source_samples() -> None:
    out = subprocess.run(
        [*CROUPIER, "rng", "stream", "--source", "sim", "--seed", "5", "--raw", "--bytes", "5000"],
        capture_output=True,
        check=True,
    ).stdout
    from rng.sources import SimSource

    source = SimSource(seed=5)
    source.read(1024)  # the start-up samples are tested and discarded
    assert out == source.read(5000)


def test_closed_pipe_is_quiet() -> None:
    with subprocess.Popen(
        [*CROUPIER, "rng", "stream", "--source", "os", "--bytes", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as producer:
        assert producer.stdout is not None and producer.stderr is not None
        assert len(producer.stdout.read(100_000)) == 100_000
        producer.stdout.close()
        assert producer.wait(timeout=30) == 0
        assert producer.stderr.read() == b""


def test_bad_option_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rng", "stream", "--bytes", "-1", "--source", "os"]) == 2
    assert "--bytes must be >= 0" in capsys.readouterr().err


def test_stream_from_a_simulated_hardware_trng_is_reproducible() -> None:
    cmd = [*CROUPIER, "rng", "stream", "--source", "hw", "--url", "sim://trng?seed=4"]
    first = subprocess.run([*cmd, "--bytes", "3000"], capture_output=True, check=True).stdout
    again = subprocess.run([*cmd, "--bytes", "3000"], capture_output=True, check=True).stdout
    assert len(first) == 3000 and first == again  # the simulated device is seeded


def test_stream_stops_with_one_line_when_the_trng_is_stuck() -> None:
    url = "sim://trng?seed=4&fault=stuck"
    result = subprocess.run(
        [*CROUPIER, "rng", "stream", "--source", "hw", "--url", url, "--bytes", "3000"],
        capture_output=True,
    )
    assert result.returncode == 2 and result.stdout == b""
    err = result.stderr.decode().strip().splitlines()
    assert len(err) == 1 and "RCT" in err[0] and err[0].startswith("croupier: error:")


def test_stream_fallback_says_so_on_stderr_and_keeps_streaming() -> None:
    url = "sim://trng?seed=4&fault=biased"
    args = ["--source", "hw", "--url", url, "--policy", "fallback", "--bytes", "3000"]
    result = subprocess.run([*CROUPIER, "rng", "stream", *args], capture_output=True)
    assert result.returncode == 0 and len(result.stdout) == 3000
    err = result.stderr.decode().strip().splitlines()
    assert len(err) == 1 and err[0].startswith("croupier: rng alarm (fallback):")
    assert "switched to os:" in err[0]
