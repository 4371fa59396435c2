"""The floor's status page: any server of a shared store shows every server's health.

Two real workers (``croupier serve --workers 2``: a supervisor, two uvicorn processes,
one SQLite store) with a simulated shoe and a dice device that cannot be opened: worker
0's ``GET /api/status`` lists worker 1 with its address, its tables and the health its
own ``/api/status`` shows (RNG, devices, store fault), live (a table suspended there is
so here within a poll); only a server of the floor gets that health from
``/api/floor/here``, and what the status page shows of a peer is the summary, no more.
A worker SIGKILLed (its supervisor frozen, so nobody starts it again) shows as not
answering, then, once its row in the store went stale, as gone; started again it serves
again, and worker 0's status page in Chromium says each of these. In Chromium too,
the Floor card of worker 0's status page lists both workers at 375 px.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kiosk_ui.identity import PlayerTokens
from kiosk_ui.store import log_records
from kiosk_ui.web.floor_asks import ask_tag
from kiosk_ui.web.floor_view import POLL_SECONDS
from tests.kiosk_ui.served import (
    init_store,
    listening,
    serve,
    serve_workers,
    stop,
    until,
    write_config,
)
from tests.kiosk_ui.test_floor_served import children
from tests.kiosk_ui.test_floor_view import CARD, Floor, call, operator

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PASSWORD = "floor-view-password"  # test_floor_view.operator signs in with it
DEVICES = '[devices]\nshoe = "sim://shoe?seed=7"\ndice = "serial:///dev/croupier-no-such-port"'
TABLES = [
    '[[tables]]\nid = "bac-0"\nvariant = "baccarat-pinnacle"',  # worker 0's
    '[[tables]]\nid = "bj-1"\nvariant = "blackjack-pinnacle"',  # worker 1's
]
# what the status page shows of each server, and nothing else of its part of the floor
ENTRY = {"holder", "worker", "url", "here", "tables", "last_seen", "seen_seconds_ago",
         "state", "error", "since", "answered", "health"}  # fmt: skip


@contextmanager
def start(tmp: Path, lease: int = 3) -> Iterator[tuple[Any, Floor]]:
    """``serve --workers 2`` on a new store with ``lease_seconds`` = ``lease`` (a dead
    worker's row is stale after two leases): the supervisor and the floor."""
    store = f'dir = "{tmp / "store"}"\nlease_seconds = {lease}'
    cfg = write_config(tmp / "kiosk.toml", store, PASSWORD, [DEVICES, *TABLES])
    init_store(cfg)
    with serve_workers(cfg, 2) as (sup, base):
        yield sup, Floor(base, tmp / "store", "")


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Floor]:
    with start(tmp_path_factory.mktemp("floor-status")) as (_, floor):
        yield floor


def status(port: int) -> dict[str, Any]:
    code, body, _ = call(port, "GET", "/api/status")
    assert code == 200, body
    return dict(body)


def entry(port: int, worker: int) -> dict[str, Any]:
    """Worker ``worker``'s entry in the floor of ``port``'s status."""
    (found,) = [w for w in status(port)["floor"] if w["worker"] == worker]
    return dict(found)


