"""An attacker on the floor's network against the servers of a shared store.

Two real workers (``serve --workers 2``, real uvicorn, one real SQLite store) and, in
the test, a real HTTP server of the attacker's with a ``servers`` row forged in the
store naming it (what anyone who can write the store's database can do). The floor
secret never reaches it, nor anything a real server accepts; what it answers (a table
it claims, a URL to send players to) is refused, and so is what a server of the floor
itself answers when it is broken: not an object, too large, trickled byte by byte,
a redirect. None of it breaks a lobby, a console or a status page, or stalls the poll
that keeps the other servers' tables fresh; a URL that is not http(s) is never linked.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from kiosk_ui.identity import PlayerTokens
from kiosk_ui.web.floor_asks import answer_proof
from kiosk_ui.web.floor_view import MAX_ANSWER
from tests.kiosk_ui.served import until
from tests.kiosk_ui.test_floor_view import Floor, call, floor, operator

__all__ = ["floor"]  # the fixture: two workers, worker 1 serving bj-1

HOLDER = "pit-9"  # the forged server's holder name
HERE = "/api/floor/here"


@dataclass
class Attacker:
    """An HTTP server answering the floor's polls as ``mode`` says; what it heard."""

    secret: str  # the floor's, for a broken server OF the floor (modes "signed ...")
    mode: str = "claims"
    ghost: dict[str, Any] = field(default_factory=dict)  # a lobby row it claims
    heard: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    advertised: str | None = None  # the URL its forged row names (None: its own)
    stopped: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def body(self) -> bytes:
        part = {"holder": HOLDER, "lobby": [self.ghost], "rooms": [], "tables": [], "alarms": []}
        if self.mode == "signed list":
            return b"[]"
        if self.mode == "signed rows without ids":
            return json.dumps({**part, "tables": [{"no": "id"}], "lobby": [1]}).encode()
        if self.mode == "signed huge":
            pad = "x" * (MAX_ANSWER + 1024)
            return json.dumps({**part, "pad": pad}).encode()
        return json.dumps(part).encode()

    def trickle(self, handler: BaseHTTPRequestHandler, data: bytes) -> None:
        """Send ``data`` a byte every 0.5 s (each read within any read timeout), until
        the poller hangs up or the test ends."""
        for byte in data:
            if self.stopped.wait(0.5):
                return
            try:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
            except OSError:  # the poller hung up
                return

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        self.heard.append((handler.path, dict(handler.headers)))
        if self.mode == "redirect" and handler.path == HERE:
            handler.send_response(302)
            handler.send_header("location", f"{self.url}/steal")
            handler.end_headers()
            return
        data = self.body()
        if self.mode == "slow headers":  # the status line, then a header byte every 0.5 s
            handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
            self.trickle(handler, b"x-padding: " + b"x" * 10_000)
            return
        handler.send_response(200)
        handler.send_header("content-type", "application/json")
        if self.mode.startswith("signed"):
            nonce = handler.headers.get("x-croupier-floor", "").split(".")[2]  # the ask's
            proof = answer_proof(self.secret, self.url, "GET", HERE, nonce, data)
            handler.send_header("x-croupier-floor-proof", proof)
        if self.mode.endswith("slow"):
            handler.send_header("content-length", str(len(data)))
            handler.end_headers()
            self.trickle(handler, data)
            return
        handler.send_header("content-length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)


@pytest.fixture
def attacker(floor: Floor) -> Iterator[Attacker]:
    """The attacker's server, named by a forged ``servers`` row renewed in the store."""
    evil = Attacker(PlayerTokens(floor.store).derived("floor-peer"))

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            evil.answer(self)

        def do_POST(self) -> None:
            evil.answer(self)

        def log_message(self, *_: object) -> None:
            pass

    evil.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    evil.server.daemon_threads = True
    threading.Thread(target=evil.server.serve_forever, daemon=True).start()
    _, lobby, _ = call(floor.base + 1, "GET", "/api/tables")
    evil.ghost = {**next(t for t in lobby if t["id"] == "bj-1"), "id": "ghost", "url": None}
    done = threading.Event()

    def forge() -> None:
        while not done.wait(0.3):
            with sqlite3.connect(floor.store / "croupier.db", timeout=30) as db:
                db.execute(
                    "INSERT OR REPLACE INTO servers (holder, url, seen) VALUES (?, ?, ?)",
                    (HOLDER, evil.advertised or evil.url, int(time.time() * 1e6)),
                )

    forger = threading.Thread(target=forge, daemon=True)
    forger.start()
    try:
        yield evil
    finally:
        evil.stopped.set()
        done.set()
        forger.join()
        with sqlite3.connect(floor.store / "croupier.db", timeout=30) as db:
            db.execute("DELETE FROM servers WHERE holder = ?", (HOLDER,))
            db.execute("DELETE FROM leases WHERE holder = ?", (HOLDER,))
        evil.server.shutdown()
        evil.server.server_close()


def refused(floor: Floor, url: str) -> dict[str, Any]:
    """The forged server's row on worker 0's status page, once worker 0 asked it at
    ``url`` and refused its answer (the error names the URL: not an earlier test's)."""

    def asked() -> dict[str, Any] | None:
        code, body, _ = call(floor.base, "GET", "/api/status")
        assert code == 200, body
        rows = [w for w in body["floor"] if w["holder"] == HOLDER]
        return rows[0] if rows and url in (rows[0]["error"] or "") else None

    row = dict(until(f"worker 0 refuses the forged server at {url}", asked))
    assert row["state"] == "not answering"
    return row


def pages_hold(floor: Floor) -> None:
    """Worker 0's lobby, rooms, console floor and status answer, without the ghost, and
    its page for the ghost table sends nobody to the attacker."""
    auth = operator(floor.base)
    for path, headers in (
        ("/api/tables", {}),
        ("/api/rooms", {}),
        ("/api/status", {}),
        ("/api/operator/floor", auth),
    ):
        code, body, _ = call(floor.base, "GET", path, headers=headers)
        assert code == 200, (path, body)
        assert "ghost" not in json.dumps(body), path
    code, _, headers = call(floor.base, "GET", "/table/ghost")
    assert code == 200, headers.get("location")  # unknown anywhere: no redirect


def test_a_forged_server_row_learns_no_secret_and_sends_no_player_away(
    floor: Floor, attacker: Attacker
) -> None:
    row = refused(floor, attacker.url)
    assert "does not prove it is that server of this floor" in row["error"]
    asks = [headers for path, headers in attacker.heard if path == HERE]
    assert asks
    for headers in asks:
        sent = {k.lower(): v for k, v in headers.items()}
        assert attacker.secret not in json.dumps(sent)  # the secret never left a server
        # and what it got is no key to a real server: replayed to worker 1, refused
        code, _, _ = call(floor.base + 1, "GET", HERE, headers=sent)
        assert code == 401
    pages_hold(floor)


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("signed list", "not a JSON object"),
        ("signed rows without ids", "is not a list of objects"),
        ("signed huge", f"larger than {MAX_ANSWER} bytes"),
        ("redirect", "HTTP Error 302"),
    ],
)
def test_a_broken_server_of_the_floor_breaks_no_page(
    floor: Floor, attacker: Attacker, mode: str, why: str
) -> None:
    attacker.mode = mode
    row = refused(floor, attacker.url)
    assert why in row["error"]
    pages_hold(floor)
    assert not [path for path, _ in attacker.heard if path != HERE]  # no redirect followed


