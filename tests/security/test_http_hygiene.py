"""Issue 12, point 13: HTTP hygiene, attacked through the real server.

A huge streamed body, an over-long static path, a page framed or sniffed, a cross-origin
operator POST, amounts sent as strings or floats, and an Idempotency-Key reused for
another request: each against uvicorn serving the real app on a store in ``tmp_path``.
"""

from __future__ import annotations

import select
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.security.conftest import (
    OPERATOR_PASSWORD,
    Process,
    Served,
    demo_settings,
    write_config,
)

MB = 1024 * 1024


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for pid {pid}")


def _chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    """``total`` bytes of a JSON-looking body, made as they are sent (never all held)."""
    piece = b'{"name": "' + b"A" * (size - 10)
    sent = 0
    while sent < total:
        data = piece[: min(size, total - sent)]
        sent += len(data)
        yield b"%x\r\n%s\r\n" % (len(data), data)
    yield b"0\r\n\r\n"


def _stream_post(port: int, path: str, total: int) -> tuple[bytes, int]:
    """POST ``total`` bytes chunked; stop when the server answers. (answer, bytes sent)"""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sent = 0
    answer = b""
    try:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
        )
        for chunk in _chunks(total):
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        sock.settimeout(30)
        try:
            while b"\r\n\r\n" not in answer:
                got = sock.recv(65536)
                if not got:
                    break
                answer += got
        except ConnectionResetError:
            pass
    finally:
        sock.close()
    return answer, sent


@pytest.mark.slow
def test_a_300_mb_streamed_post_is_refused_early_and_memory_stays_bounded(
    tmp_path: Path, serve_process: Callable[..., Process]
) -> None:
    srv = serve_process(write_config(tmp_path, demo_settings(tmp_path / "store")))
    assert httpx.get(f"{srv.url}/api/tables").status_code == 200
    before = _rss_kib(srv.proc.pid)
    answer, sent = _stream_post(srv.port, "/api/players", 300 * MB)
    after = _rss_kib(srv.proc.pid)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 32 * MB, f"the server read {sent} bytes before refusing"
    assert after - before < 50 * 1024, f"RSS grew from {before} KiB to {after} KiB"
    # ... and it still serves.
    assert httpx.get(f"{srv.url}/api/tables").status_code == 200


