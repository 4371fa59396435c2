"""Player identity for kiosks: a signed token (cookie or header), no password.

A kiosk or terminal session is bound to a player id; the token is the id with an
HMAC-SHA-256 tag under a secret kept in the store (mode 0600), so a player cannot
act as another by editing a cookie.

A session is a cookie of the host it was made on. On a floor whose appliances are
different hosts, a player sent from one lobby to another appliance's table carries the
session in a *hand-off* (:meth:`PlayerTokens.handoff`): the player id, an expiry a
minute ahead and the destination's address, tagged with a secret derived from the
floor's token key; the destination takes it once (:class:`Handoffs`), sets its own
cookie and sends the browser on to the clean address.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from kiosk_ui.errors import AuthError

VERIFIED_CACHE = 100_000  # tokens remembered as checked (cleared when full)
HANDOFF_SECONDS = 60  # how long a hand-off to another appliance may be taken


class PlayerTokens:
    def __init__(self, store_dir: Path) -> None:
        path = Path(store_dir) / "keys" / "player-token.key"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_hex(32))
        self._key = bytes.fromhex(path.read_text().strip())
        self._verified: dict[str, str] = {}  # token -> player, for tokens already checked

    def derived(self, purpose: str) -> str:
        """A secret for ``purpose`` derived from the token key, so every server holding
        the floor's ``keys/`` knows it and nobody else: how the floor's servers know each
        other (:mod:`kiosk_ui.web.floor_view`). Its HMAC key is a hash of the token key,
        never the token key itself, so no player's tag ever tells anything of it."""
        subkey = hashlib.sha256(b"croupier derived secrets\0" + self._key).digest()
        return hmac.new(subkey, purpose.encode(), hashlib.sha256).hexdigest()

    def issue(self, player: str) -> str:
        tag = hmac.new(self._key, player.encode(), hashlib.sha256).hexdigest()[:32]
        return f"{player}.{tag}"

    def player(self, token: str | None) -> str:
        if token in self._verified:  # every request carries the token: check it once
            return self._verified[token]
        if not token or "." not in token:
            raise AuthError("no player session: open the lobby to start one")
        player, tag = token.rsplit(".", 1)
        good = hmac.new(self._key, player.encode(), hashlib.sha256).hexdigest()[:32]
        if not hmac.compare_digest(tag.encode(), good.encode()):  # any characters: 401
            raise AuthError("player session is not valid")
        if len(self._verified) >= VERIFIED_CACHE:
            self._verified.clear()
        self._verified[token] = player
        return player

    def handoff(self, player: str, destination: str, now: float | None = None) -> str:
        """A hand-off of ``player``'s session to the server at ``destination`` (its base
        URL as the floor knows it), good for :data:`HANDOFF_SECONDS` and there only."""
        expires = int((time.time() if now is None else now) + HANDOFF_SECONDS)
        nonce = secrets.token_hex(8)
        return f"{player}.{expires}.{nonce}.{self.handoff_tag(player, expires, nonce, destination)}"

    def handoff_tag(self, player: str, expires: int, nonce: str, destination: str) -> str:
        key = self.derived("player-handoff").encode()
        text = f"{player}\0{expires}\0{nonce}\0{destination.rstrip('/')}".encode()
        return hmac.new(key, text, hashlib.sha256).hexdigest()[:32]


class Handoffs:
    """The hand-offs this server has taken (each once, until it expires anyway)."""

    def __init__(
        self, tokens: PlayerTokens, here: str | None, clock: Callable[[], float] = time.time
    ) -> None:
        self.tokens = tokens
        self.here = (here or "").rstrip("/")
        self.clock = clock
        self._taken: dict[str, int] = {}  # nonce -> expiry
        self._lock = threading.Lock()

    def take(self, text: str) -> str:
        """The player whose session ``text`` hands to this server; :class:`AuthError` if
        it is forged, for another server, expired or taken already."""
        parts = text.rsplit(".", 3)  # (a player id may hold dots)
        if len(parts) != 4 or not self.here or not parts[1].isdigit():
            raise AuthError("not a session hand-off")
        player, expires_text, nonce, tag = parts
        expires, now = int(expires_text), self.clock()
        good = self.tokens.handoff_tag(player, expires, nonce, self.here)
        if not hmac.compare_digest(tag.encode(), good.encode()):
            raise AuthError("the session hand-off is not valid here")
        if not now <= expires <= now + HANDOFF_SECONDS + 5:
            raise AuthError("the session hand-off has expired: start a session at this kiosk")
        with self._lock:
            self._taken = {n: e for n, e in self._taken.items() if e >= now}
            if nonce in self._taken:
                raise AuthError("the session hand-off was used already")
            self._taken[nonce] = expires
        return player
