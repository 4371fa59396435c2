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
import threading
import time
from pathlib import Path

import pytest

from kiosk_ui.store import log_records
from kiosk_ui.store.audit import audit_store
from tests.kiosk_ui import served
from tests.kiosk_ui.conftest import verified_lines
from tests.kiosk_ui.served import new_players, post, serve, sigkill

TABLES = 6
ROUND = {"bets": {"banker": 500}}
KILLS = 6


def config(tmp_path: Path, url: str | None = None) -> Path:
    tables = [f'[[tables]]\nid = "bac-{i}"\nvariant = "baccarat-pinnacle"' for i in range(TABLES)]
    return served.config(tmp_path, tables, url)


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
        rows = dict(
            conn.execute(
                "SELECT g.id, s.net FROM games g JOIN game_seats s ON s.game = g.id "
                "WHERE g.status = 'settled'"
            ).fetchall()
        )
    finally:
        conn.close()
    verified_lines(store)
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
                tokens = new_players(port, [f"t{i}" for i in range(TABLES)])
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
            sigkill(proc)
        stop.set()
        for t in threads:
            t.join(timeout=30)
        assert len(answered) > before, f"kill {kill}: no round was answered before it"
        check(store, answered)
    assert len(answered) >= KILLS * TABLES