def test_worker_0s_status_shows_worker_1s_health(floor: Floor) -> None:
    for here, there in ((0, 1), (1, 0)):
        ours, theirs = status(floor.base + here), status(floor.base + there)
        assert [w["worker"] for w in ours["floor"]] == [here, there]  # this server first
        assert all(set(w) == ENTRY for w in ours["floor"])
        me, other = ours["floor"]
        assert me["here"] and not other["here"]
        assert (me["url"], other["url"]) == (floor.url(here), floor.url(there))
        assert other["holder"].endswith(f"/worker-{there}") and other["state"] == "serving"
        assert other["tables"] == [("bac-0", "bj-1")[there]] and other["error"] is None
        # its health is what its own /api/status shows, summed up
        health = other["health"]
        assert health == theirs["floor"][0]["health"]
        assert [(d["role"], d["state"], d["last_fault"]) for d in health["devices"]] == [
            (d["role"], d["state"], d["last_fault"]) for d in theirs["devices"]
        ]
        assert [d["state"] for d in health["devices"]] == ["ok", "disconnected"]
        assert "croupier-no-such-port" in health["devices"][1]["last_fault"]
        assert health["rng"] == {
            "state": "healthy",
            "source": theirs["rng"]["active"],
            "kind": "sim",
            "policy": theirs["rng"]["policy"],
            "alarm": None,
        }
        assert health["store"] is None and theirs["store"] is None
        assert health["tables"] == [{"id": t["id"], "suspended": None} for t in theirs["tables"]]
        assert health["version"] and health["started"].endswith("Z")
        text = json.dumps(ours)
        assert "seed=" not in text and not CARD.findall(text)
    # a table suspended on worker 1 is so in worker 0's status within a poll
    auth1 = operator(floor.base + 1)
    code, _, _ = call(floor.base + 1, "POST", "/api/operator/tables/bj-1/suspend",
                      {"reason": "a jam at the shoe"}, auth1)  # fmt: skip
    assert code == 200
    try:
        health = until(
            "worker 1's suspension in worker 0's status",
            lambda: (h := entry(floor.base, 1)["health"])["tables"][0]["suspended"] and h,
        )
        assert health["tables"] == [{"id": "bj-1", "suspended": "by admin: a jam at the shoe"}]
    finally:
        call(floor.base + 1, "POST", "/api/operator/tables/bj-1/resume", None, auth1)


def test_only_a_server_of_the_floor_gets_a_servers_health(floor: Floor, tmp_path: Path) -> None:
    secret = PlayerTokens(floor.store).derived("floor-peer")
    tag = ask_tag(secret, floor.url(1), "GET", "/api/floor/here")
    forged = [
        {},
        {"x-croupier-floor": ""},
        {"x-croupier-floor": PlayerTokens(tmp_path).derived("floor-peer")},  # another floor
        {"x-croupier-floor": tag[:-1] + ("0" if tag[-1] != "0" else "1")},
        {"x-croupier-floor": secret},  # the secret itself is no ask
    ]
    for headers in forged:
        code, body, _ = call(floor.base + 1, "GET", "/api/floor/here", headers=headers)
        assert code == 401, headers
        assert "health" not in body and "devices" not in json.dumps(body)
    code, part, _ = call(
        floor.base + 1, "GET", "/api/floor/here", headers={"x-croupier-floor": tag}
    )
    assert code == 200
    assert part["health"]["rng"]["state"] == "healthy"
    assert [d["role"] for d in part["health"]["devices"]] == ["shoe", "dice"]


def test_a_store_of_one_process_has_no_floor(tmp_path: Path) -> None:
    """``croupier serve`` alone on its store: ``floor`` is empty (the page hides it)."""
    store = f'dir = "{tmp_path / "store"}"'
    cfg = write_config(tmp_path / "kiosk.toml", store, PASSWORD, TABLES[:1])
    init_store(cfg)
    proc, port = serve(cfg)
    try:
        body = status(port)
        assert body["floor"] == [] and body["store"] is None
        assert [t["id"] for t in body["tables"]] == ["bac-0"]
    finally:
        stop(proc)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_killed_worker_shows_not_answering_then_gone(tmp_path: Path, browser: Browser) -> None:
    """Worker 1 SIGKILLed, its supervisor frozen: worker 0's status (and its page) shows
    it not answering, then gone once its row is two leases old (10 s leases: the page,
    read every 2 s, sees the first state before the second), then serving again."""
    from playwright.sync_api import expect

    with start(tmp_path, lease=10) as (sup, floor):
        assert entry(floor.base, 1)["state"] == "serving"
        context = browser.new_context(base_url=floor.url(0))
        page = context.new_page()
        page.goto("/status")
        card = page.locator('#floor [data-holder$="/worker-1"]')
        expect(card).to_have_attribute("data-state", "serving")
        (victim,) = [c for c in children(sup.pid) if str(floor.base + 1) in
                     Path(f"/proc/{c}/cmdline").read_text()]  # fmt: skip
        os.kill(sup.pid, signal.SIGSTOP)  # nobody starts worker 1 again meanwhile
        try:
            os.kill(victim, signal.SIGKILL)
            silent = until(
                "worker 1 not answering",
                lambda: (w := entry(floor.base, 1))["state"] == "not answering" and w,
            )
            assert "does not answer" in silent["error"] and silent["since"].endswith("Z")
            assert silent["health"]["rng"]["state"] == "healthy"  # its last known health
            assert silent["answered"] is not None
            expect(card).to_have_attribute("data-state", "not answering")
            expect(card).to_contain_text("Not answering since")
            expect(card).to_contain_text("does not answer")
            expect(card.locator(".pill")).to_have_text("not answering")
            expect(card).to_contain_text("healthy (sim")  # its last known health
            expect(page.locator("#floor-summary")).to_contain_text("1/2")
            gone = until(
                "worker 1 gone (its row stale)",
                lambda: (w := entry(floor.base, 1))["state"] == "stale" and w,
            )
            assert "has not renewed its row" in gone["error"]
            time.sleep(3 * POLL_SECONDS)  # polls since: it is no longer asked
            gone = entry(floor.base, 1)
            assert gone["state"] == "stale"
            assert gone["health"] == silent["health"]  # still its last known health
            assert gone["since"] == gone["last_seen"] and gone["seen_seconds_ago"] >= 20
            expect(card).to_have_attribute("data-state", "stale")
            expect(card).to_contain_text("Gone since")
            expect(card).to_contain_text("has not renewed its row")
            # worker 0 took its table over once its lease expired
            until("bj-1 on worker 0", lambda: entry(floor.base, 0)["tables"] == ["bac-0", "bj-1"])
            assert entry(floor.base, 1)["tables"] == []
        finally:
            os.kill(sup.pid, signal.SIGCONT)  # the supervisor starts worker 1 again
        listening(floor.base + 1, after=victim)
        back = until(
            "worker 1 serving again",
            lambda: (w := entry(floor.base, 1))["state"] == "serving" and w,
        )
        assert back["error"] is None and back["health"]["rng"]["state"] == "healthy"
        # a standby now (worker 0 keeps bj-1): asked for its health all the same
        assert back["tables"] == [] and back["answered"] is not None
        expect(card).to_have_attribute("data-state", "serving")
        expect(card).not_to_contain_text("Gone since")
        context.close()


