"""HTTP hygiene as pure ASGI middleware: a body limit, security headers, an Origin check.

Each wraps the whole app (pages, API, errors) and works on the raw ASGI messages, so it
holds for every route, for error answers and before any handler runs:

- :class:`BodyLimit` counts request body bytes as they arrive and answers 413 as soon
  as they pass the limit (a declared ``Content-Length`` over the limit is refused
  before a byte is read; a chunked body or a ``Content-Length`` that lies is counted).
  At most ``limit`` bytes of one request are ever held, however much the client sends.
- :class:`SecurityHeaders` adds a Content-Security-Policy without ``unsafe-inline``
  (the pages' few inline scripts are allowed by their SHA-256 hashes, computed from the
  packaged pages at start), ``frame-ancestors 'none'``, ``nosniff``,
  ``Referrer-Policy: no-referrer``, and ``Cache-Control: no-store`` on ``/api``.
- :class:`OriginCheck` refuses (403) a state-changing ``/api`` request (POST, PUT,
  PATCH, DELETE) whose ``Origin`` is not this server's own host, or that a browser
  marks ``Sec-Fetch-Site: cross-site``. A request without ``Origin`` passes: browsers
  always send it on such requests, so its absence means a terminal or an API client
  with a bearer token or a player token header, which no other web page can forge.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_BODY_LIMIT = 64 * 1024  # bytes: the largest API body (a full bet slip) is ~4 KiB
STATE_CHANGING = frozenset(("POST", "PUT", "PATCH", "DELETE"))


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    """An answer in the app's error shape, sent straight from the middleware."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value)
    return None


class BodyLimit:
    """Refuse (413) a request whose body passes ``limit`` bytes, counted as it streams."""

    def __init__(self, app: ASGIApp, limit: int = DEFAULT_BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"the request body is larger than {self.limit} bytes"
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _send_error(send, 413, "body-too-large", too_big)
            return
        # Read the whole body here (it is at most ``limit`` bytes) and hand it on in one
        # message: the app never sees a byte past the limit.
        chunks: list[bytes] = []
        total = 0
        first: Message | None = None
        while True:
            msg = await receive()
            if msg["type"] != "http.request":  # the client went away: let the app see it
                first = msg
                break
            body = msg.get("body", b"")
            total += len(body)
            if total > self.limit:
                await _send_error(send, 413, "body-too-large", too_big)
                return
            chunks.append(body)
            if not msg.get("more_body", False):
                first = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                break
        pending = [first]

        async def replay() -> Message:
            if pending:
                return pending.pop()
            return await receive()

        await self.app(scope, replay, send)


def inline_script_hashes() -> list[str]:
    """CSP source expressions for the inline ``<script>`` blocks of the packaged pages."""
    out: list[str] = []
    static = resources.files("kiosk_ui.web").joinpath("static")
    for item in sorted(static.iterdir(), key=lambda p: p.name):
        if not item.name.endswith(".html"):
            continue
        text = item.read_text(encoding="utf-8")
        for m in re.finditer(r"<script>(.*?)</script>", text, flags=re.DOTALL):
            digest = hashlib.sha256(m.group(1).encode()).digest()
            out.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return out


def content_security_policy() -> str:
    scripts = " ".join(["'self'", *inline_script_hashes()])
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


class SecurityHeaders:
    """Add the security headers to every HTTP answer (an answer's own header wins)."""

    def __init__(self, app: ASGIApp, csp: str | None = None) -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", (csp or content_security_policy()).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers", ()))
                present = {bytes(k).lower() for k, _ in headers}
                headers += [(k, v) for k, v in self.headers if k not in present]
                if api:
                    headers = [(k, v) for k, v in headers if bytes(k).lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                msg["headers"] = headers
            await send(msg)

        await self.app(scope, receive, send_with_headers)


class OriginCheck:
    """Refuse (403) a cross-origin state-changing API request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope.get("method") in STATE_CHANGING
            and str(scope.get("path", "")).startswith("/api/")
        ):
            why = self.refusal(scope)
            if why:
                await _send_error(send, 403, "cross-origin", why)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def refusal(scope: Scope) -> str | None:
        """Why this request is refused as cross-origin, or None if it may go on."""
        if (_header(scope, b"sec-fetch-site") or b"").lower() == b"cross-site":
            return "cross-site requests may not change anything here"
        origin = _header(scope, b"origin")
        if origin is None:
            return None
        host = (_header(scope, b"host") or b"").lower()
        given = origin.lower().split(b"://", 1)
        if len(given) != 2 or not host or given[1].rstrip(b"/") != host:
            return f"origin {origin.decode(errors='replace')!r} may not change anything here"
        return None
