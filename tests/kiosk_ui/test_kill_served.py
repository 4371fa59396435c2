"""Crash safety of the served kiosk: SIGKILL `croupier serve` while terminals play.

Terminals post whole rounds (bet slip and Deal, `POST .../round`) to RNG tables, whose
work runs on the event loop and is committed a group at a time. After every kill the
store must hold every round a terminal was answered for, settled with the net it was
told, and nothing half done: the ledger audits to the cent, no game is left open (a
round is one unit of work), and the signed log verifies. Rounds in flight at the kill
were never answered and may be gone; that is allowed, losing an answered one is not.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from certification.log.keys import KeyStore
from certification.log.verify import verify_lines
from kiosk_ui.store import log_records
from kiosk_ui.store.audit import audit_store

TABLES = 6
ROUND = {"bets": {"banker": 500}}
KILLS = 6


def config(tmp_path: Path, url: str | None = None) -> Path:
    database = f'\nurl = "{url}"' if url else ""
    lines = [
        f'[store]\ndir = "{tmp_path / "store"}"\nsynchronous = "FULL"{database}',
        '[rng]\nsource = "sim"\nsim_seed = 9\ntest_mode = true',
        "[demo]\nenabled = true\ncredit = 10000000",
        '[operator]\nuser = "admin"\npassword = "kill-test-password"',
        "[lobby]\nall_variants = false",
    ]
    lines += [f'[[tables]]\nid = "bac-{i}"\nvariant = "baccarat-pinnacle"' for i in range(TABLES)]
    path = tmp_path / "kiosk.toml"
    path.write_text("\n\n".join(lines) + "\n")
    # serve never creates a store: make it once, as `make run` does
    init = [sys.executable, "-m", "kiosk_ui.cli", "store", "init", "--config", str(path)]
    subprocess.run(init, check=True, capture_output=True)
    return path


def serve(cfg: Path) -> tuple[subprocess.Popen[str], int]:
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


def wait_listening(port: int) -> None:
    for _ in range(100):
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            probe.connect()
            return
        except OSError:
            time.sleep(0.05)
        finally:
            probe.close()
    raise AssertionError(f"nothing listens on port {port}")


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


def terminal(
    port: int, table: str, token: str, answered: dict[str, int], stop: threading.Event
) -> None:
    """Play rounds until the server goes away; record each answered game and its net."""
    while not stop.is_set():
        try:
            status, body = post(
                port, f"/api/tables/{table}/round", {"bets": {"banker": 500}}, token
            )
        except (OSError, http.client.HTTPException, json.JSONDecodeError):
            return  # killed under us: this round was never answered
        assert status == 200, body
        net = sum(
            e["returned"] - e["commission"] - e["stake"]
            for e in body["events"]
            if e["kind"] == "bet-settled"
        )
        answered[body["game"]] = net


def check(store: Path, answered: dict[str, int]) -> None:
    report = audit_store(store)
    assert report["total"] == 0
    assert report["open_games"] == 0  # a round is one unit: all of it or none of it
    conn = log_records.open_readonly(store)
    try:
        lines = log_records.lines(conn)
        rows = dict(
            conn.execute(
                "SELECT g.id, s.net FROM games g JOIN game_seats s ON s.game = g.id "
                "WHERE g.status = 'settled'"
            ).fetchall()
        )
    finally:
        conn.close()
    key = KeyStore(store).current()
    assert key is not None
    verify_lines(lines, [key.public])
    lost = {g: n for g, n in answered.items() if rows.get(g) != n}
    assert not lost, f"answered rounds missing or different after the kill: {lost}"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_sigkill_of_the_served_kiosk_loses_no_answered_round(
    tmp_path: Path, store_url: str | None
) -> None:
    """On each backend (``store_url``): SQLite, and a PostgreSQL server that outlives
    every kill of its client."""
    cfg = config(tmp_path, store_url)
    store = tmp_path / "store"
    rnd = random.Random("served-kill")
    answered: dict[str, int] = {}
    tokens: list[str] = []
    for kill in range(KILLS):
        proc, port = serve(cfg)
        try:
            if not tokens:  # players and their tokens outlive restarts (store and key)
                for i in range(TABLES):
                    status, body = post(port, "/api/players", {"name": f"t{i}"})
                    assert status == 201
                    tokens.append(body["token"])
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=terminal, args=(port, f"bac-{i}", tokens[i], answered, stop)
                )
                for i in range(TABLES)
            ]
            before = len(answered)
            for t in threads:
                t.start()
            time.sleep(rnd.uniform(0.5, 2.0))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            assert proc.stdout is not None
            proc.stdout.close()
        stop.set()
        for t in threads:
            t.join(timeout=30)
        assert len(answered) > before, f"kill {kill}: no round was answered before it"
        check(store, answered)
    assert len(answered) >= KILLS * TABLES
