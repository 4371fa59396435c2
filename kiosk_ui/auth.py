"""Operator accounts and sessions: scrypt-hashed passwords, roles, expiring sessions.

Roles: ``operator`` (tables, wallets), ``technician`` (devices, RNG, certification
runs), ``auditor`` (read-only: logs, audits). ``admin`` may do everything. Every
sign-in and every operator action is written to the game log by the caller.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiosk_ui.errors import AlreadyExists, AuthError

if TYPE_CHECKING:
    from kiosk_ui.runtime.runtime import Runtime

ROLES = ("admin", "operator", "technician", "auditor")
_N, _R, _P = 2**14, 8, 1


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        _, n, r, p, salt, digest = stored.split("$")
        got = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


@dataclass(frozen=True, slots=True)
class Session:
    token: str
    user: str
    role: str
    expires: float


class Operators:
    def __init__(self, runtime: Runtime) -> None:
        self.rt = runtime
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def bootstrap(self, user: str, password: str) -> str | None:
        """Create the first admin if there is none; return a generated password to print."""
        with self.rt.db.lock:
            row = self.rt.db.conn.execute("SELECT COUNT(*) FROM operators").fetchone()
        if row[0]:
            return None
        generated = None
        if not password:
            generated = password = secrets.token_urlsafe(12)
        self.add(user, password, "admin", by="bootstrap")
        return generated

    def add(self, user: str, password: str, role: str, *, by: str) -> None:
        if role not in ROLES:
            raise AuthError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
        if len(password) < 8:
            raise AuthError("a password needs at least 8 characters")
        with self.rt.log.transaction() as conn:
            if conn.execute("SELECT 1 FROM operators WHERE username = ?", (user,)).fetchone():
                raise AlreadyExists(f"operator {user!r} already exists")
            conn.execute(
                "INSERT INTO operators (username, pw_hash, role) VALUES (?, ?, ?)",
                (user, hash_password(password), role),
            )
            self.rt.log.append(
                conn, f"operator:{by}", "operator-added", {"user": user, "role": role}
            )

    def login(self, user: str, password: str, minutes: int) -> Session:
        with self.rt.db.lock:
            row = self.rt.db.conn.execute(
                "SELECT pw_hash, role FROM operators WHERE username = ?", (user,)
            ).fetchone()
        ok = row is not None and check_password(password, row[0])
        with self.rt.log.transaction() as conn:
            self.rt.log.append(conn, f"operator:{user}", "sign-in", {"user": user, "ok": bool(ok)})
        if not ok:
            raise AuthError("wrong user name or password")
        sess = Session(secrets.token_urlsafe(24), user, str(row[1]), time.time() + 60 * minutes)
        with self._lock:
            self._sessions[sess.token] = sess
        return sess

    def session(self, token: str | None, *roles: str) -> Session:
        """The live session for ``token`` with one of ``roles`` (admin always passes)."""
        with self._lock:
            sess = self._sessions.get(token or "")
            if sess is None:
                raise AuthError("sign in first")
            if sess.expires < time.time():
                del self._sessions[sess.token]
                raise AuthError("session expired: sign in again")
        if roles and sess.role != "admin" and sess.role not in roles:
            raise AuthError(f"role {sess.role} may not do this (needs {' or '.join(roles)})")
        return sess

    def logout(self, token: str | None) -> None:
        with self._lock:
            self._sessions.pop(token or "", None)