@pytest.mark.parametrize(
    ("mode", "why"),
    [("signed slow", "took more than 5 s"), ("slow headers", "no answer within 7 s")],
)
def test_a_server_trickling_its_answer_stalls_no_poll(
    floor: Floor, attacker: Attacker, mode: str, why: str
) -> None:
    """While the forged server trickles its body, or its headers, a byte every half
    second, worker 0 still hears of worker 1's suspension, and says the trickler does
    not answer."""
    attacker.mode = mode
    row = refused(floor, attacker.url)
    assert why in row["error"]
    auth0, auth1 = operator(floor.base), operator(floor.base + 1)
    path = "/api/operator/tables/bj-1/suspend"
    assert call(floor.base + 1, "POST", path, {"reason": "trickle"}, auth1)[0] == 200
    try:

        def suspended() -> bool:
            _, rows, _ = call(floor.base, "GET", "/api/operator/floor", headers=auth0)
            return any(r["id"] == "bj-1" and r.get("suspended") for r in rows)

        # each of worker 0's polls waits out the trickler (7 s) before it publishes: a
        # guard of several polls, since a loaded CI needed more than 30 s
        until("worker 1's suspension on worker 0", suspended, seconds=90)
    finally:
        call(floor.base + 1, "POST", "/api/operator/tables/bj-1/resume", None, auth1)


