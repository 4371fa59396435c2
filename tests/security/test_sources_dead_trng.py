"""Issue 12 A3: no precomputed outcomes, and a dead entropy source is noticed.

The attack (a GLI-11 lab's RNG-failure test): a table whose DRBG is fed by a
hardware TRNG (here the TrueRNG simulator on a real pty, through pyserial), with
``prediction_resistance = true`` and ``reseed_interval_seconds = 1``. Unplug the
TRNG in the middle of play and keep playing. With the old 64 KiB look-ahead buffer
hundreds of rounds settled from bytes generated before the unplug and the status
page still said the source was ok. Now no round may settle after the unplug under
fail-closed (every outcome's generate call takes fresh entropy from the source),
and under the fallback policy every round after it is dealt from the OS CSPRNG with
an alarm in the log; the status page shows the fault.
"""

from __future__ import annotations

import http.client
import json
import os
import time
from typing import Any

import pytest

from kiosk_ui.store import log_records
from kiosk_ui.web.status_view import health_summary
from rng.sources import DeviceSource
from tests.security.conftest import real_money_settings

TRNG_URL = "pty://trng?seed=3&model=truerng&replug_after=0"  # unplugged stays unplugged
ROUNDS_BEFORE = 20
ROUNDS_AFTER = 40


def _request(port: int, method: str, path: str, body: object = None, token: str = "") -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"content-type": "application/json"}
        if token:
            headers["x-player-token"] = token
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def _settings(tmp_path: Any, policy: str) -> dict[str, Any]:
    data = real_money_settings(tmp_path / "store")
    data["rng"] = {
        "source": "hw",
        "url": TRNG_URL,
        "policy": policy,
        "prediction_resistance": True,
        "reseed_interval_seconds": 1,
        "test_mode": True,  # the TRNG is a simulator: allowed only for this lab test
    }
    data["tables"] = [{"id": "roulette", "variant": "roulette-single-zero"}]
    return data


def _settled_games(store: Any) -> list[str]:
    conn = log_records.open_readonly(store)
    try:
        rows = conn.execute("SELECT id FROM games WHERE status = 'settled' ORDER BY id").fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows]


def _unplug(appliance: Any) -> None:
    """Pull the TRNG's cable: the pty closes and its path disappears."""
    raw = appliance.rng.supply.primary.raw
    assert isinstance(raw, DeviceSource)
    device = raw._device
    assert device is not None, "the TRNG was never opened"
    path = device.server.path
    device.inject("unplug")
    deadline = time.monotonic() + 10
    while os.path.exists(path):
        assert time.monotonic() < deadline, "the simulated TRNG did not unplug"
        time.sleep(0.01)


def _play(port: int, token: str, rounds: int) -> list[tuple[int, dict[str, Any]]]:
    """Bet $1 on red and spin, ``rounds`` times; the spin's answers."""
    answers = []
    for _ in range(rounds):
        slip = {"bets": {"red": 100}, "deal": False}
        _request(port, "POST", "/api/tables/roulette/round", slip, token)
        spin = {"kind": "decide", "decision": "spin"}
        answers.append(_request(port, "POST", "/api/tables/roulette/actions", spin, token))
    return answers


def _start(served: Any, tmp_path: Any, policy: str) -> tuple[Any, int, str]:
    srv = served(_settings(tmp_path, policy))
    port = int(srv.url.rsplit(":", 1)[1])
    status, body = _request(port, "POST", "/api/players", {"name": "lab"})
    assert status == 201, body
    token = body["token"]
    srv.app.state.appliance.runtime.cash_in(body["player"]["id"], 1_000_000, operator="lab")
    answers = _play(port, token, ROUNDS_BEFORE)
    assert [s for s, _ in answers] == [200] * ROUNDS_BEFORE, answers[-1]
    return srv, port, token


def _rng_alarms(store: Any) -> list[dict[str, Any]]:
    conn = log_records.open_readonly(store)
    try:
        lines = log_records.lines(conn)
    finally:
        conn.close()
    records = [json.loads(line) for line in lines]
    return [r.get("body", r) for r in records if r.get("type", r.get("kind")) == "rng-alarm"]


