"""Player identity for kiosks: a signed token (cookie or header), no password.

A kiosk or terminal session is bound to a player id; the token is the id with an
HMAC-SHA-256 tag under a secret kept in the store (mode 0600), so a player cannot
act as another by editing a cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from kiosk_ui.errors import AuthError

VERIFIED_CACHE = 100_000  # tokens remembered as checked (cleared when full)


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
