"""Issue 12, C15: a full disk suspends the tables with 503s; it does not 500 or reset.

The attack: the store's disk fills up (a log that grew, a copied file) while terminals
play. Before the fix clients got 409/500 answers with SQLite's words and the tables
kept taking bets. Now: every answer after the fault is 503 ``store-unavailable`` with
Retry-After, never a 500 or a reset connection; every table of the store is
suspended with the alarm shown to the operator; bets are refused while suspended; a
resume is refused while the disk is still full; once space is freed the operator's
resume reopens every table and play goes on; and nothing answered is lost: after a
restart every answered round is in the store, settled with the net it was told, the
ledger audits, and the log verifies (with the fault's records in it).

The disk is real: a tmpfs of its own, mounted for the store (we are root in the test
sandbox; without the right to mount, the test is skipped and says why), filled to the
last byte with a ballast file; the server is the real ``croupier serve``.
"""

from __future__ import annotations

import errno
import http.client
import json
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from certification.log.keys import KeyStore
from certification.log.verify import verify_lines
from kiosk_ui.store import log_records
from kiosk_ui.store.audit import audit_store
from tests.security.conftest import (
    OPERATOR_PASSWORD,
    Process,
    Served,
    demo_settings,
    write_config,
)

TABLES = 3
ROUND = {"bets": {"banker": 500}}
AFTER_FAULT = 8  # answers each terminal must get after its first refused round
DISK = "32m"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of :data:`DISK` for the store alone, unmounted after the test."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK}", "tmpfs", str(mnt)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:  # CI runs as root here: a refused mount is a broken setup, not a skip
        pytest.fail(f"cannot mount a small tmpfs for the store (needs root): {done.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def call(
    port: int,
    method: str,
    path: str,
    body: object = None,
    *,
    token: str | None = None,
    bearer: str | None = None,
) -> tuple[int, dict[str, str], dict[str, Any]]:
    """One request on a fresh connection; a reset or a dropped connection raises."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"content-type": "application/json"}
        if token:
            headers["x-player-token"] = token
        if bearer:
            headers["authorization"] = f"Bearer {bearer}"
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, json.loads(raw or b"{}")
    finally:
        conn.close()


def net_of(body: dict[str, Any]) -> int:
    return sum(
        e["returned"] - e["commission"] - e["stake"]
        for e in body["events"]
        if e["kind"] == "bet-settled"
    )


def is_store_unavailable(status: int, headers: dict[str, str], body: dict[str, Any]) -> bool:
    error = body.get("error", {})
    return (
        status == 503
        and error.get("code") == "store-unavailable"
        and "store" in error.get("message", "")
        and int(headers.get("retry-after", "0")) > 0
    )


@dataclass
class Terminal:
    """Plays rounds at one table; keeps every answer, in order."""

    port: int
    table: str
    token: str
    answered: dict[str, int]
    answers: list[tuple[int, dict[str, str], dict[str, Any]]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # resets, dropped connections

    def refused(self) -> int:
        """Answers since the first one that was not a settled round."""
        first = next((i for i, a in enumerate(self.answers) if a[0] != 200), None)
        return 0 if first is None else len(self.answers) - first

    def play(self, stop: threading.Event) -> None:
        while not stop.is_set() and self.refused() < AFTER_FAULT:
            try:
                answer = call(self.port, "POST", f"/api/tables/{self.table}/round", ROUND,
                              token=self.token)  # fmt: skip
            except (OSError, http.client.HTTPException, json.JSONDecodeError) as exc:
                self.failures.append(repr(exc))
                return
            self.answers.append(answer)
            status, _, body = answer
            if status == 200:
                self.answered[body["game"]] = net_of(body)


def fill(disk: Path) -> Path:
    """Write a ballast file until the file system has no byte left."""
    ballast = disk / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT, 0o600)
    block = bytes(1 << 16)
    try:
        while True:
            try:
                os.write(fd, block)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                if len(block) == 1:
                    break
                block = block[: len(block) // 2]
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return ballast


def check_store(store: Path, answered: dict[str, int]) -> list[dict[str, Any]]:
    """Every answered round settled with its net; the ledger audits; the log verifies.
    Returns the log's records."""
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
    assert not lost, f"answered rounds missing or different: {lost}"
    return [json.loads(line) for line in lines]


def start_terminals(terminals: list[Terminal]) -> tuple[threading.Event, list[threading.Thread]]:
    stop = threading.Event()
    threads = [threading.Thread(target=t.play, args=(stop,), daemon=True) for t in terminals]
    for th in threads:
        th.start()
    return stop, threads


