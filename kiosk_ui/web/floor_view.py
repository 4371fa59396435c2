"""The floor as any server of a shared store sees it: every table, who serves it, live.

On a shared store (``croupier serve --workers N``, or several appliances on one
PostgreSQL database) each process serves only the tables it leases, and their games,
seats and alarms live in its memory. So that the lobby and the operator console of
ANY of them show the whole floor, each server

- advertises where it serves: its base URL in the store's ``servers`` row
  (:meth:`kiosk_ui.store.leases.SqliteLeases.advertise`), renewed every third of the
  lease life, so a dead server's row goes stale with its leases;
- answers the other servers' ``GET /api/floor/here`` (:mod:`kiosk_ui.web.routes.floor`):
  its tables as the lobby shows them (its poker rooms' rows too: stakes, seated players
  and stacks), their state as the console shows it (seats, open game, suspension) and
  its open alarms and its health (:func:`kiosk_ui.web.status_view.health_summary`: what
  its public status page shows); never a card: no view, no event, no shoe.
  Both ends prove they are servers of this floor with the floor secret, derived from
  the floor's player-token key (:meth:`kiosk_ui.identity.PlayerTokens.derived`: every
  server of the floor holds a copy of ``keys/``), which never crosses the network: the
  caller sends :func:`~kiosk_ui.web.floor_asks.ask_tag` (an HMAC of the secret over the
  URL it asks, the request, its body, the time and a nonce: good once, for that server
  and request only, :mod:`kiosk_ui.web.floor_asks`), the answer carries
  :func:`~kiosk_ui.web.floor_asks.answer_proof` (over the answerer's own URL, the
  request, the ask's nonce and the body). So a
  ``servers`` row forged in the store to point at another address learns nothing it
  could use on a real server, and its answers (tables it claims, URLs a lobby would send
  players to) are refused. An answer is read within :data:`MAX_ANSWER` bytes and
  :data:`ANSWER_SECONDS`, never through a redirect, and must have the shape of one
  (:func:`well_formed`): a bad peer shows as not answering and never stalls the poll;
- while someone watches (a console's stream, a lobby or status page asked for in the last
  :data:`WATCH_SECONDS`), polls every other live server once a second
  (:data:`POLL_SECONDS`) and pushes a new :meth:`FloorView.snapshot` to the console
  streams whenever a table's state or an alarm changed anywhere;
- lists every server of the floor with its health for the status page
  (:meth:`FloorView.servers`): one that stopped answering, or whose row went stale,
  says so.

Polling rather than a relay of every event: a second per change is what a floor
supervisor needs, the answer is small (a row per table), and a server that stops
answering shows as such rather than silently missing from the floor.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from kiosk_ui.errors import StoreError
from kiosk_ui.web.floor_asks import AskGuard, answer_proof, ask_tag
from kiosk_ui.web.status_view import utc

if TYPE_CHECKING:
    from kiosk_ui.table.runtime import Runtime

log = logging.getLogger("kiosk_ui.web.floor")

PEER_HEADER = "x-croupier-floor"  # the caller's ask_tag, between servers only
PROOF_HEADER = "x-croupier-floor-proof"  # the answerer's answer_proof
POLL_SECONDS = 1.0
WATCH_SECONDS = 30.0  # a lobby or console looked within this: keep the floor fresh
PEER_TIMEOUT = 2.0
#: the largest answer read from another server (a row per table: far below this)
MAX_ANSWER = 8 * 1024 * 1024
#: a whole answer is read within this (a peer trickling bytes is cut off)
ANSWER_SECONDS = 5.0
#: a server's row not renewed for this many lease lives is a dead server's
STALE_LIVES = 2


@dataclass
class PeerState:
    """The last answer of another server (``error``: why it did not answer)."""

    holder: str
    url: str
    answer: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    at: float = 0.0  # time.monotonic() of that answer
    answered: float | None = None  # time.time() of its last answer (None: never yet)
    failing: float | None = None  # time.time() of the first poll it did not answer


class PeerError(ValueError):
    """Another server's answer is refused (unproven, too large, too slow, malformed)."""