@pytest.mark.slow
def test_unplugged_trng_stops_the_table_at_the_next_round(served: Any, tmp_path: Any) -> None:
    srv, port, token = _start(served, tmp_path, "fail-closed")
    store = srv.settings.store
    before = set(_settled_games(store))
    assert len(before) == ROUNDS_BEFORE
    _unplug(srv.app.state.appliance)
    answers = _play(port, token, ROUNDS_AFTER)
    settled_after = set(_settled_games(store)) - before
    assert settled_after == set(), f"{len(settled_after)} rounds settled after the unplug"
    assert all(s != 200 for s, _ in answers)
    # The table is suspended with the reason, and the status page shows the halt.
    deadline = time.monotonic() + 10
    while True:
        _, status = _request(port, "GET", "/api/status")
        table = status["tables"][0]
        if table["suspended"] and status["rng"]["halted"]:
            break
        assert time.monotonic() < deadline, status
        time.sleep(0.05)
    assert "unplugged" in status["rng"]["halted"] or "disconnected" in status["rng"]["halted"]
    assert status["rng"]["sources"][0]["state"] == "unavailable"
    # what the floor's status page lists for this server (one process: no floor here)
    rng = health_summary(status, 0)["rng"]
    assert (rng["state"], rng["alarm"]) == ("failed", status["rng"]["halted"])
    assert status["floor"] == []
    # The log holds the alarm.
    deadline = time.monotonic() + 10
    while not any(a.get("kind") == "halt" for a in _rng_alarms(store)):
        assert time.monotonic() < deadline, _rng_alarms(store)
        time.sleep(0.05)


@pytest.mark.slow
def test_unplugged_trng_under_fallback_deals_from_the_os_with_an_alarm(
    served: Any, tmp_path: Any
) -> None:
    srv, port, token = _start(served, tmp_path, "fallback")
    store = srv.settings.store
    appliance = srv.app.state.appliance
    fallback = appliance.rng.supply.fallback
    assert fallback is not None
    served_by_os_before = fallback.bytes_served
    _unplug(appliance)
    answers = _play(port, token, ROUNDS_AFTER)
    assert [s for s, _ in answers] == [200] * ROUNDS_AFTER, answers[-1]
    # Every round after the unplug drew from a DRBG fed by the OS CSPRNG: one fresh
    # entropy input (at least 32 bytes) per round under prediction resistance.
    assert appliance.rng.supply.active is fallback
    assert fallback.bytes_served - served_by_os_before >= 32 * ROUNDS_AFTER
    _, status = _request(port, "GET", "/api/status")
    assert status["rng"]["active"].startswith("os:")
    assert status["rng"]["sources"][0]["state"] == "unavailable"
    rng = health_summary(status, 0)["rng"]  # the floor's status page: dealing, degraded
    assert (rng["state"], rng["kind"]) == ("fallback", "os")
    assert rng["alarm"] == status["rng"]["sources"][0]["last_error"] and rng["alarm"]
    deadline = time.monotonic() + 10
    while not any(a.get("kind") == "fallback" for a in _rng_alarms(store)):
        assert time.monotonic() < deadline, _rng_alarms(store)
        time.sleep(0.05)


@pytest.mark.slow
def test_a_trng_unplugged_while_nobody_plays_is_noticed_on_the_timer(
    served: Any, tmp_path: Any
) -> None:
    """No play at all after the unplug: the watchdog reads the source on its timer.

    Without prediction resistance and with no outcome drawn, nothing else would read
    the TRNG; the halt must still reach the status page, the log and the tables within
    about one reseed interval (1 s here; the wait below is a generous liveness bound).
    """
    data = _settings(tmp_path, "fail-closed")
    data["rng"]["prediction_resistance"] = False
    srv = served(data)
    port = int(srv.url.rsplit(":", 1)[1])
    _, status = _request(port, "GET", "/api/status")
    assert status["rng"]["halted"] is None
    assert status["rng"]["sources"][0]["state"] == "ok"
    _unplug(srv.app.state.appliance)
    deadline = time.monotonic() + 30
    while True:
        _, status = _request(port, "GET", "/api/status")
        if status["rng"]["halted"] and status["tables"][0]["suspended"]:
            break
        assert time.monotonic() < deadline, status
        time.sleep(0.1)
    assert status["rng"]["sources"][0]["state"] == "unavailable"
    while not any(a.get("kind") == "halt" for a in _rng_alarms(srv.settings.store)):
        assert time.monotonic() < deadline, _rng_alarms(srv.settings.store)
        time.sleep(0.05)