def wait_for(what: str, cond: Callable[[], bool], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_full_disk_suspends_every_table_with_503s_and_loses_no_answered_round(
    small_disk: Path, tmp_path: Path, serve_process: Callable[..., Process]
) -> None:
    store = small_disk / "store"
    data = demo_settings(store)
    data["store"]["synchronous"] = "FULL"
    data["demo"]["credit"] = 10_000_000
    del data["devices"]
    data["tables"] = [{"id": f"bac-{i}", "variant": "baccarat-pinnacle"} for i in range(TABLES)]
    config = write_config(tmp_path, data)
    server = serve_process(config)
    port = server.port

    tokens = []
    for i in range(TABLES):
        status, _, body = call(port, "POST", "/api/players", {"name": f"t{i}"})
        assert status == 201, body
        tokens.append(body["token"])
    status, _, body = call(port, "POST", "/api/operator/login",
                           {"user": "admin", "password": OPERATOR_PASSWORD})  # fmt: skip
    assert status == 200, body
    operator = body["token"]

    # Terminals play; the disk fills under them.
    answered: dict[str, int] = {}
    terminals = [Terminal(port, f"bac-{i}", tokens[i], answered) for i in range(TABLES)]
    stop, threads = start_terminals(terminals)
    wait_for("every terminal played", lambda: all(len(t.answers) >= 5 for t in terminals))
    ballast = fill(small_disk)
    wait_for(
        "every terminal is refused",
        lambda: all(t.refused() >= AFTER_FAULT or t.failures for t in terminals),
    )
    stop.set()
    for th in threads:
        th.join(timeout=60)

    for t in terminals:
        assert not t.failures, f"{t.table}: connection failed instead of a 503: {t.failures}"
        assert {a[0] for a in t.answers} <= {200, 503}, [a for a in t.answers if a[0] >= 500]
        first = next(i for i, a in enumerate(t.answers) if a[0] != 200)
        after = t.answers[first:]
        assert all(is_store_unavailable(*a) for a in after), after[:3]
        assert first >= 5  # rounds were answered before the disk filled

    # Every table of the store is suspended, with the alarm, for the operator and players.
    status, _, listing = call(port, "GET", "/api/operator/tables", bearer=operator)
    assert status == 200, listing
    for t in listing:
        assert t["suspended"] and t["suspended"].startswith("store unavailable"), t
        assert t["alarm"]["kind"] == "store-fault", t
        assert "full" in t["alarm"]["reason"], t
    status, _, lobby = call(port, "GET", "/api/tables")
    assert status == 200 and all(t["suspended"] for t in lobby)
    status, _, health = call(port, "GET", "/api/health")
    assert status == 200 and health["ok"] is False and health["store"], health

    # The fault is open (above): now every write is refused before it touches the store,
    # even one small enough to fit in WAL frames SQLite had already allocated on the
    # full disk. Bets are refused while suspended: a bet slip, a single bet, a new session.
    for i in range(TABLES):
        assert is_store_unavailable(*call(port, "POST", f"/api/tables/bac-{i}/round", ROUND,
                                          token=tokens[i]))  # fmt: skip
        bet = {"kind": "place-bet", "bet": "player", "amount": 500}
        assert is_store_unavailable(*call(port, "POST", f"/api/tables/bac-{i}/actions", bet,
                                          token=tokens[i]))  # fmt: skip
    assert is_store_unavailable(*call(port, "POST", "/api/players", {"name": "late"}))
    login = {"user": "admin", "password": OPERATOR_PASSWORD}  # its log record cannot be written
    assert is_store_unavailable(*call(port, "POST", "/api/operator/login", login))

    # A resume while the disk is still full is refused, and changes nothing.
    answer = call(port, "POST", "/api/operator/tables/bac-0/resume", bearer=operator)
    assert is_store_unavailable(*answer), answer
    status, _, listing = call(port, "GET", "/api/operator/tables", bearer=operator)
    assert all(t["suspended"] for t in listing)

    # Space freed, the operator signs in again and resumes once: every table plays again.
    ballast.unlink()
    status, _, body = call(port, "POST", "/api/operator/login", login)
    assert status == 200, body
    operator = body["token"]
    status, _, body = call(port, "POST", "/api/operator/tables/bac-0/resume", bearer=operator)
    assert status == 200, body
    status, _, listing = call(port, "GET", "/api/operator/tables", bearer=operator)
    assert all(t["suspended"] is None and t["alarm"] is None for t in listing), listing
    status, _, health = call(port, "GET", "/api/health")
    assert health["ok"] is True and health["store"] is None, health
    for i in range(TABLES):
        for _ in range(3):
            status, _, body = call(port, "POST", f"/api/tables/bac-{i}/round", ROUND,
                                   token=tokens[i])  # fmt: skip
            assert status == 200, body
            answered[body["game"]] = net_of(body)
    server.stop()

    # Nothing answered is lost; the fault is in the log; the store restarts and plays.
    records = check_store(store, answered)
    types = [r["type"] for r in records]
    assert types.count("store-fault") == 1 and types.count("store-resumed") == 1
    fault = next(r for r in records if r["type"] == "store-fault")
    assert "full" in fault["body"]["reason"]
    assert types.count("table-suspended") >= TABLES and types.count("table-resumed") >= TABLES
    again = serve_process(config)
    for i in range(TABLES):
        status, _, body = call(again.port, "POST", f"/api/tables/bac-{i}/round", ROUND,
                               token=tokens[i])  # fmt: skip
        assert status == 200, body
        answered[body["game"]] = net_of(body)
    again.stop()
    check_store(store, answered)


def test_a_store_full_in_mid_round_rolls_the_whole_group_back_and_suspends(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    """The same attack where SQLite runs out of room inside a round's statements (not at
    COMMIT): SQLite then rolls back the whole open group, other terminals' rounds
    included. Every one of them must be answered 503 and none of them kept; the fault is
    real SQLite "database or disk is full", from ``PRAGMA max_page_count`` (a quota on
    the database file: the tmpfs test above fills the disk itself)."""
    store = tmp_path / "store"
    data = demo_settings(store)
    data["demo"]["credit"] = 10_000_000
    del data["devices"]
    data["tables"] = [{"id": f"bac-{i}", "variant": "baccarat-pinnacle"} for i in range(TABLES)]
    app = served(data)
    port = int(app.url.rsplit(":", 1)[1])
    db = app.app.state.appliance.runtime.db
    tokens = [call(port, "POST", "/api/players", {"name": f"t{i}"})[2]["token"]
              for i in range(TABLES)]  # fmt: skip
    status, _, body = call(port, "POST", "/api/operator/login",
                           {"user": "admin", "password": OPERATOR_PASSWORD})  # fmt: skip
    operator = body["token"]

    answered: dict[str, int] = {}
    terminals = [Terminal(port, f"bac-{i}", tokens[i], answered) for i in range(TABLES)]
    stop, threads = start_terminals(terminals)
    wait_for("every terminal played", lambda: all(len(t.answers) >= 5 for t in terminals))
    with db.lock:  # the database file may not grow by one more page
        (pages,) = db.conn.execute("PRAGMA page_count").fetchone()
        db.conn.execute(f"PRAGMA max_page_count = {pages}")
    wait_for(
        "every terminal is refused",
        lambda: all(t.refused() >= AFTER_FAULT or t.failures for t in terminals),
    )
    stop.set()
    for th in threads:
        th.join(timeout=60)
    for t in terminals:
        assert not t.failures, f"{t.table}: connection failed instead of a 503: {t.failures}"
        first = next(i for i, a in enumerate(t.answers) if a[0] != 200)
        assert all(is_store_unavailable(*a) for a in t.answers[first:]), t.answers[first:][:3]
    status, _, listing = call(port, "GET", "/api/operator/tables", bearer=operator)
    assert all(t["alarm"] and t["suspended"] for t in listing), listing
    with db.lock:
        assert not db.conn.in_transaction  # nothing half done is left open
    check_store(store, answered)  # a second connection sees every answered round, no other

    assert is_store_unavailable(*call(port, "POST", "/api/players", {"name": "late"}))

    with db.lock:
        db.conn.execute("PRAGMA max_page_count = 4294967294")
    # Room again, but the fault stays open until the resume: a write that would fit now is
    # refused all the same (no flapping), save the operator's sign-in, which proves the
    # store writable first (the way to the resume, should the session have ended).
    assert is_store_unavailable(*call(port, "POST", "/api/players", {"name": "late"}))
    login = {"user": "admin", "password": OPERATOR_PASSWORD}
    status, _, body = call(port, "POST", "/api/operator/login", login)
    assert status == 200, body
    operator = body["token"]
    status, _, listing = call(port, "GET", "/api/operator/tables", bearer=operator)
    assert all(t["alarm"] and t["suspended"] for t in listing), listing
    status, _, body = call(port, "POST", "/api/operator/tables/bac-1/resume", bearer=operator)
    assert status == 200, body
    for i in range(TABLES):
        status, _, body = call(port, "POST", f"/api/tables/bac-{i}/round", ROUND,
                               token=tokens[i])  # fmt: skip
        assert status == 200, body
        answered[body["game"]] = net_of(body)
    status, _, body = call(port, "POST", "/api/players", {"name": "later"})
    assert status == 201, body
    check_store(store, answered)
