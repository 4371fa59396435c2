"""A worker or appliance that is stopping takes no other writer's table over.

Two appliances (the two workers of ``serve --workers 2``: :class:`Appliance` with
``worker`` 0 and 1 on one shared store, each leasing its share of four tables and
standing by for the other's), on SQLite and on PostgreSQL. At the end of a
``serve --workers 2`` run both stop; the one that stops first gives its leases up, and
the other, stopping as well, took those tables over, or failed to with
``taking over table ... failed (tried again): ... the connection is closed`` when its
store closed under the takeover (bench/results/workers.md). What holds now: a
stopping appliance takes nothing over (:meth:`Appliance.begin_stop`, called the moment
the stop signal arrives); a takeover already under way when the stop begins is
finished (the standby thread is joined) before the store closes, its lease then given
up with the others; and a running appliance takes a stopped one's tables over at its
next look, the game left open recovered, since a clean stop releases its leases.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.core.records import PlaceBet
from kiosk_ui.appliance import Appliance
from kiosk_ui.settings import Settings, TableSettings
from kiosk_ui.store import log_records
from kiosk_ui.table.runtime import Recovery, Runtime

LEASE = 1.0  # seconds: the standby thread looks every third of it


class Pair:
    """Worker 0 (tables bac-0, bac-2) and worker 1 (bac-1, bac-3) of one new store, each
    standing by for the other's; whatever a test did not stop is stopped after it."""

    def __init__(self, store: Path, url: str | None) -> None:
        Runtime(store, create=True, url=url, synchronous="NORMAL").close()  # store init
        tables = tuple(TableSettings(id=f"bac-{i}", variant="baccarat-pinnacle") for i in range(4))
        base = Settings(
            store=store, store_url=url, shared=True, lease_seconds=LEASE, workers=2,
            synchronous="NORMAL", tables=tables, operator_password="stopping-test-password",
            rng={"source": "sim", "sim_seed": 9, "test_mode": True},
        )  # fmt: skip
        self.store = store
        self.running: list[Appliance] = []
        for worker in (0, 1):
            self.running.append(Appliance(dataclasses.replace(base, worker=worker)))
        self.a, self.b = self.running
        assert sorted(self.a.runtime.tables) == ["bac-0", "bac-2"] == sorted(self.b.standby)

    def stop(self, appliance: Appliance) -> None:
        self.running.remove(appliance)
        appliance.close()

    def leases(self) -> dict[str, str]:
        """Every lease row in the store: table -> holder."""
        conn = log_records.open_readonly(self.store)
        try:
            rows = conn.execute("SELECT table_id, holder FROM leases")
            return {str(t): str(h) for t, h in rows}
        finally:
            conn.close()


@pytest.fixture
def pair(tmp_path: Path, store_url: str | None) -> Iterator[Pair]:
    made = Pair(tmp_path / "store", store_url)
    yield made
    for appliance in list(made.running):
        made.stop(appliance)


@pytest.fixture
def warnings(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.WARNING, logger="kiosk_ui")
    return caplog


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_worker_stopping_takes_over_nothing_the_other_gave_up(
    pair: Pair, warnings: pytest.LogCaptureFixture
) -> None:
    a, b = pair.a, pair.b
    adopted: list[str] = []
    real_adopt = b.runtime.adopt_table

    def adopt(table_id: str, *args: object, **kw: object) -> object:
        adopted.append(table_id)
        return real_adopt(table_id, *args, **kw)  # type: ignore[arg-type]

    b.runtime.adopt_table = adopt  # type: ignore[method-assign]
    # b's stop is under way and slow (here: its runtime's close, which gives its leases
    # up, waits; served: uvicorn draining its connections, a console's stream up to
    # 25 s) while a stops and gives bac-0 and bac-2 up
    draining = threading.Event()
    real_close = b.runtime.close

    def slow_close() -> None:
        draining.wait(30)
        real_close()

    b.runtime.close = slow_close  # type: ignore[method-assign]
    b_stops = threading.Thread(target=pair.stop, args=(b,))
    b_stops.start()
    try:
        pair.stop(a)
        assert set(pair.leases()) == {"bac-1", "bac-3"}  # a's released, not left to expire
        time.sleep(4 * LEASE)  # a dozen of b's looks, had it still been looking
        assert adopted == []
        assert sorted(b.standby) == ["bac-0", "bac-2"]
    finally:
        draining.set()
        b_stops.join()
    assert adopted == [] and said(warnings) == []
    assert pair.leases() == {}  # both stopped cleanly: every table free at once


def test_a_takeover_under_way_at_the_stop_ends_before_the_store_closes(
    pair: Pair, warnings: pytest.LogCaptureFixture
) -> None:
    a, b = pair.a, pair.b
    recovering, go = threading.Event(), threading.Event()
    real_recover = b.runtime.recover

    def held_recover(only: set[str] | None = None) -> list[Recovery]:
        if only is not None:  # the takeover's recovery, on b's standby thread
            recovering.set()
            go.wait(30)
        return real_recover(only=only)

    b.runtime.recover = held_recover  # type: ignore[method-assign]
    b_stops = threading.Thread(target=pair.stop, args=(b,))
    try:
        pair.stop(a)  # a stops: b (running) begins to take bac-0 over
        assert recovering.wait(30)
        b_stops.start()  # b's stop begins in the middle of that takeover
        b_stops.join(timeout=2 * LEASE)
        # b's store is not closed under the takeover: the stop waits for it to end
        assert b_stops.is_alive()
    finally:
        go.set()
        if b_stops.ident is not None:
            b_stops.join()
    # bac-0 was taken over, then given up with b's own leases; bac-2's never begun
    assert said(warnings) == [
        "table bac-0 taken over: its previous holder stopped or its lease expired"
    ], said(warnings)
    assert "bac-2" in b.standby and pair.leases() == {}


def test_a_running_worker_takes_over_a_stopped_ones_tables_and_its_open_game(
    pair: Pair, warnings: pytest.LogCaptureFixture
) -> None:
    a, b = pair.a, pair.b
    ann = a.runtime.create_player("Ann")
    a.runtime.cash_in(ann, 10_000, operator="cage")
    table = a.runtime.table("bac-0")
    table.sit(0, ann)
    table.act(PlaceBet(seat=0, bet="banker", amount=500))
    pair.stop(a)  # a clean stop with Ann's 500 on the layout
    deadline = time.monotonic() + 30
    while b.standby and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sorted(b.runtime.tables) == ["bac-0", "bac-1", "bac-2", "bac-3"]
    assert [(r.game, r.outcome) for r in b.recoveries] == [("bac-0-000001", "resumed")]
    assert set(pair.leases().values()) == {b.runtime.db.appliance}
    assert b.runtime.table_for("bac-0", ann).game == "bac-0-000001"  # Ann's, resumed
    pair.stop(b)
    assert sorted(said(warnings)) == [
        f"table {t} taken over: its previous holder stopped or its lease expired"
        for t in ("bac-0", "bac-2")
    ]