def linkable(url: str) -> bool:
    """Whether ``url`` is an http(s) address with a host (what a server may advertise)."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def well_formed(answer: object) -> dict[str, Any]:
    """``answer`` if it has the shape of a server's part of the floor (else PeerError):
    an object whose row lists are lists of objects, each table, lobby and room row with
    a string id, so a peer of another version or a broken one cannot break a page."""
    if not isinstance(answer, dict):
        raise PeerError("its answer is not a JSON object")
    for part in ("lobby", "rooms", "tables", "alarms"):
        rows = answer.get(part, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise PeerError(f"its answer's {part!r} is not a list of objects")
        if part != "alarms" and not all(isinstance(r.get("id"), str) for r in rows):
            raise PeerError(f"its answer's {part!r} has a row without a string id")
    if not isinstance(answer.get("health"), (dict, type(None))):
        raise PeerError("its answer's 'health' is not an object")
    return answer


def _opener() -> urllib.request.OpenerDirector:
    """http and https only: no proxy, no redirect followed (a 3xx is an error), no
    file:, ftp: or data: URL."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener


def _read(answer: Any, deadline: float) -> bytes:
    """The body of ``answer``, at most :data:`MAX_ANSWER` bytes, by ``deadline``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise PeerError(f"its answer took more than {ANSWER_SECONDS:g} s")
        chunk = answer.read1(65536)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_ANSWER:
            raise PeerError(f"its answer is larger than {MAX_ANSWER} bytes")
        chunks.append(chunk)


def worker_index(holder: str) -> int | None:
    """The worker number of a ``serve --workers`` holder (``host/id/worker-I``); None
    for an appliance of one process."""
    m = re.search(r"/worker-(\d+)$", holder)
    return int(m.group(1)) if m else None


def sibling(a: str, b: str) -> bool:
    """Whether holders ``a`` and ``b`` are workers of one appliance (``serve --workers``:
    ``host/id/worker-I``), which share a host."""
    return a != b and a.rsplit("/worker-", 1)[0] == b.rsplit("/worker-", 1)[0]


def on_host(url: str, host: str | None) -> str:
    """``url`` with its host replaced by ``host`` (a sibling worker, linked for the
    browser by the name it reached this one with); unchanged without a host."""
    if not host:
        return url
    parts = urlsplit(url)
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    netloc = f"{name}:{parts.port}" if parts.port else name
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


class FloorView:
    """This server's view of the floor (see the module docstring)."""

    def __init__(
        self,
        runtime: Runtime,
        secret: str,
        url: str | None,
        local: Callable[[], dict[str, Any]],
    ) -> None:
        self.runtime = runtime
        self.secret = secret
        self.url = url.rstrip("/") if url else None
        self.local = local  # this server's part (routes.floor.here_part)
        self.started = time.time()  # for the floor's status page
        # the door for the other servers' asks (routes.floor): each fresh one let in once
        self.guard = AskGuard(secret, self.url, started=self.started) if self.url else None
        leasing = runtime.leasing
        self.name = leasing.name if leasing is not None else None
        self.every = leasing.life / 3e6 if leasing is not None else 5.0
        self.peers: dict[str, PeerState] = {}
        # the last state of servers no longer polled (their row went stale): the status
        # page shows a gone server's last known health; nothing else reads them
        self.gone: dict[str, PeerState] = {}
        self._lock = threading.Lock()
        self._watched = 0.0
        self._last: str | None = None
        self._subs: dict[asyncio.Queue[dict[str, Any]], asyncio.AbstractEventLoop] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._opener = _opener()
        # holders whose last ask has not ended yet, with when it began (time.monotonic())
        self._asking: dict[str, float] = {}

    @property
    def shared(self) -> bool:
        return self.name is not None

    # --- the thread ----------------------------------------------------------------------

    def start(self) -> None:
        if not self.shared:
            return
        self.advertise()
        self._thread = threading.Thread(target=self._run, name="floor-view", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop polling and, on a clean stop, take this server's row out of the store:
        the floor's status pages list it no more, where a crashed server's row goes
        stale and shows as gone (something for the floor to look at)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=PEER_TIMEOUT + 1)
        if self.name is None:
            return
        failures: tuple[type[Exception], ...] = (OSError, StoreError, *self.runtime.db.errors)
        try:
            with self.runtime.db.transaction() as tx:
                tx.leases.withdraw(self.name)
        except failures as exc:
            log.warning("this server's row was not withdrawn (it goes stale): %s", exc)

    def _run(self) -> None:
        advertised = time.monotonic()
        while not self._stop.wait(POLL_SECONDS):
            try:
                if time.monotonic() - advertised >= self.every:
                    self.advertise()
                    advertised = time.monotonic()
                if self._subs or time.monotonic() - self._watched < WATCH_SECONDS:
                    self.refresh()
                    self._publish_if_changed()
            except Exception:  # the view must never stop: the next poll tries again
                log.exception("floor view poll failed")

    def advertise(self) -> None:
        """Name this server's URL in the store (renewed: a stale row is a dead server)."""
        if self.name is None or self.url is None:
            return
        failures: tuple[type[Exception], ...] = (OSError, *self.runtime.db.errors)
        try:
            with self.runtime.db.transaction() as tx:
                tx.leases.advertise(self.name, self.url, self.runtime.log.clock())
        except failures as exc:
            log.warning("could not advertise this server's URL (tried again): %s", exc)

    # --- the other servers ---------------------------------------------------------------

    def watched(self) -> None:
        """A lobby or console asked: keep the floor fresh for a while; refresh now if it is
        older than a poll (the first look after a quiet spell)."""
        stale = time.monotonic() - self._watched >= WATCH_SECONDS and not self._subs
        self._watched = time.monotonic()
        if stale and self.shared:
            self.refresh()

    def leases(self) -> tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]], int]:
        """The store's leases (table -> holder, expiry), servers (holder -> URL, seen) and
        the clock now (microseconds)."""
        with self.runtime.db.read() as tx:
            leases, servers = tx.leases.holders(), tx.leases.servers()
        return leases, servers, self.runtime.log.clock()

    @property
    def life(self) -> int:
        """The lease life, microseconds (0: not a shared store)."""
        return self.runtime.leasing.life if self.runtime.leasing is not None else 0

    def refresh(self) -> None:
        """Ask every other live server (its ``servers`` row renewed within
        :data:`STALE_LIVES` lease lives, whether it holds a table now or stands by) for
        its part of the floor."""
        _, servers, now = self.leases()
        wanted = {
            h: url
            for h, (url, seen) in servers.items()
            if h != self.name and now - seen <= STALE_LIVES * self.life
        }
        with self._lock:  # a peer still busy with the last ask is not asked again
            asked = {h: u for h, u in wanted.items() if h not in self._asking}
            self._asking.update(dict.fromkeys(asked, time.monotonic()))
        threads = [
            threading.Thread(target=self._ask, args=(h, u), daemon=True) for h, u in asked.items()
        ]
        for t in threads:
            t.start()
        limit = ANSWER_SECONDS + PEER_TIMEOUT
        deadline = time.monotonic() + limit
        for t in threads:
            t.join(timeout=max(0.0, deadline - time.monotonic()))
        with self._lock:  # (an ask another refresh began just now is not late yet)
            late = time.monotonic() - limit
            hung = [h for h, began in self._asking.items() if h in wanted and began <= late]
        for holder in hung:  # headers trickling, a connection never ending: not an answer
            self._store(
                PeerState(holder, wanted[holder], at=time.monotonic()),
                PeerError(f"no answer within {limit:g} s"),
            )
        with self._lock:
            for gone in set(self.peers) - set(wanted):
                self.gone[gone] = self.peers.pop(gone)
            for back in set(self.gone) & set(wanted):
                del self.gone[back]

    def _ask(self, holder: str, url: str) -> None:
        state = PeerState(holder, url, at=time.monotonic())
        failure: Exception | None = None
        try:
            state.answer = well_formed(json.loads(self._call(url, "GET", "/api/floor/here")))
            state.answered = time.time()
        except (OSError, ValueError) as exc:  # URLError, HTTPError, timeouts, PeerError
            failure = exc
        finally:
            with self._lock:
                self._asking.pop(holder, None)
        self._store(state, failure)

    def _call(self, url: str, method: str, path: str, body: bytes | None = None) -> bytes:
        """``method path`` on the floor server at ``url``: its proven answer's body."""
        if not linkable(url):
            raise PeerError(f"it advertises {url!r}, not an http(s) address")
        url = url.rstrip("/")
        nonce = secrets.token_hex(16)
        headers = {PEER_HEADER: ask_tag(self.secret, url, method, path, body or b"", nonce=nonce)}
        if body is not None:
            headers["content-type"] = "application/json"
        request = urllib.request.Request(f"{url}{path}", body, headers, method=method)
        deadline = time.monotonic() + ANSWER_SECONDS
        with self._opener.open(request, timeout=PEER_TIMEOUT) as answer:
            data = _read(answer, deadline)
            proof = answer.headers.get(PROOF_HEADER) or ""
        good = answer_proof(self.secret, url, method, path, nonce, data)
        if not hmac.compare_digest(proof.encode(), good.encode()):  # any characters
            raise PeerError("its answer does not prove it is that server of this floor")
        return data

    def _store(self, state: PeerState, failure: Exception | None) -> None:
        """Keep ``state`` as its holder's last answer (``failure``: why it is none)."""
        if failure is not None:
            state.error = f"server {state.holder} at {state.url} does not answer: {failure}"
            state.failing = time.time()
        with self._lock:
            old = self.peers.get(state.holder)
            if state.error and old is not None:
                if old.answer:
                    state.answer = old.answer  # the last known state, marked unanswered
                state.answered = old.answered
                state.failing = old.failing or state.failing  # silent since its first miss
            self.peers[state.holder] = state

    def relay(self, holder: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body`` to another server's floor API (an acknowledgement); its answer."""
        with self._lock:
            peer = self.peers.get(holder)
        if peer is None or peer.answered is None:  # only to a server that proved it is one
            raise LookupError(f"no server {holder} answers on this floor")
        try:
            answer = json.loads(self._call(peer.url, "POST", path, json.dumps(body).encode()))
            if not isinstance(answer, dict):
                raise PeerError("its answer is not a JSON object")
            return answer
        except urllib.error.HTTPError as exc:
            raise LookupError(f"server {holder} refused: {_message(exc)}") from None
        except (OSError, ValueError) as exc:
            raise LookupError(f"server {holder} at {peer.url} does not answer: {exc}") from None

    # --- the merged floor ----------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Every table of the floor with who serves it, where, and its state; and every
        other server's open alarms (this one's are the console's own stream)."""
        here = self.local()
        if not self.shared:
            return {"tables": here["tables"], "alarms": [], "servers": []}
        leases, servers, now = self.leases()
        with self._lock:
            peers = dict(self.peers)
        states: dict[str, dict[str, Any]] = {row["id"]: row for row in here["tables"]}
        for peer in peers.values():
            for row in peer.answer.get("tables", []):
                states.setdefault(row["id"], row)
        rows = []
        for table, (holder, expires) in sorted(leases.items()):
            state = states.get(table, {})
            server = peers.get(holder)
            rows.append(
                {
                    **state,
                    "table": table,
                    "id": table,
                    "holder": holder,
                    "url": None if holder == self.name else _link(servers.get(holder)),
                    "here": holder == self.name and table in self.runtime.tables,
                    "seconds_left": max(0, expires - now) // 1_000_000,
                    "answered": holder == self.name or (server is not None and not server.error),
                }
            )
        alarms = [
            {**alarm, "holder": peer.holder, "url": peer.url}
            for peer in peers.values()
            for alarm in peer.answer.get("alarms", [])
        ]
        down = [
            {"holder": p.holder, "url": p.url, "error": p.error} for p in peers.values() if p.error
        ]
        return {"tables": rows, "alarms": alarms, "servers": down}

    def servers(self, health: dict[str, Any]) -> list[dict[str, Any]]:
        """Every server of the floor for the status page, this one (``health``: its own
        :func:`kiosk_ui.web.status_view.health_summary`) first, then by holder: its address,
        worker index, the tables it holds a lease of, when its row was last renewed, and
        its health as its last answer gave it. ``state``: "serving" (this one, or it
        answered the last poll), "not answering" (``error`` says why, ``since`` from when;
        its last known health kept), "stale" (its row not renewed for
        :data:`STALE_LIVES` lease lives: a dead or stopped server; its last known health
        kept while this server runs) or "not asked yet"
        (it came up since the last poll)."""
        if not self.shared:
            return []
        leases, servers, now = self.leases()
        if self.name is not None and self.name not in servers:  # no URL to advertise
            servers[self.name] = (self.url or "", now)
        with self._lock:
            peers = {**self.gone, **self.peers}
        rows = []
        for holder, (url, seen) in sorted(servers.items(), key=lambda s: s[0] != self.name):
            peer = peers.get(holder)
            held = [t for t, (h, until) in leases.items() if h == holder and until >= now]
            row: dict[str, Any] = {
                "holder": holder,
                "worker": worker_index(holder),
                "url": url,
                "here": holder == self.name,
                "tables": sorted(held),
                "last_seen": utc(seen / 1e6),
                "seen_seconds_ago": max(0, now - seen) // 1_000_000,
                "state": "serving",
                "error": None,
                "since": None,
                "answered": utc(peer.answered) if peer and peer.answered else None,
                "health": peer.answer.get("health") if peer else None,
            }
            if holder == self.name:
                row["health"] = health
            elif now - seen > STALE_LIVES * self.life:
                row["state"] = "stale"
                row["since"] = row["last_seen"]
                row["error"] = (
                    f"server {holder} has not renewed its row in the store for "
                    f"{row['seen_seconds_ago']} s: it is not running (stopped or dead)"
                )
            elif peer is None:
                row["state"] = "not asked yet"
            elif peer.error:
                row["state"] = "not answering"
                row["error"] = peer.error
                row["since"] = utc(peer.failing) if peer.failing else None
            rows.append(row)
        return rows

    def lobby(self, host: str | None) -> list[dict[str, Any]]:
        """Every table's lobby row served elsewhere, with the URL to open it at (for a
        sibling worker: by the host the player reached this one with); a server that did
        not answer its last poll is left out (a player could not reach it)."""
        return self._rows("lobby", host)

    def _rows(self, part: str, host: str | None) -> list[dict[str, Any]]:
        """The rows of ``part`` ("lobby", "rooms") of every server that answered, each
        with the URL to open it at."""
        with self._lock:
            peers = [p for p in self.peers.values() if p.error is None]
        out = []
        for peer in peers:
            url = on_host(peer.url, host) if self.name and sibling(peer.holder, self.name) else None
            for row in peer.answer.get(part, []):
                out.append({**row, "url": url or peer.url})
        return out

    def rooms(self, host: str | None) -> list[dict[str, Any]]:
        """Every poker room's lobby row served elsewhere (stakes, buy-in, the seated
        players), with the URL of its server as :meth:`lobby` gives it."""
        return self._rows("rooms", host)

    def served_at(self, table: str, host: str | None) -> str | None:
        """The base URL of the server serving ``table`` (None: no other server that
        answers has it)."""
        with self._lock:
            peers = [p for p in self.peers.values() if p.error is None]
        for peer in peers:
            if any(row.get("id") == table for row in peer.answer.get("lobby", [])):
                if self.name and sibling(peer.holder, self.name):
                    return on_host(peer.url, host)
                return peer.url
        return None

    # --- the console streams -------------------------------------------------------------

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=50)
        with self._lock:
            self._subs[q] = asyncio.get_running_loop()
        self._watched = time.monotonic()
        return q

    def unsubscribe(self, q: asyncio.Queue[dict[str, Any]]) -> None:
        with self._lock:
            self._subs.pop(q, None)

    def _publish_if_changed(self) -> None:
        snap = self.snapshot()
        steady = json.dumps(
            [{k: v for k, v in r.items() if k != "seconds_left"} for r in snap["tables"]]
            + snap["alarms"]
            + snap["servers"],
            sort_keys=True,
            default=str,
        )
        if steady == self._last:
            return
        self._last = steady
        with self._lock:
            subs = list(self._subs.items())
        for q, loop in subs:
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(_put, q, snap)


def _link(server: tuple[str, int] | None) -> str | None:
    """A server's advertised URL if it is an http(s) one (a console links it)."""
    return server[0] if server is not None and linkable(server[0]) else None


def _put(q: asyncio.Queue[dict[str, Any]], message: dict[str, Any]) -> None:
    with contextlib.suppress(asyncio.QueueFull):
        q.put_nowait(message)


def _message(exc: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(exc.read())["error"]["message"])
    except (ValueError, KeyError, TypeError, OSError):
        return f"HTTP {exc.code}"
