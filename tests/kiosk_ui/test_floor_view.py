"""``croupier serve --workers 2``: the lobby and the console of each worker see the floor.

Two real workers (a supervisor and its two ``serve --worker I`` processes, real uvicorn,
one real SQLite store): worker 0 serves ``bac-0``, worker 1 serves ``bj-1``. Each
worker's lobby lists both tables, the other's with the URL of the worker serving it
(its pages, its feed and the player's session are there); a table page asked of the
wrong worker sends the player on. Worker 1's poker room ``room-3`` is in worker 0's
room rows as in worker 1's own (stakes, seated players), with worker 1's URL. Each
worker's console lists every table with who serves it, and worker 0's floor stream
reports what happens on worker 1's table (a player's game dealt, a suspension and its
alarm, acknowledged from worker 0) without a card in it. Only a server of the floor
gets a server's part of the floor. And a floor of two appliances on one PostgreSQL
store: each lobby lists the other's table with its URL, and one console's stream
reports the other's suspension and alarm.
"""

from __future__ import annotations

import http.client
import json
import queue
import re
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bench._common import free_ports
from kiosk_ui.identity import PlayerTokens
from kiosk_ui.web.floor_asks import answer_proof, ask_tag
from tests.kiosk_ui.pg_cluster import Cluster
from tests.kiosk_ui.served import (
    init_store,
    join_floor,
    serve,
    serve_workers,
    stop,
    until,
    write_config,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PASSWORD = "floor-view-password"
# a card code as the views write it (test_app's pattern)
CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


@dataclass
class Floor:
    base: int  # worker 0's port; worker 1 is base + 1
    store: Path
    token: str  # one player's, good on both workers

    def url(self, worker: int) -> str:
        return f"http://127.0.0.1:{self.base + worker}"


def call(
    port: int, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
) -> tuple[int, Any, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        sent = {"content-type": "application/json", **(headers or {})}
        conn.request(method, path, None if body is None else json.dumps(body), sent)
        resp = conn.getresponse()
        raw = resp.read()
        kind = resp.getheader("content-type") or ""
        body = json.loads(raw) if raw and kind.startswith("application/json") else raw
        return resp.status, body, dict(resp.getheaders())
    finally:
        conn.close()


def operator(port: int) -> dict[str, str]:
    status, body, _ = call(
        port, "POST", "/api/operator/login", {"user": "admin", "password": PASSWORD}
    )
    assert status == 200, body
    return {"authorization": f"Bearer {body['token']}"}


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Floor]:
    tmp = tmp_path_factory.mktemp("floor-view")
    tables = [
        '[[tables]]\nid = "bac-0"\nvariant = "baccarat-pinnacle"',  # worker 0's
        '[[tables]]\nid = "bj-1"\nvariant = "blackjack-pinnacle"',  # worker 1's
        '[[tables]]\nid = "cs-2"\nvariant = "caribbean-stud"',  # worker 0's, a progressive
        '[[tables]]\nid = "room-3"\nvariant = "poker-room-holdem-2-4"',  # worker 1's
    ]
    store = f'dir = "{tmp / "store"}"\nlease_seconds = 3'
    cfg = write_config(tmp / "kiosk.toml", store, PASSWORD, tables)
    init_store(cfg)
    with serve_workers(cfg, 2) as (_, base):
        status, body, _ = call(base, "POST", "/api/players", {"name": "Ann"})
        assert status == 201
        yield Floor(base, tmp / "store", str(body["token"]))


def test_the_lobby_of_each_worker_lists_every_table_with_its_server(floor: Floor) -> None:
    player = {"x-player-token": floor.token}
    for worker, own, other in ((0, "bac-0", "bj-1"), (1, "bj-1", "bac-0")):
        status, tables, _ = call(floor.base + worker, "GET", "/api/tables")
        assert status == 200
        by_id = {t["id"]: t for t in tables}
        assert set(by_id) == {"bac-0", "bj-1", "cs-2", "room-3"}
        assert by_id[own]["url"] is None  # served here
        there = by_id[other]["url"]
        assert there == floor.url(1 - worker)  # the worker that serves it
        # what the lobby shows of it is what its own server's lobby shows
        _, theirs, _ = call(floor.base + 1 - worker, "GET", "/api/tables")
        assert {**by_id[other], "url": None} == next(t for t in theirs if t["id"] == other)
        # and it is played there, by the same player (one token, one wallet)
        status, view, _ = call(
            floor.base + 1 - worker, "GET", f"/api/tables/{other}", headers=player
        )
        assert status == 200, view
        status, _, _ = call(floor.base + worker, "GET", f"/api/tables/{other}", headers=player)
        assert status == 404  # never served by the other worker
    # the progressive meter (one ledger, the floor's) names worker 0's table on worker 1 too
    for worker in (0, 1):
        _, meters, _ = call(floor.base + worker, "GET", "/api/jackpots")
        assert [(m["meter"], m["tables"]) for m in meters] == [("caribbean-stud", ["cs-2"])]


def test_a_table_page_asked_of_the_wrong_worker_sends_the_player_on(floor: Floor) -> None:
    status, _, headers = call(floor.base, "GET", "/table/bj-1?seat=0")
    assert status == 307
    assert headers["location"] == f"{floor.url(1)}/table/bj-1?seat=0"
    status, _, headers = call(floor.base + 1, "GET", "/table/bac-0")
    assert (status, headers["location"]) == (307, f"{floor.url(0)}/table/bac-0")
    conn = http.client.HTTPConnection("127.0.0.1", floor.base + 1, timeout=10)
    conn.request("GET", "/table/bj-1")
    assert conn.getresponse().status == 200  # served here: the page itself
    conn.close()
    status, _, _ = call(floor.base, "GET", "/table/no-such-table")
    assert status == 200  # unknown anywhere: the page says so itself, as before


def rooms_of(floor: Floor, worker: int) -> dict[str, dict[str, Any]]:
    status, rows, _ = call(floor.base + worker, "GET", "/api/rooms")
    assert status == 200, rows
    return {r["id"]: r for r in rows}


def test_a_room_served_by_worker_1_is_in_worker_0s_lobby_as_in_its_own(floor: Floor) -> None:
    """Worker 0's room rows hold worker 1's poker room as worker 1's own lobby shows it
    (stakes, buy-in, who sits with what stack), with worker 1's URL; a seat taken there
    shows here within a poll; no card and no hand in either."""
    theirs = rooms_of(floor, 1)["room-3"]
    assert theirs["url"] is None  # served here
    assert theirs["stakes"] == {"lower": 200, "higher": 400} and theirs["seated"] == []
    assert {**rooms_of(floor, 0)["room-3"], "url": None} == theirs
    assert rooms_of(floor, 0)["room-3"]["url"] == floor.url(1)
    # Ann sits down on worker 1 (the only server of that room)
    player = {"x-player-token": floor.token}
    status, body, _ = call(floor.base + 1, "POST", "/api/rooms/room-3/buy-in",
                           {"seat": 2, "amount": 4_000}, player)  # fmt: skip
    assert status == 200, body
    assert call(floor.base, "POST", "/api/rooms/room-3/buy-in",
                {"seat": 3, "amount": 4_000}, player)[0] == 404  # fmt: skip
    try:
        theirs = rooms_of(floor, 1)["room-3"]
        assert [(p["seat"], p["name"], p["stack"]) for p in theirs["seated"]] == [(2, "Ann", 4_000)]
        deadline = time.monotonic() + 20
        while (ours := rooms_of(floor, 0)["room-3"])["seated"] != theirs["seated"]:
            assert time.monotonic() < deadline, f"worker 0 never saw the seat: {ours}"
            time.sleep(0.2)
        assert ours == {**theirs, "url": floor.url(1)}
        assert not CARD.findall(json.dumps(ours))
        # Play: worker 0's room page sends the player to worker 1
        status, _, headers = call(floor.base, "GET", "/room/room-3")
        assert (status, headers["location"]) == (307, f"{floor.url(1)}/room/room-3")
    finally:
        call(floor.base + 1, "POST", "/api/rooms/room-3/leave", None, player)


class Stream:
    """A console's floor stream (Server-Sent Events), read on a thread of its own."""

    def __init__(self, port: int, auth: dict[str, str]) -> None:
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.raw: list[str] = []
        self.latest: dict[str, Any] | None = None
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/api/operator/floor/stream", headers=auth)
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name = ""
        try:
            for line in iter(self.resp.readline, b""):
                text = line.decode()
                if text.startswith("event: "):
                    name = text[7:].strip()
                elif text.startswith("data: ") and name == "floor":
                    self.raw.append(text)
                    self.events.put(json.loads(text[6:]))
        except (OSError, ValueError, AttributeError):  # closed under the reader
            pass

    def until(self, what: str, test: Any) -> dict[str, Any]:
        """The first snapshot (the latest one seen included) where ``test`` holds."""
        if self.latest is not None and test(self.latest):
            return self.latest
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                snap = self.events.get(timeout=1)
            except queue.Empty:
                continue
            self.latest = snap
            if test(snap):
                return snap
        raise AssertionError(f"the floor stream never reported {what}")

    def close(self) -> None:
        self.conn.close()


def row(snap: dict[str, Any], table: str) -> dict[str, Any]:
    return next(r for r in snap["tables"] if r["table"] == table)


def test_worker_0s_console_hears_what_happens_on_worker_1s_table(floor: Floor) -> None:
    auth0, auth1 = operator(floor.base), operator(floor.base + 1)
    for worker, auth in ((0, auth0), (1, auth1)):
        status, rows, _ = call(floor.base + worker, "GET", "/api/operator/floor", headers=auth)
        assert status == 200
        seen = {r["table"]: (r["here"], r["url"], r["answered"]) for r in rows}
        here, there = (True, None, True), (False, floor.url(1 - worker), True)
        assert seen == (
            {"bac-0": here, "cs-2": here, "bj-1": there, "room-3": there}
            if worker == 0
            else {"bac-0": there, "cs-2": there, "bj-1": here, "room-3": here}
        )
        assert {r["variant"] for r in rows} == {
            "baccarat-pinnacle",
            "blackjack-pinnacle",
            "caribbean-stud",
            "poker-room-holdem-2-4",
        }
    stream = Stream(floor.base, auth0)
    try:
        first = stream.until("the floor", lambda s: len(s["tables"]) == 4)
        assert row(first, "bj-1")["holder"].endswith("/worker-1")
        # a player's blackjack game dealt on worker 1: open, the dealer's hole card down
        player = {"x-player-token": floor.token}
        bet = {"kind": "place-bet", "seat": 0, "bet": "main", "amount": 1_000}
        status, body, _ = call(floor.base + 1, "POST", "/api/tables/bj-1/actions", bet, player)
        assert status == 200, body
        status, dealt, _ = call(floor.base + 1, "POST", "/api/tables/bj-1/actions",
                                {"kind": "deal", "seat": 0}, player)  # fmt: skip
        assert status == 200, dealt
        if not dealt["over"]:  # (a dealer blackjack ends it at once)
            snap = stream.until("the game on worker 1", lambda s: row(s, "bj-1")["games"])
            assert list(row(snap, "bj-1")["games"].values()) == [dealt["game"]]
            assert CARD.findall(json.dumps(dealt["view"]))  # the player's own view has cards
        # an operator suspends worker 1's table there: worker 0 hears it, with its alarm
        status, _, _ = call(floor.base + 1, "POST", "/api/operator/tables/bj-1/suspend",
                            {"reason": "a jam at the shoe"}, auth1)  # fmt: skip
        assert status == 200
        snap = stream.until("the suspension", lambda s: row(s, "bj-1")["suspended"])
        assert row(snap, "bj-1")["suspended"] == "by admin: a jam at the shoe"
        snap = stream.until("the alarm", lambda s: s["alarms"])
        (alarm,) = snap["alarms"]
        assert (alarm["kind"], alarm["holder"]) == ("table-suspended", row(snap, "bj-1")["holder"])
        # acknowledged from worker 0's console: it is so on worker 1, with the operator's name
        ack = {"holder": alarm["holder"], "id": alarm["id"]}
        status, done, _ = call(floor.base, "POST", "/api/operator/floor/alarms/ack", ack, auth0)
        assert status == 200, done
        _, alarms1, _ = call(floor.base + 1, "GET", "/api/operator/alarms", headers=auth1)
        there = next(a for a in alarms1 if a["id"] == alarm["id"])
        assert there["state"] == "acknowledged" and there["by"].startswith("admin@")
        assert there["by"].endswith("/worker-0")
        snap = stream.until(
            "the acknowledgement", lambda s: s["alarms"][0]["state"] == "acknowledged"
        )
        # nothing the floor stream sent ever carried a card
        assert not [c for text in stream.raw for c in CARD.findall(text)]
    finally:
        stream.close()
        call(floor.base + 1, "POST", "/api/operator/tables/bj-1/resume", None, auth1)


def test_an_ask_read_on_the_wire_cannot_be_sent_again(floor: Floor) -> None:
    """The floor's asks go in clear: one seen on the wire is refused when sent again, as
    is one made too long ago, and an acknowledgement's tag signs its body (the name of
    the operator acknowledging), so it cannot be sent with another."""
    secret = PlayerTokens(floor.store).derived("floor-peer")
    url, here = floor.url(1), "/api/floor/here"
    tag = {"x-croupier-floor": ask_tag(secret, url, "GET", here)}
    assert call(floor.base + 1, "GET", here, headers=tag)[0] == 200
    status, body, _ = call(floor.base + 1, "GET", here, headers=tag)
    assert status == 401 and "already answered" in body["error"]["message"]
    old = {"x-croupier-floor": ask_tag(secret, url, "GET", here, at=time.time() - 60)}
    status, body, _ = call(floor.base + 1, "GET", here, headers=old)
    assert status == 401 and "clocks must agree" in body["error"]["message"], body
    ahead = {"x-croupier-floor": ask_tag(secret, url, "GET", here, at=time.time() + 60)}
    assert call(floor.base + 1, "GET", here, headers=ahead)[0] == 401
    # an acknowledgement signed for one operator's name, sent with another's
    path = "/api/floor/alarms/999999/ack"
    signed = json.dumps({"by": "alice@worker-0"}).encode()
    ack = {"x-croupier-floor": ask_tag(secret, url, "POST", path, signed)}
    status, body, _ = call(floor.base + 1, "POST", path, {"by": "mallory@worker-0"}, ack)
    assert status == 401 and "server of this floor" in body["error"]["message"]
    # sent as signed it is let in (no such alarm there), and then only once
    status, body, _ = call(floor.base + 1, "POST", path, {"by": "alice@worker-0"}, ack)
    assert status == 404, body
    status, body, _ = call(floor.base + 1, "POST", path, {"by": "alice@worker-0"}, ack)
    assert status == 401 and "already answered" in body["error"]["message"]


def test_only_a_server_of_the_floor_gets_its_part(floor: Floor, tmp_path: Path) -> None:
    secret = PlayerTokens(floor.store).derived("floor-peer")
    other = PlayerTokens(tmp_path).derived("floor-peer")  # another floor's key
    url, here = floor.url(1), "/api/floor/here"
    tag = ask_tag(secret, url, "GET", here)
    forged = [
        {},
        {"x-croupier-floor": ""},
        {"x-croupier-floor": ask_tag(other, url, "GET", here)},
        {"x-croupier-floor": tag[:-1] + ("0" if tag[-1] != "0" else "1")},
        {"x-croupier-floor": tag[:32]},  # truncated
        {"x-croupier-floor": secret},  # the secret itself is no ask
        {"x-croupier-floor": ask_tag(secret, floor.url(0), "GET", here)},  # 0's
        {"x-croupier-floor": ask_tag(secret, url, "GET", here, b"{}")},  # with another body
        {"x-croupier-floor-x": tag},
    ]
    for headers in forged:
        status, body, _ = call(floor.base + 1, "GET", here, headers=headers)
        assert status == 401, headers
        assert "server of this floor" in body["error"]["message"]
        status, _, _ = call(floor.base + 1, "POST", "/api/floor/alarms/1/ack", {"by": "x"}, headers)
        assert status == 401
    # the ask for the floor's part is no acknowledgement: a tag is good for its request only
    ack = {"x-croupier-floor": tag}
    assert call(floor.base + 1, "POST", "/api/floor/alarms/1/ack", {"by": "x"}, ack)[0] == 401
    status, part, answered = call(floor.base + 1, "GET", here, headers={"x-croupier-floor": tag})
    assert status == 200
    # the answer proves itself to this ask only (its nonce): no recorded answer serves another
    nonce = tag.split(".")[2]
    data = json.dumps(part).encode()
    proof = answered["x-croupier-floor-proof"]
    assert proof == answer_proof(secret, url, "GET", here, nonce, data)
    assert proof != answer_proof(secret, url, "GET", here, "0" * 32, data)
    assert status == 200
    assert (
        [t["id"] for t in part["lobby"]]
        == [t["id"] for t in part["tables"]]
        == [
            "bj-1",
            "room-3",
        ]
    )
    assert [r["id"] for r in part["rooms"]] == ["room-3"]
    assert not CARD.findall(json.dumps([part["tables"], part["rooms"], part["alarms"]]))
    # the console's floor needs an operator: a player's token is not one
    player = {"x-player-token": floor.token}
    for path in ("/api/operator/floor", "/api/operator/floor/stream"):
        assert call(floor.base, "GET", path, headers=player)[0] == 401
    ack = {"holder": part["holder"], "id": 1}
    assert call(floor.base, "POST", "/api/operator/floor/alarms/ack", ack, player)[0] == 401


@pytest.mark.browser
def test_in_chromium_the_lobby_sends_to_the_serving_worker_and_the_console_follows_the_floor(
    floor: Floor, browser: Browser
) -> None:
    """Worker 0's lobby opens worker 1's table on worker 1, with the same player; worker
    0's console lists worker 1's table and shows its suspension and alarm live, and the
    alarm is acknowledged from there."""
    from playwright.sync_api import expect

    context = browser.new_context(base_url=floor.url(0))
    try:
        page = context.new_page()
        page.goto("/")
        # worker 1's poker room has its room row here too: stakes, buy-in, who sits
        room = page.locator('article.tile[data-table="room-3"] .room-row')
        expect(room).to_contain_text("Stakes $2.00/$4.00 fixed limit")
        expect(room).to_contain_text("seated: nobody yet")
        tile = page.locator('article.tile[data-table="bj-1"]')
        tile.get_by_role("button", name="Play").click()
        page.wait_for_url(f"{floor.url(1)}/table/bj-1**")
        expect(page.locator("#title")).to_have_text("Pinnacle Blackjack ($500)")
        me0 = page.request.get(f"{floor.url(0)}/api/me").json()
        me1 = page.request.get(f"{floor.url(1)}/api/me").json()
        assert me0["id"] == me1["id"]  # one session: the cookie goes with the player

        console = context.new_page()
        console.goto(f"{floor.url(0)}/operator")
        console.fill("#user", "admin")
        console.fill("#password", PASSWORD)
        console.get_by_role("button", name="Sign in").click()
        remote = console.locator('#tables tr[data-table="bj-1"]')
        expect(remote).to_contain_text("worker 1")
        expect(remote.get_by_role("link", name=re.compile("Open on"))).to_have_attribute(
            "href", f"{floor.url(1)}/operator"
        )
        expect(
            console.locator('#tables tr[data-table="bac-0"]').get_by_role("button", name="Suspend")
        ).to_be_visible()
        auth1 = operator(floor.base + 1)
        status, _, _ = call(floor.base + 1, "POST", "/api/operator/tables/bj-1/suspend",
                            {"reason": "browser check"}, auth1)  # fmt: skip
        assert status == 200
        expect(remote).to_contain_text("suspended: by admin: browser check")  # no reload
        alarm = console.locator('#alarms tr[data-kind="table-suspended"][data-server$="/worker-1"]')
        expect(alarm).to_contain_text("worker 1: table bj-1 suspended")
        alarm.get_by_role("button", name="Acknowledge").click()
        expect(alarm).to_contain_text("acknowledged by admin@")
    finally:
        context.close()
        call(
            floor.base + 1,
            "POST",
            "/api/operator/tables/bj-1/resume",
            None,
            operator(floor.base + 1),
        )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_two_appliances_on_one_postgresql_store_see_each_others_tables(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    """A floor: appliances A and B (their own store directories, the floor's keys copied)
    on one PostgreSQL database. Each lobby lists both tables with the other appliance's
    URL, A's console stream reports B's table suspended, with B's alarm, and A's status
    page lists B with its health, then, B frozen, as not answering."""
    url = pg_cluster.fresh_url()
    cfg_a = appliance_config(tmp_path, "a", url, "bac-a")
    init_store(cfg_a)
    cfg_b = appliance_config(tmp_path, "b", url, "bac-b")
    join_floor(tmp_path / "a", tmp_path / "b", cfg_b)
    a, port_a = serve(cfg_a)
    b, port_b = serve(cfg_b)
    try:
        for port, own, other, there in ((port_a, "bac-a", "bac-b", port_b),
                                        (port_b, "bac-b", "bac-a", port_a)):  # fmt: skip
            status, tables, _ = call(port, "GET", "/api/tables")
            assert status == 200
            urls = {t["id"]: t["url"] for t in tables}
            assert urls == {own: None, other: f"http://127.0.0.1:{there}"}
        auth_a, auth_b = operator(port_a), operator(port_b)
        stream = Stream(port_a, auth_a)
        try:
            first = stream.until("the floor", lambda s: len(s["tables"]) == 2)
            holder_b = row(first, "bac-b")["holder"]
            assert "/worker-" not in holder_b and holder_b != row(first, "bac-a")["holder"]
            status, _, _ = call(port_b, "POST", "/api/operator/tables/bac-b/suspend",
                                {"reason": "dealer change"}, auth_b)  # fmt: skip
            assert status == 200
            snap = stream.until(
                "B's suspension and alarm",
                lambda s: row(s, "bac-b")["suspended"] and s["alarms"],
            )
            assert snap["alarms"][0]["holder"] == holder_b
            assert snap["alarms"][0]["url"] == f"http://127.0.0.1:{port_b}"
            # A's status page lists B with its health (the floor's status page)
            _, status_a, _ = call(port_a, "GET", "/api/status")
            me, b_entry = status_a["floor"]
            assert me["here"] and (b_entry["holder"], b_entry["worker"]) == (holder_b, None)
            assert (b_entry["state"], b_entry["tables"]) == ("serving", ["bac-b"])
            assert b_entry["health"]["rng"]["state"] == "healthy"
            # B freezes: A's console says B does not answer (its table's last state kept),
            # and A's lobby no longer sends players to it
            b.send_signal(signal.SIGSTOP)
            snap = stream.until("B not answering", lambda s: not row(s, "bac-b")["answered"])
            assert row(snap, "bac-b")["suspended"] == "by admin: dealer change"
            assert [s["holder"] for s in snap["servers"]] == [holder_b]
            status, tables, _ = call(port_a, "GET", "/api/tables")
            assert [t["id"] for t in tables] == ["bac-a"]
            _, status_a, _ = call(port_a, "GET", "/api/status")
            b_entry = status_a["floor"][1]
            assert b_entry["state"] == "not answering" and "does not answer" in b_entry["error"]
            assert b_entry["health"]["tables"] == [
                {"id": "bac-b", "suspended": "by admin: dealer change"}
            ]  # its last known health
        finally:
            stream.close()
    finally:
        for proc in (a, b):
            stop(proc, timeout=30)  # B thawed too


def appliance_config(
    tmp_path: Path, name: str, url: str, table: str, public: str | None = None
) -> Path:
    # leases far longer than a poll's timeout: B frozen is "not answering" long before
    # its lease could expire; ``public``: the address it advertises ([serve] public_url)
    store = f'dir = "{tmp_path / name}"\nurl = "{url}"\nshared = true\nlease_seconds = 30'
    sections = [f'[[tables]]\nid = "{table}"\nvariant = "baccarat-pinnacle"']
    if public is not None:
        sections.append(f'[serve]\npublic_url = "{public}"')
    return write_config(tmp_path / f"{name}.toml", store, PASSWORD, sections)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_player_sent_to_an_appliance_on_another_host_keeps_the_session(
    tmp_path: Path, pg_cluster: Cluster, browser: Browser
) -> None:
    """A floor of two appliances on two host names (A as 127.0.0.1, B as localhost: the
    browser keeps a cookie per host name). A's lobby sends the player to B's table with
    a one-time hand-off of the session: B sets its own cookie for the same player (one
    wallet) and shows the clean address. The hand-off replayed, or forged, gives no
    session; a player with no session is sent on without one."""
    from playwright.sync_api import expect

    url = pg_cluster.fresh_url()
    port_b = free_ports(1)
    cfg_a = appliance_config(tmp_path, "a", url, "bac-a")
    init_store(cfg_a)
    cfg_b = appliance_config(tmp_path, "b", url, "bac-b", public=f"http://localhost:{port_b}")
    join_floor(tmp_path / "a", tmp_path / "b", cfg_b)
    a, port_a = serve(cfg_a)
    b, _ = serve(cfg_b, port=port_b)
    try:
        until(  # A has heard from B (its first poll of the floor)
            "B's table in A's lobby",
            lambda: any(t["id"] == "bac-b" for t in call(port_a, "GET", "/api/tables")[1]),
        )
        context = browser.new_context(base_url=f"http://127.0.0.1:{port_a}")
        page = context.new_page()
        page.goto("/")
        expect(page.locator("#balance")).to_have_text("$10,000.00")  # its session started
        me = page.request.get("/api/me").json()
        page.request.post("/api/vouchers", data={"amount": 2_550})  # A's wallet: $9,974.50
        tile = page.locator('article.tile[data-table="bac-b"]')
        tile.get_by_role("button", name="Play").click()
        page.wait_for_url(f"http://localhost:{port_b}/table/bac-b")  # no hand-off shown
        expect(page.locator("#balance")).to_have_text("$9,974.50")  # not a new guest's
        there = page.request.get(f"http://localhost:{port_b}/api/me").json()
        assert there["id"] == me["id"]  # the same player, the same wallet
        context.close()

        # the redirect as the player's browser gets it from A, followed by hand
        token = PlayerTokens(tmp_path / "a").issue(me["id"])
        status, _, headers = call(port_a, "GET", "/table/bac-b?seat=0",
                                  headers={"cookie": f"croupier_player={token}"})  # fmt: skip
        assert status == 307
        moved = headers["location"]
        assert moved.startswith(f"http://localhost:{port_b}/table/bac-b?seat=0&handoff=")
        path = moved.split(str(port_b), 1)[1]
        status, _, headers = call(port_b, "GET", path)
        assert (status, headers["location"]) == (303, "/table/bac-b?seat=0")
        assert headers["set-cookie"].startswith(f"croupier_player={token};")
        status, _, headers = call(port_b, "GET", path)  # replayed: nobody's session
        assert status == 303 and "set-cookie" not in headers
        forged = path[:-4] + ("0000" if not path.endswith("0000") else "1111")
        status, _, headers = call(port_b, "GET", forged)
        assert status == 303 and "set-cookie" not in headers
        status, _, headers = call(port_a, "GET", "/table/bac-b")  # no session: none sent
        assert status == 307 and "handoff" not in headers["location"]
    finally:
        for proc in (a, b):
            stop(proc, timeout=30)