def test_a_worker_stopped_cleanly_leaves_the_floor_a_killed_one_stays_as_gone(
    tmp_path: Path,
) -> None:
    """A clean stop (SIGTERM, its supervisor frozen so nobody starts it again) takes the
    worker's row out of the store: worker 0's status lists it no more, where a killed
    worker's row stays and shows as gone (test above). Started again, it is listed."""
    with start(tmp_path) as (sup, floor):
        assert entry(floor.base, 1)["state"] == "serving"
        (worker_1,) = [c for c in children(sup.pid) if str(floor.base + 1) in
                       Path(f"/proc/{c}/cmdline").read_text()]  # fmt: skip
        os.kill(sup.pid, signal.SIGSTOP)
        try:
            os.kill(worker_1, signal.SIGTERM)
            until("worker 1 ended", lambda: ended(worker_1))
            assert [w["worker"] for w in status(floor.base)["floor"]] == [0]
            conn = log_records.open_readonly(floor.store)
            try:
                holders = [h for (h,) in conn.execute("SELECT holder FROM servers")]
            finally:
                conn.close()
            assert len(holders) == 1 and holders[0].endswith("/worker-0"), holders
        finally:
            os.kill(sup.pid, signal.SIGCONT)  # the supervisor starts worker 1 again
        listening(floor.base + 1, after=worker_1)
        until("worker 1 listed again", lambda: entry(floor.base, 1)["state"] == "serving")


def ended(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie, its parent frozen, counts)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.browser
def test_in_chromium_the_floor_card_lists_both_workers(floor: Floor, browser: Browser) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(base_url=floor.url(0), viewport={"width": 375, "height": 900})
    try:
        page = context.new_page()
        page.goto("/status")
        card = page.locator('#floor [data-holder$="/worker-1"]')
        expect(card).to_contain_text("Worker 1")
        expect(card).to_contain_text(floor.url(1))
        expect(card).to_contain_text("healthy (sim")
        expect(card).to_contain_text("dice: disconnected")
        expect(card).to_contain_text("bj-1")
        mine = page.locator('#floor [data-holder$="/worker-0"]')
        expect(mine).to_contain_text("This server · worker 0")
        expect(mine).to_contain_text("bac-0")
        expect(page.locator("#floor-summary")).to_contain_text("2/2")
        assert "{" not in page.locator("main").inner_text()  # no raw JSON on the page
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()
