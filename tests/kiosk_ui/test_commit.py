"""The event loop's group commit (kiosk_ui.table.commit), through the real app.

Requests to RNG tables run on the event loop and share commits; each answer must
already be durable (another connection to the same file sees it), and a commit that
fails must leave nothing settled and the tables playable.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from certification.log.verify import verify_lines
from kiosk_ui.settings import parse
from kiosk_ui.store import ledger, log_records
from kiosk_ui.store.schema import DB_NAME
from kiosk_ui.web.app import create_app

TABLES = 12


def settings_for(store: Path) -> Any:
    return parse(
        {
            "store": {"dir": str(store), "synchronous": "FULL"},
            "rng": {"source": "sim", "sim_seed": 5, "test_mode": True},
            "demo": {"enabled": True, "credit": 100_000},
            "lobby": {"all_variants": False},
            "operator": {"user": "admin", "password": "correct horse"},
            "tables": [{"id": f"bac-{i}", "variant": "baccarat-pinnacle"} for i in range(TABLES)],
        },
        source="test",
    )


def run_in_own_loop(
    test: Callable[[FastAPI], Awaitable[None]], store: Path, settings: Any = None
) -> None:
    """Run ``test`` against the app (lifespan included) on an event loop of its own, in
    a thread of its own: a browser test's sync Playwright may own this thread's loop.
    ``settings``: the app's (default: :func:`settings_for` the store)."""
    failure: list[BaseException] = []

    async def main() -> None:
        app = create_app(settings if settings is not None else settings_for(store))
        async with app.router.lifespan_context(app):
            await test(app)

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # re-raised in the test's thread
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def client_for(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://kiosk")


async def players(client: httpx.AsyncClient, n: int) -> list[dict[str, str]]:
    out = []
    for i in range(n):
        r = await client.post("/api/players", json={"name": f"p{i}"})
        assert r.status_code == 201
        out.append({"x-player-token": r.json()["token"]})
    return out


def committed_status(store: Path, game: str) -> str | None:
    """The game's status as another connection sees it: only committed data."""
    with sqlite3.connect(store / DB_NAME) as other:
        row = other.execute("SELECT status FROM games WHERE id = ?", (game,)).fetchone()
    return None if row is None else str(row[0])


def test_concurrent_rounds_share_commits_and_each_answer_is_durable(tmp_path: Path) -> None:
    run_in_own_loop(concurrent_rounds, tmp_path / "store")


async def concurrent_rounds(app: FastAPI) -> None:
    store = app.state.appliance.settings.store
    committer = app.state.committer
    async with client_for(app) as client:
        who = await players(client, TABLES)

        async def play(i: int) -> tuple[str, int, int]:
            r = await client.post(
                f"/api/tables/bac-{i}/round", json={"bets": {"banker": 500}}, headers=who[i]
            )
            assert r.status_code == 200, r.text
            body = r.json()
            # Durable before the answer: a second connection sees the settled game now.
            assert committed_status(store, body["game"]) == "settled"
            return body["game"], body["balance"], len(body["events"])

        before = committer.groups
        results = []
        for _ in range(4):
            results += await asyncio.gather(*(play(i) for i in range(TABLES)))
        rounds = len(results)
        for game, _balance, _events in results:
            assert committed_status(store, game) == "settled"
        # Rounds that arrived together shared commits (one fsync for several rounds).
        assert committer.groups - before < rounds
        # Every balance answered is the player's balance as committed to the file.
        for i in range(TABLES):
            me = (await client.get("/api/me", headers=who[i])).json()
            with sqlite3.connect(store / DB_NAME) as other:
                (committed,) = other.execute(
                    "SELECT balance FROM accounts WHERE name = ?", (ledger.wallet(me["id"]),)
                ).fetchone()
            assert committed == me["balance"] == results[-TABLES + i][1]


class FailingCommits:
    """The store's connection, with COMMIT failing while ``fail`` is set (a disk error)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.fail = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if self.fail and sql == "COMMIT":
            raise sqlite3.OperationalError("disk I/O error")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def test_a_failed_group_commit_settles_nothing_and_the_tables_play_on_once_resumed(
    tmp_path: Path,
) -> None:
    run_in_own_loop(failed_commit, tmp_path / "store")


async def failed_commit(app: FastAPI) -> None:
    runtime = app.state.appliance.runtime
    async with client_for(app) as client:
        who = await players(client, 4)
        first = await client.post(
            "/api/tables/bac-0/round", json={"bets": {"banker": 500}}, headers=who[0]
        )
        assert first.status_code == 200
        balances = [(await client.get("/api/me", headers=w)).json()["balance"] for w in who]
        history = [(await client.get("/api/history", headers=w)).json() for w in who]

        failing = FailingCommits(runtime.db.conn)
        runtime.db.conn = failing
        failing.fail = True
        answers = await asyncio.gather(
            *(
                client.post(
                    f"/api/tables/bac-{i}/round", json={"bets": {"player": 700}}, headers=who[i]
                )
                for i in range(3)
            ),
            # a bet alone: the game it opened must be gone from memory too
            client.post(
                "/api/tables/bac-3/actions",
                json={"kind": "place-bet", "bet": "tie", "amount": 300},
                headers=who[3],
            ),
        )
        failing.fail = False
        for r in answers:  # an I/O error is a store fault (issue 12, C15): 503, not 409
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "store-unavailable"
            assert "disk I/O error" in r.json()["error"]["message"]
            assert r.headers["retry-after"]
        # Nothing of the failed group was kept: balances, history, ledger audit.
        assert [(await client.get("/api/me", headers=w)).json()["balance"] for w in who] == (
            balances
        )
        assert [(await client.get("/api/history", headers=w)).json() for w in who] == history
        runtime.audit()
        view = (await client.get("/api/tables/bac-3", headers=who[3])).json()
        assert view["game"] is None and "deal" not in view["legal"]
        # Every table of the store is suspended until the operator resumes (once is enough).
        assert all(t.suspended for t in runtime.tables.values())
        runtime.tables["bac-0"].resume("tester")
        assert not any(t.suspended for t in runtime.tables.values())
        # The tables were rebuilt from the log and play on; the log still verifies.
        for i in range(4):
            r = await client.post(
                f"/api/tables/bac-{i}/round", json={"bets": {"banker": 500}}, headers=who[i]
            )
            assert r.status_code == 200, r.text
            assert r.json()["over"]
        with runtime.db.lock:
            lines = log_records.lines(runtime.db.conn)
        report = verify_lines(lines, [runtime.log.writer.key.public])
        assert report.records == len(lines)
