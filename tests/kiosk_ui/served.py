"""What the served crash tests share: a kiosk config on a new store, ``croupier serve`` in
its own process, JSON requests to it, and the SIGKILL (the log read back verified after
it: ``conftest.verified_lines``).

``test_kill_served`` (baccarat terminals) and ``test_kill_served_room`` (a poker room)
start, kill and check the server the same way; only what they play and what they count
differ. ``test_floor_served`` starts its two appliances with :func:`serve` too.
"""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def config(tmp_path: Path, sections: list[str], url: str | None = None) -> Path:
    """``tmp_path/kiosk.toml``: a FULL-sync store at ``tmp_path/store`` (on ``url``'s
    PostgreSQL if given), the seeded simulator, demo credit, the operator, then
    ``sections`` (the tables, any ``[seats]``); the store is made once, as ``make run``
    does (``serve`` never creates one)."""
    database = f'\nurl = "{url}"' if url else ""
    lines = [
        f'[store]\ndir = "{tmp_path / "store"}"\nsynchronous = "FULL"{database}',
        '[rng]\nsource = "sim"\nsim_seed = 9\ntest_mode = true',
        "[demo]\nenabled = true\ncredit = 10000000",
        '[operator]\nuser = "admin"\npassword = "kill-test-password"',
        "[lobby]\nall_variants = false",
        *sections,
    ]
    path = tmp_path / "kiosk.toml"
    path.write_text("\n\n".join(lines) + "\n")
    init = [sys.executable, "-m", "kiosk_ui.cli", "store", "init", "--config", str(path)]
    subprocess.run(init, check=True, capture_output=True)
    return path


def serve(cfg: Path) -> tuple[subprocess.Popen[str], int]:
    """``croupier serve --port 0`` on ``cfg``: the process and its port, once it listens."""
    cmd = [sys.executable, "-m", "kiosk_ui.cli", "serve", "--port", "0", "--config", str(cfg)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if m := re.search(r"http://127\.0\.0\.1:(\d+)/", line):
            port = int(m.group(1))
            wait_listening(port)  # the address is printed just before the socket listens
            return proc, port
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("croupier serve did not start")


def wait_listening(port: int, tries: int = 100) -> None:
    """Return once ``port`` on loopback takes a connection (``tries`` probes 50 ms apart)."""
    for _ in range(tries):
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            probe.connect()
            return
        except OSError:
            time.sleep(0.05)
        finally:
            probe.close()
    raise AssertionError(f"nothing listens on port {port}")


def sigkill(proc: subprocess.Popen[str]) -> None:
    """Kill the server with no warning (what a power cut leaves) and reap it."""
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.stdout is not None
    proc.stdout.close()


def post(
    port: int, path: str, body: object, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"content-type": "application/json"}
        if token:
            headers["x-player-token"] = token
        conn.request("POST", path, json.dumps(body), headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def get(port: int, path: str, token: str) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"x-player-token": token})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def new_players(port: int, names: list[str]) -> list[str]:
    """A player session for each name; their tokens (they outlive restarts: store and key)."""
    tokens = []
    for name in names:
        status, body = post(port, "/api/players", {"name": name})
        assert status == 201
        tokens.append(body["token"])
    return tokens
