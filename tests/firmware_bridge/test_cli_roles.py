"""Role table (TOML + environment) and the ``croupier devices`` commands."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import ConfigError, WrongDevice
from firmware_bridge.hal import CardDrawn, ShoeEmpty
from firmware_bridge.registry import open_device
from firmware_bridge.roles import load_roles, open_role
from kiosk_ui.cli import main

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "devices.toml"
    path.write_text(text)
    return path


def test_packaged_default_covers_every_role_with_simulators() -> None:
    entries = load_roles(env={})
    assert set(entries) == {"entropy", "shoe", "dice", "wheel"}
    assert all(e.url.startswith("sim://") and e.source == "default" for e in entries.values())


def test_env_beats_file(tmp_path: Path) -> None:
    cfg = write(tmp_path, 'spec = 1\n[devices]\nshoe = "sim://shoe?seed=1"\n')
    entries = load_roles(cfg, env={"CROUPIER_SHOE_URL": "sim://shoe?seed=2"})
    assert entries["shoe"].url == "sim://shoe?seed=2"
    assert entries["shoe"].source == "env CROUPIER_SHOE_URL"
    assert "dice" not in entries


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("spec = 1\n[devices\n", "not valid TOML"),
        ('spec = 2\n[devices]\nshoe = "sim://shoe"\n', "expected 'spec = 1'"),
        ('[devices]\nshoe = "sim://shoe"\n', "expected 'spec = 1'"),
        ('spec = 1\n[devices]\ntoaster = "sim://shoe"\n', "unknown role 'toaster'"),
        ("spec = 1\n[devices]\nshoe = 3\n", "expected a device URL string"),
        ('spec = 1\n[devices]\nshoe = "warp://x"\n', "unknown scheme"),
        ('spec = 1\n[devices]\nshoe = "sim://shoe"\n[extra]\n', "unknown top-level"),
    ],
)
def test_bad_config_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_roles(write(tmp_path, text), env={})


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_roles(tmp_path / "nope.toml", env={})


def test_open_role_checks_the_device_plays_it(tmp_path: Path) -> None:
    cfg = write(tmp_path, 'spec = 1\n[devices]\nshoe = "sim://dice"\nentropy = "sim://trng"\n')
    with pytest.raises(WrongDevice, match="not a shoe device"):
        open_role("shoe", config=cfg, env={})
    with open_role("entropy", config=cfg, env={}) as dev:
        assert dev.status().role == "entropy"


# -- the command line -----------------------------------------------------------------


def test_devices_list_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["devices", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["ROLE", "URL", "SOURCE", "STATE"]
    assert len(out) == 5
    assert all(" ok " in line for line in out[1:])


def test_devices_list_shows_unavailable_device(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = write(tmp_path, f'spec = 1\n[devices]\nshoe = "serial://{tmp_path}/ttyX?model=shoe"\n')
    assert main(["devices", "list", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "unavailable" in out
    assert f"no serial port at {tmp_path}/ttyX" in out


def test_devices_list_bad_config_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = write(tmp_path, "spec = 1\n[devices]\ncroupier = 1\n")
    assert main(["devices", "list", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("croupier: error: ")
    assert "unknown role 'croupier'" in err
    assert len(err.strip().splitlines()) == 1


def test_probe_healthy_and_failing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["devices", "probe", "sim://shoe?seed=2"]) == 0
    out = capsys.readouterr().out
    assert "SIM-SHOE-2" in out
    assert "sim-1.0.0" in out
    assert main(["devices", "probe", "sim://trng?fault=stuck"]) == 1
    assert "FAIL: stuck output" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("serial:///dev/ttyNOPE0?model=shoe", "no serial port at /dev/ttyNOPE0"),
        ("serial:///dev/ttyNOPE0", "say which device it is with model="),
        ("sim://shoe?decks=0", "decks=0 is not one of"),
    ],
)
def test_probe_errors_are_one_line(
    url: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["devices", "probe", url]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_probe_timeout_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = os.openpty()
    try:
        url = f"serial://{os.ttyname(slave)}?model=dice&ack_timeout=0.05&max_retries=1"
        assert main(["devices", "probe", url]) == 2
    finally:
        os.close(slave)
        os.close(master)
    err = capsys.readouterr().err
    assert "no ACK for HELLO after 2 tries" in err
    assert len(err.strip().splitlines()) == 1


def test_devices_sim_serves_a_shoe_on_a_pty(tmp_path: Path) -> None:
    link = tmp_path / "ttyShoe"
    command = [sys.executable, "-m", "kiosk_ui.cli", "devices", "sim", "shoe", "--seed", "4"]
    command += ["--set", "decks=1", "--link", str(link)]
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdin is not None
        path = proc.stdout.readline().strip()
        assert path == str(link)
        with open_device(f"serial://{path}?model=shoe") as shoe:
            proc.stdin.write("duplicate\n")
            proc.stdin.flush()
            shoe.arm()  # type: ignore[attr-defined]
            events = []
            while not events or not isinstance(events[-1], ShoeEmpty):
                event = shoe.next_event(timeout=5.0)  # type: ignore[attr-defined]
                assert event is not None
                events.append(event)
        cards = [e for e in events if isinstance(e, CardDrawn)]
        assert [c.position for c in cards] == list(range(2, 53))  # 1 is the burn card
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()  # and close its pipes, so nothing leaks into the next test
            proc.communicate()
            raise
    assert proc.returncode == 0
    assert "Traceback" not in err
    assert not link.exists()