def test_a_server_url_that_is_not_http_is_never_linked(floor: Floor, attacker: Attacker) -> None:
    """A forged row and lease with a ``javascript:`` URL: the console lists the table
    without a link, and the URL is never fetched."""
    attacker.advertised = "javascript:alert(document.domain)//"
    with sqlite3.connect(floor.store / "croupier.db", timeout=30) as db:
        db.execute(
            "INSERT INTO leases (table_id, holder, expires) VALUES (?, ?, ?)",
            ("ghost-2", HOLDER, int((time.time() + 3600) * 1e6)),
        )
    row = refused(floor, attacker.advertised)
    _, rows, _ = call(floor.base, "GET", "/api/operator/floor", headers=operator(floor.base))
    (ghost,) = [r for r in rows if r["id"] == "ghost-2"]
    assert ghost["holder"] == HOLDER and ghost["url"] is None
    assert "not an http(s) address" in row["error"]


def sign_in(port: int, user: str, password: str) -> dict[str, str]:
    code, body, _ = call(port, "POST", "/api/operator/login", {"user": user, "password": password})
    assert code == 200, body
    return {"authorization": f"Bearer {body['token']}"}


@pytest.mark.parametrize("change", ["disable", "role", "reset", "own password"])
def test_an_account_changed_on_one_worker_ends_its_sessions_on_the_other(
    floor: Floor, change: str
) -> None:
    """An operator signed in on both workers; the account changed on worker 0 (disabled,
    demoted, its password reset by an admin, or changed by the operator there): the
    session on worker 1 ends too (a demoted admin keeps no admin rights there)."""
    admin = operator(floor.base)
    user, password = f"boss-{change.replace(' ', '-')}", "first pass phrase 1"
    body = {"user": user, "password": password, "role": "operator"}
    assert call(floor.base, "POST", "/api/operator/operators", body, admin)[0] == 201
    assert call(floor.base, "POST", f"/api/operator/operators/{user}/role",
                {"role": "admin"}, admin)[0] == 200  # fmt: skip
    there = sign_in(floor.base + 1, user, password)
    here = sign_in(floor.base, user, password)
    assert call(floor.base + 1, "GET", "/api/operator/operators", headers=there)[0] == 200
    path = f"/api/operator/operators/{user}"
    if change == "disable":
        assert call(floor.base, "POST", f"{path}/disable", None, admin)[0] == 200
    elif change == "role":
        assert call(floor.base, "POST", f"{path}/role", {"role": "auditor"}, admin)[0] == 200
    elif change == "reset":
        new = {"password": "second pass phrase 2"}
        assert call(floor.base, "POST", f"{path}/password", new, admin)[0] == 200
    else:
        new = {"old_password": password, "new_password": "second pass phrase 2"}
        assert call(floor.base, "POST", "/api/operator/password", new, here)[0] == 200
        # the session that changed it goes on where it did
        assert call(floor.base, "GET", "/api/operator/operators", headers=here)[0] == 200
    code, refused, _ = call(floor.base + 1, "GET", "/api/operator/operators", headers=there)
    assert code == 401, refused
    assert "sign in again" in refused["error"]["message"]
    assert call(floor.base + 1, "GET", "/api/operator/tables", headers=there)[0] == 401


def test_a_secret_or_token_of_other_characters_is_refused_not_an_error(floor: Floor) -> None:
    """Non-ASCII bytes in the floor header or in a player's token (latin-1 on the wire):
    401 like any wrong one, never a 500 from the constant-time comparison."""
    odd = "\u00e9" * 64
    for port in (floor.base, floor.base + 1):
        code, body, _ = call(port, "GET", HERE, headers={"x-croupier-floor": odd})
        assert code == 401, body
        code, body, _ = call(port, "GET", "/api/me", headers={"x-player-token": f"p1.{odd}"})
        assert code == 401, body
