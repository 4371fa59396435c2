"""A worker of ``serve --workers`` never stalls its event loop on the other's write lock.

The workers of one appliance share one SQLite file, and SQLite has one write lock: a
group commit of one worker waits while the other's group runs and commits. That wait
happens in the commit thread (``Store.begin_group``, :mod:`kiosk_ui.table.commit`), and
a worker thread's unit waits for it before taking the store lock, so the loop goes on
reading requests and answering from the store meanwhile. Before, the loop itself waited
inside the unit, and a worker answered nobody (views, feeds, health) until the other
worker's group had committed.

Here the other worker is a second store of the same directory (``shared=True``, worker 1)
holding a group open; a bet on worker 0 must wait for it, and worker 0 must still answer
a read meanwhile. A timer ends the other group after 15 s whatever happens, so the old
behaviour fails the test (the read answers only after that) instead of hanging it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from pathlib import Path

from fastapi import FastAPI

from kiosk_ui.store.db import Database
from kiosk_ui.table.runtime import Runtime

from .test_commit import client_for, committed_status, players, run_in_own_loop, settings_for

SAFETY_NET = 15.0  # seconds before the other worker's group is ended regardless


def test_a_worker_waiting_for_the_others_write_lock_goes_on_answering(tmp_path: Path) -> None:
    store = tmp_path / "store"
    made = Runtime(store, create=True)  # as `croupier store init` makes it
    made.log.seal()
    made.close()
    settings = dataclasses.replace(settings_for(store), shared=True, workers=2, worker=0)
    other = Database(store, shared=True, worker=1)
    released = threading.Event()
    lock = threading.Lock()

    def release() -> None:
        with lock:
            if not released.is_set():
                released.set()
                other.commit_open()  # the other worker's group commits: its lock is free

    timer = threading.Timer(SAFETY_NET, release)

    async def scenario(app: FastAPI) -> None:
        committer = app.state.committer
        async with client_for(app) as client:
            (who,) = await players(client, 1)
            other.begin_group()  # worker 1's group holds the write lock
            assert other.open_group() is not None
            timer.start()
            bet = asyncio.create_task(
                client.post("/api/tables/bac-0/round", json={"bets": {"banker": 500}}, headers=who)
            )
            while committer.waiting == 0 and not bet.done() and not released.is_set():
                await asyncio.sleep(0.01)
            # the bet's unit waits for the write lock; the loop answers a read meanwhile
            me = await client.get("/api/me", headers=who)
            assert me.status_code == 200, me.text
            assert not released.is_set(), "worker 0 answered nothing until worker 1 committed"
            assert not bet.done(), "the bet did not wait for the other worker's group"
            assert me.json()["balance"] == 100_000  # nothing settled before its commit
            release()
            answer = await bet
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert committed_status(store, body["game"]) == "settled"  # durable once answered

    try:
        run_in_own_loop(scenario, store, settings)
    finally:
        timer.cancel()
        release()
        other.close()
