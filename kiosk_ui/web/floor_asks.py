"""How the servers of one floor prove themselves to each other, an ask and its answer at a time.

The floor's servers talk over the casino's network in plain HTTP (TLS is the site's).
Each ask carries :func:`ask_tag` in the ``X-Croupier-Floor`` header: an HMAC of the
floor secret (which never crosses the network) over the asked server's URL, the
method, the path, a hash of the body, the time it was made and a fresh random nonce.
The asked server lets it in only once (:class:`AskGuard`): made within
:data:`ASK_WINDOW` seconds of its own clock, not before the server started, and with a
nonce it has not seen. So an ask read on the wire cannot be sent again, to that server
or any other, for that request or another one, or with another body (an
acknowledgement's operator name is signed with it). The answer carries
:func:`answer_proof`, over the answerer's URL, the request, the ask's nonce and the
answer's body: an answer recorded earlier proves nothing to a later ask.

The servers' clocks must agree within :data:`ASK_WINDOW` (NTP, as any floor's logs need);
an ask outside it is refused with how far off it is, so a technician sees the cause.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from dataclasses import dataclass

#: an ask made further than this from the asked server's clock, either way, is refused
ASK_WINDOW = 30.0

_TAG = re.compile(r"([0-9]{1,12}\.[0-9]{6})\.([0-9a-f]{32})\.([0-9a-f]{64})")


class AskRefused(ValueError):
    """An ask that is not a fresh one of a server of this floor (why, in its words)."""


def _mac(secret: str, *parts: str) -> str:
    return hmac.new(secret.encode(), "\0".join(parts).encode(), hashlib.sha256).hexdigest()


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


@dataclass(frozen=True)
class Ask:
    """An ask's tag read back: when it was made (as signed), its nonce and its HMAC."""

    when: str
    nonce: str
    mac: str

    @property
    def at(self) -> float:
        """When it was made, in seconds since the epoch (the asker's clock)."""
        return float(self.when)

    @classmethod
    def parse(cls, tag: str) -> Ask:
        found = _TAG.fullmatch(tag)
        if found is None:
            raise AskRefused("the ask's tag is not one of this floor's")
        return cls(found[1], found[2], found[3])


def ask_tag(
    secret: str,
    url: str,
    method: str,
    path: str,
    body: bytes = b"",
    *,
    at: float | None = None,
    nonce: str | None = None,
) -> str:
    """What a server of the floor sends the server at ``url`` for ``method path`` with
    ``body``: ``TIME.NONCE.HMAC``, good once, for that server, request and body only."""
    when = f"{time.time() if at is None else at:.6f}"
    once = nonce or secrets.token_hex(16)
    mac = _mac(secret, "ask", url.rstrip("/"), method.upper(), path, _digest(body), when, once)
    return f"{when}.{once}.{mac}"


def answer_proof(secret: str, url: str, method: str, path: str, nonce: str, body: bytes) -> str:
    """What the server at ``url`` answers the ask ``nonce`` for ``method path`` with beside
    ``body``: proof that a server of the floor, at that very URL, sent that very body to
    that very ask."""
    return _mac(secret, "answer", url.rstrip("/"), method.upper(), path, nonce, _digest(body))


class AskGuard:
    """One server's door for the floor's asks: each fresh, proven ask is let in once.

    The nonces seen are kept for twice :data:`ASK_WINDOW` (an ask older than the window
    is refused by its time, so none older needs remembering); only an ask whose HMAC is
    good is remembered, so nobody without the secret can fill the memory."""

    def __init__(self, secret: str, url: str, *, started: float | None = None) -> None:
        self.secret = secret
        self.url = url.rstrip("/")
        # asks made before this server started may have been read on the wire meanwhile:
        # the nonces seen before a restart are not remembered, so they are refused by time
        self.started = time.time() if started is None else started
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def admit(self, tag: str | None, method: str, path: str, body: bytes = b"") -> Ask:
        """The ask ``tag`` for ``method path`` with ``body``, if it is a fresh one of this
        floor made for this server; else :class:`AskRefused`. Each is admitted once."""
        ask = Ask.parse(tag or "")
        good = _mac(
            self.secret, "ask", self.url, method.upper(), path, _digest(body), ask.when, ask.nonce
        )
        if not hmac.compare_digest(ask.mac, good):
            raise AskRefused("the ask is not one of this floor's servers for this request")
        now = time.time()
        if abs(now - ask.at) > ASK_WINDOW:
            raise AskRefused(
                f"the ask was made {now - ask.at:+.0f} s from this server's clock (at most "
                f"{ASK_WINDOW:g} s): the floor's clocks must agree, or it is an old ask sent again"
            )
        if ask.at < self.started:
            raise AskRefused("the ask was made before this server started: it is an old one")
        with self._lock:
            if ask.nonce in self._seen:
                raise AskRefused("the ask was already answered: it is sent again")
            self._seen[ask.nonce] = ask.at
            if len(self._seen) > 64 and next(iter(self._seen.values())) < now - 2 * ASK_WINDOW:
                self._seen = {n: t for n, t in self._seen.items() if t >= now - 2 * ASK_WINDOW}
        return ask