def test_a_declared_or_chunked_body_past_the_limit_is_413(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    big = b'{"name": "' + b"A" * (70 * 1024) + b'"}'
    r = httpx.post(f"{srv.url}/api/players", content=big)
    assert r.status_code == 413, r.text
    assert r.json()["error"]["code"] == "body-too-large"
    r = httpx.post(f"{srv.url}/api/players", content=iter([big[:40_000], big[40_000:]]))
    assert r.status_code == 413, r.text  # chunked: no Content-Length to trust
    assert httpx.post(f"{srv.url}/api/players", json={"name": "Ann"}).status_code == 201


def test_the_body_limit_is_set_in_the_config_file(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    data = demo_settings(tmp_path / "store")
    data["http"] = {"max_body_bytes": 2048}
    srv = served(data)
    r = httpx.post(f"{srv.url}/api/players", json={"name": "A" * 30, "pad": "x" * 3000})
    assert r.status_code == 413, r.text
    assert "2048 bytes" in r.json()["error"]["message"]


def test_an_over_long_static_path_is_404_not_500(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    for name in ("a" * 300 + ".js", "x" * 5000, "..%2fsettings.py", "style.css%00.js"):
        r = httpx.get(f"{srv.url}/static/{name}")
        assert r.status_code == 404, (name[:20], r.status_code)
    assert httpx.get(f"{srv.url}/static/style.css").status_code == 200


def test_security_headers_on_pages_and_api(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    for path in ("/", "/operator", "/status", "/history", "/table/bac", "/static/common.js"):
        r = httpx.get(f"{srv.url}{path}")
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp, (path, csp)
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, csp
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
    for path in ("/api/tables", "/api/me", "/api/operator/tables", "/api/nowhere"):
        r = httpx.get(f"{srv.url}{path}")
        assert r.headers["cache-control"] == "no-store", (path, r.status_code)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path


def test_an_unexpected_error_answer_carries_the_headers_too(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))

    def broken() -> None:
        raise RuntimeError("a bug in a handler")

    srv.app.add_api_route("/api/broken", broken)  # a bug, planted in the served app
    r = httpx.get(f"{srv.url}/api/broken")
    assert r.status_code == 500 and r.json()["error"]["code"] == "internal", r.text
    assert "a bug" not in r.text  # no traceback, no exception text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


@contextmanager
def _operator(srv: Served) -> Iterator[httpx.Client]:
    """A client signed in as the admin with the console's cookie (same origin)."""
    with httpx.Client(base_url=srv.url) as client:
        r = client.post(
            "/api/operator/login",
            json={"user": "admin", "password": OPERATOR_PASSWORD},
            headers={"origin": srv.url},
        )
        assert r.status_code == 200, r.text
        yield client


def test_a_cross_origin_operator_post_is_refused(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    with _operator(srv) as client:
        assert client.cookies.get("croupier_operator")
        evil = {"origin": "http://evil.example"}
        r = client.post("/api/operator/tables/bac/suspend", json={"reason": "csrf"}, headers=evil)
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == "cross-origin"
        site = {"sec-fetch-site": "cross-site"}
        r = client.post("/api/operator/tables/bac/suspend", json={"reason": "csrf"}, headers=site)
        assert r.status_code == 403, r.text
        null = {"origin": "null"}
        r = client.post("/api/operator/tables/bac/suspend", json={"reason": "csrf"}, headers=null)
        assert r.status_code == 403, r.text
        r = httpx.post(
            f"{srv.url}/api/operator/login",
            json={"user": "admin", "password": OPERATOR_PASSWORD},
            headers=evil,
        )
        assert r.status_code == 403, r.text  # no login CSRF either
        tables = client.get("/api/operator/tables").json()
        assert all(t["suspended"] is None for t in tables), tables
        # Same origin (the console) and no Origin at all (an API client) still work.
        ok = client.post(
            "/api/operator/tables/bac/suspend",
            json={"reason": "check"},
            headers={"origin": srv.url},
        )
        assert ok.status_code == 200, ok.text
        assert client.post("/api/operator/tables/bac/resume").status_code == 200


def _player(url: str) -> dict[str, str]:
    r = httpx.post(f"{url}/api/players", json={"name": "Ann"})
    assert r.status_code == 201, r.text
    return {"x-player-token": r.json()["token"]}


def test_amounts_are_json_integers_only(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    srv = served(demo_settings(tmp_path / "store"))
    who = _player(srv.url)
    url = f"{srv.url}/api/tables/bac/actions"
    for amount in ("100", 100.0, True):
        body = {"kind": "place-bet", "bet": "banker", "amount": amount}
        r = httpx.post(url, json=body, headers=who)
        assert r.status_code == 422, (amount, r.text)
        assert r.json()["error"]["message"].startswith("amount:"), r.text
    r = httpx.post(f"{srv.url}/api/tables/bac/round", json={"bets": {"banker": "100"}}, headers=who)
    assert r.status_code == 422 and "bets.banker" in r.json()["error"]["message"], r.text
    r = httpx.post(url, json={"kind": "deal", "seat": "0"}, headers=who)
    assert r.status_code == 422 and r.json()["error"]["message"].startswith("seat:"), r.text
    me = httpx.get(f"{srv.url}/api/me", headers=who).json()
    assert me["balance"] == 100_000  # nothing was placed
    with _operator(srv) as op:
        r = op.post(f"/api/operator/players/{me['id']}/cash-in", json={"amount": 100.0})
        assert r.status_code == 422 and r.json()["error"]["message"].startswith("amount:"), r.text
        assert op.post(f"/api/operator/players/{me['id']}/cash-in", json={"amount": 100}).is_success
    r = httpx.post(url, json={"kind": "place-bet", "bet": "banker", "amount": 100}, headers=who)
    assert r.status_code == 200, r.text
    assert r.json()["balance"] == 100_000 + 100 - 100


def test_an_idempotency_key_reused_for_another_request_is_422(
    tmp_path: Path, served: Callable[[dict[str, Any]], Served]
) -> None:
    data = demo_settings(tmp_path / "store")
    data["tables"].append({"id": "bac2", "variant": "baccarat-pinnacle"})
    srv = served(data)
    who = _player(srv.url)
    key = {**who, "idempotency-key": "slip-1"}
    slip = {"bets": {"banker": 1_000}}
    first = httpx.post(f"{srv.url}/api/tables/bac/round", json=slip, headers=key)
    assert first.status_code == 200, first.text
    again = httpx.post(f"{srv.url}/api/tables/bac/round", json=slip, headers=key)
    assert again.status_code == 200 and again.json() == first.json()
    other = {"bets": {"banker": 50_000}}
    r = httpx.post(f"{srv.url}/api/tables/bac/round", json=other, headers=key)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "idempotency-conflict"
    r = httpx.post(f"{srv.url}/api/tables/bac2/round", json=slip, headers=key)
    assert r.status_code == 422, r.text  # same body, another table
    act = {"kind": "place-bet", "bet": "banker", "amount": 1_000}
    r = httpx.post(f"{srv.url}/api/tables/bac/actions", json=act, headers=key)
    assert r.status_code == 422, r.text  # same key on the other endpoint
    history = httpx.get(f"{srv.url}/api/history", headers=who).json()
    assert len(history) == 1, history  # only the first request was applied
    assert httpx.get(f"{srv.url}/api/me", headers=who).json()["balance"] == first.json()["balance"]
