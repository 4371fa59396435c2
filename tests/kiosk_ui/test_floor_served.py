"""Two ``croupier serve`` processes on one PostgreSQL store, one player betting on both.

Two appliances of a floor (each its own store directory, the floor's keys copied,
``[store] shared = true``) serve their own tables from one database. One player
(one wallet, one token: the token key is among the keys) plays rounds on both at
once: every answered round's net is in the shared wallet exactly once, the books
audit and the chain verifies. Then appliance A is SIGKILLed: B, standing by for A's
table, takes it over once A's lease expires and the player plays on there.
"""

from __future__ import annotations

import http.client
import json
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kiosk_ui.store.audit import audit_store
from tests.kiosk_ui.pg_cluster import Cluster
from tests.kiosk_ui.test_kill_served import post, serve

ROUNDS = 12


def config(tmp_path: Path, name: str, url: str, tables: list[str]) -> Path:
    lines = [
        f'[store]\ndir = "{tmp_path / name}"\nurl = "{url}"\nshared = true\nlease_seconds = 2',
        '[rng]\nsource = "sim"\nsim_seed = 9\ntest_mode = true',
        "[demo]\nenabled = true\ncredit = 1000000",
        '[operator]\nuser = "admin"\npassword = "floor-test-password"',
        "[lobby]\nall_variants = false",
    ]
    lines += [f'[[tables]]\nid = "{t}"\nvariant = "baccarat-pinnacle"' for t in tables]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n\n".join(lines) + "\n")
    return path


def me(port: int, token: str) -> dict[str, object]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/api/me", headers={"x-player-token": token})
        return dict(json.loads(conn.getresponse().read()))
    finally:
        conn.close()


def rounds(port: int, table: str, token: str, nets: list[int], n: int) -> None:
    for _ in range(n):
        status, body = post(port, f"/api/tables/{table}/round", {"bets": {"banker": 500}}, token)
        assert status == 200, body
        nets.append(
            sum(
                e["returned"] - e["commission"] - e["stake"]
                for e in body["events"]
                if e["kind"] == "bet-settled"
            )
        )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_one_player_on_two_served_appliances_and_a_takeover(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    url = pg_cluster.fresh_url()
    cfg_a = config(tmp_path, "a", url, ["bac-a"])
    init = [sys.executable, "-m", "kiosk_ui.cli", "store", "init", "--config", str(cfg_a)]
    subprocess.run(init, check=True, capture_output=True)
    shutil.copytree(tmp_path / "a" / "keys", tmp_path / "b" / "keys")  # provisioning B:
    cfg_b = config(tmp_path, "b", url, ["bac-b", "bac-a"])  # stands by for bac-a
    seal = [sys.executable, "-m", "kiosk_ui.cli", "verify-install", "--seal", "--config"]
    subprocess.run([*seal, str(cfg_b)], check=True, capture_output=True)
    a, port_a = serve(cfg_a)
    b, port_b = serve(cfg_b)
    try:
        status, body = post(port_a, "/api/players", {"name": "Ann"})
        assert status == 201
        token = str(body["token"])
        start = int(me(port_a, token)["balance"])  # type: ignore[call-overload]
        nets: list[int] = []
        threads = [
            threading.Thread(target=rounds, args=(port, table, token, nets, ROUNDS))
            for port, table in ((port_a, "bac-a"), (port_b, "bac-b"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(nets) == 2 * ROUNDS
        balance = me(port_b, token)["balance"]
        assert balance == me(port_a, token)["balance"] == start + sum(nets)

        a.send_signal(signal.SIGKILL)  # appliance A dies; B takes bac-a over
        a.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status, body = post(port_b, "/api/tables/bac-a/round", {"bets": {"banker": 500}}, token)
            if status == 200:
                break
            time.sleep(0.2)
        assert status == 200, body
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            assert proc.stdout is not None
            proc.stdout.close()
    report = audit_store(tmp_path / "b")
    assert report["games_settled"] == 2 * ROUNDS + 1
    assert report["open_games"] == 0
