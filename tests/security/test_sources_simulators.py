"""Issue 12 A1: simulated devices never deal for money, and nobody reads their seed.

The attack: a real-money config (``demo.enabled = false``, no ``test_mode``) that puts
``sim://shoe?seed=7`` (or a ``pty://`` simulator, a ``replay://`` recording, or a
``CROUPIER_<ROLE>_URL`` override) behind a live table, so that whoever read the seed
on the unauthenticated ``/api/status`` could predict every card. ``croupier serve``
must refuse such a config with one line naming the role and exit status 2; and no
unauthenticated answer or page may show a device URL's query or the RNG's seed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.security.conftest import demo_settings, real_money_settings, write_config


def _serve_exit(config: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run `croupier serve --port 0 --config F` expecting it to refuse; (status, stderr)."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", "0", "--config", str(config)]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("croupier serve started (it should have refused the simulated device)")
    return proc.returncode, err


def _live_table_config(tmp_path: Path, role: str, url: str, variant: str) -> dict[str, Any]:
    data = real_money_settings(tmp_path / "store")
    data["devices"] = {role: url}
    data["tables"] = [*data["tables"], {"id": f"{role}-live", "variant": variant, "source": role}]
    return data


@pytest.mark.parametrize(
    ("role", "url", "variant"),
    [
        ("shoe", "sim://shoe?seed=7", "baccarat-pinnacle"),
        ("dice", "sim://dice?seed=3", "sicbo-macau"),
        ("wheel", "pty://wheel?seed=5", "roulette-single-zero"),
        ("shoe", "replay:///var/lib/croupier/shoe.jsonl", "baccarat-pinnacle"),
    ],
)
def test_serve_refuses_a_simulated_device_for_money(
    tmp_path: Path, role: str, url: str, variant: str
) -> None:
    config = write_config(tmp_path, _live_table_config(tmp_path, role, url, variant))
    status, err = _serve_exit(config)
    lines = err.strip().splitlines()
    assert status == 2, err
    assert len(lines) == 1, err
    assert lines[0].startswith(f"croupier: error: device role '{role}': ")
    assert "is a simulator and may not deal for money" in lines[0]
    assert "seed" not in lines[0]  # the refusal itself does not print the seed


def test_serve_refuses_a_simulated_override_of_a_real_device(tmp_path: Path) -> None:
    """The file names real hardware; CROUPIER_SHOE_URL swaps in the simulator."""
    data = _live_table_config(tmp_path, "shoe", "serial:///dev/ttyUSB-shoe", "baccarat-pinnacle")
    config = write_config(tmp_path, data)
    status, err = _serve_exit(config, {"CROUPIER_SHOE_URL": "sim://shoe?seed=7"})
    assert status == 2, err
    assert err.strip().splitlines() == [
        "croupier: error: device role 'shoe': sim://shoe is a simulator and may not deal "
        "for money (set [rng] test_mode = true for a lab test)"
    ]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.read().decode())


def test_nothing_unauthenticated_shows_a_seed(served: Any, tmp_path: Path) -> None:
    """A test-mode appliance on seeded simulators: the seeds stay in the config."""
    data = demo_settings(tmp_path / "store")
    data["devices"]["wheel"] = "pty://nowhere?seed=5"  # fails to open: its error is shown
    wheel = {"id": "wheel-live", "variant": "roulette-single-zero", "source": "wheel"}
    data["tables"].append(wheel)
    srv = served(data)
    status = json.loads(_get(srv.url + "/api/status"))
    assert {d["role"]: d["url"] for d in status["devices"]} == {
        "shoe": "sim://shoe",
        "dice": "sim://dice",
        "wheel": "pty://nowhere",
    }
    answers = {
        path: _get(srv.url + path)
        for path in ("/api/status", "/api/health", "/api/tables", "/", "/status", "/history")
    }
    answers["/table/baccarat-live"] = _get(srv.url + "/table/baccarat-live")
    for path, body in answers.items():
        for word in ("seed=", "sim_seed", "seed=7", "seed=3", "seed=5", "seed=11"):
            assert word not in body, f"{path} shows {word!r}: {body[:400]}"
    # The operator API (authenticated) still has the full URL for the technician.
    req = urllib.request.Request(
        srv.url + "/api/operator/login",
        data=json.dumps({"user": "admin", "password": "correct horse battery staple"}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        cookie = r.headers["set-cookie"].split(";", 1)[0]
    req = urllib.request.Request(srv.url + "/api/operator/devices", headers={"cookie": cookie})
    with urllib.request.urlopen(req, timeout=10) as r:
        devices = json.loads(r.read())
    assert "sim://shoe?seed=7" in {d["url"] for d in devices}


def test_test_mode_lets_a_simulator_serve_and_says_so(served: Any, tmp_path: Path) -> None:
    """A lab test: real-money config with [rng] test_mode = true may use the simulator."""
    data = _live_table_config(tmp_path, "shoe", "sim://shoe?seed=7", "baccarat-pinnacle")
    data["rng"] = {"source": "os", "test_mode": True}
    srv = served(data)
    status = json.loads(_get(srv.url + "/api/status"))
    assert status["test_mode"] is True
    assert status["demo"] is False


def test_rng_and_the_device_layer_agree_on_what_simulates() -> None:
    from firmware_bridge.registry import SIMULATOR
    from tests.rng.devices import SIMULATED_SCHEMES

    assert set(SIMULATED_SCHEMES) == {scheme for scheme, sim in SIMULATOR.items() if sim}
