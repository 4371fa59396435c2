"""Operator accounts and sessions: scrypt-hashed passwords, roles, expiring sessions.

Roles: ``operator`` (tables, wallets), ``technician`` (devices, RNG, certification
runs), ``auditor`` (read-only: logs, audits). ``admin`` may do everything, and only an
admin manages operators (add, list, disable, enable, reset a password, change a
role). Every sign-in
and every operator action is written to the game log.

Sign-in resists guessing (:mod:`kiosk_ui.backoff`): after ``USER_LIMIT`` failures a user
name is locked, after ``ADDRESS_LIMIT`` failures a client address is throttled, each
for an exponentially growing window; a locked attempt is refused (429 with
Retry-After) before any password work and without a log record of its own (the lock
is logged once, with the count refused during the previous one). An unknown user name
costs the same scrypt as a known one (against a dummy hash made at start), is logged
the same way and locks the same way, so neither timing nor lockout tells whether a
name exists. A disabled operator cannot sign in and their sessions end at once; a
password change or reset ends the user's other sessions.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kiosk_ui.backoff import Lock, StoreBackoff
from kiosk_ui.errors import (
    AlreadyExists,
    AuthError,
    Forbidden,
    PasswordRejected,
    SignInThrottled,
    UnknownOperator,
)

if TYPE_CHECKING:
    from kiosk_ui.table.runtime import Runtime

ROLES = ("admin", "operator", "technician", "auditor")
_N, _R, _P = 2**14, 8, 1
MIN_PASSWORD = 8  # NIST SP 800-63B's minimum for a chosen password
USER_LIMIT = 5  # failures before a user name is locked
ADDRESS_LIMIT = 20  # failures before a client address is throttled (spraying names)
LOCK_SECONDS = 30.0  # the first lock; each further failure doubles it, up to an hour


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
        # each session's account password hash at sign-in (never in the Session: no
        # answer carries it); another process changing the password changes the row
        self._stamps: dict[str, str] = {}
        self._lock = threading.Lock()
        # counted in the store: every worker and appliance of a floor shares the counts
        db = runtime.db
        self.users = StoreBackoff(db, "sign-in-user", limit=USER_LIMIT, base_seconds=LOCK_SECONDS)
        self.addresses = StoreBackoff(
            db, "sign-in-address", limit=ADDRESS_LIMIT, base_seconds=LOCK_SECONDS
        )
        # Checked when the user name is unknown: the same scrypt as a real account.
        self._dummy_hash = hash_password(secrets.token_urlsafe(16))
        self.kdf_runs = 0  # password hashes computed by sign-ins and checks (monitoring)
        self._ensure_disabled_column()

    def _ensure_disabled_column(self) -> None:
        """Stores made before operators could be disabled get the column (default: no).
        In a unit of work: the workers or appliances of a shared store check and add it
        one at a time (under the store's writer lock)."""
        with self.rt.db.transaction() as tx:
            tx.operators.ensure_disabled_column()

    def bootstrap(self, user: str, password: str) -> str | None:
        """Create the first admin if there is none; return a generated password to print."""
        with self.rt.db.read() as tx:
            existing = tx.operators.count()
        if existing:
            return None
        generated = None
        if not password:
            generated = password = secrets.token_urlsafe(12)
        try:
            self.add(user, password, "admin", by="bootstrap")
        except AlreadyExists:  # another worker or appliance of a shared store made it first
            return None
        return generated

    @staticmethod
    def _check_new_password(user: str, password: str) -> None:
        if len(password) < MIN_PASSWORD:
            raise PasswordRejected(f"a password needs at least {MIN_PASSWORD} characters")
        if password.casefold() == user.casefold():
            raise PasswordRejected("a password may not be the user name")

    def add(self, user: str, password: str, role: str, *, by: str) -> None:
        if role not in ROLES:
            raise AuthError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
        self._check_new_password(user, password)
        with self.rt.log.transaction() as conn:
            if conn.operators.exists(user):
                raise AlreadyExists(f"operator {user!r} already exists")
            conn.operators.insert(user, hash_password(password), role)
            self.rt.log.append(
                conn, f"operator:{by}", "operator-added", {"user": user, "role": role}
            )

    def _row(self, user: str) -> tuple[str, str, bool] | None:
        with self.rt.db.read() as tx:
            return tx.operators.credentials(user)

    def _kdf(self, password: str, stored: str) -> bool:
        with self._lock:
            self.kdf_runs += 1
        return check_password(password, stored)

    def _throttle(self, user: str, address: str) -> None:
        """Admit one password check for the user and the address, or refuse it (429)
        before any password work: either is locked, or its last try before a lock is
        under way (each admitted check is charged in the store first, on every server of
        the floor). An admitted check ends in ``_failed`` or ``_passed``."""
        wait = self.users.admit(user)
        if wait == 0:
            wait = self.addresses.admit(address)
            if wait > 0:
                self.users.release(user)
        if wait > 0:
            self.users.refused(user)
            self.addresses.refused(address)
            raise SignInThrottled(
                f"too many failed sign-ins: try again in {math.ceil(wait)} seconds", wait
            )

    def _passed(self, user: str, address: str, *, ok: bool) -> None:
        """An admitted check ended with the right password: a sign-in clears the counts."""
        if ok:
            self.users.succeeded(user)
            self.addresses.succeeded(address)
        else:  # right password of a disabled account: no verdict on guessing
            self.users.release(user)
            self.addresses.release(address)

    def _failed(self, conn: Any, user: str, address: str) -> None:
        """Count one failure for the user and the address; log each lock it imposes."""
        locks: list[tuple[str, Lock]] = []
        if (lk := self.users.failed(user)) is not None:
            locks.append(("user", lk))
        if (lk := self.addresses.failed(address)) is not None:
            locks.append(("address", lk))
        for kind, lk in locks:
            self.rt.log.append(
                conn,
                f"operator:{user}",
                "sign-in-locked",
                {
                    kind: lk.key,
                    "seconds": math.ceil(lk.seconds),
                    "failures": lk.failures,
                    "refused_before": lk.refused_before,
                },
            )

    def login(self, user: str, password: str, minutes: int, address: str = "") -> Session:
        self._throttle(user, address)
        try:
            row = self._row(user)
            # The same scrypt for an unknown name as for a real one: timing tells nothing.
            good = self._kdf(password, row[0] if row else self._dummy_hash) and row is not None
            ok = good and row is not None and not row[2]
            # During a store fault: only once the store is proven writable (the way to
            # the resume must stay open); 503 while it is not.
            with self.rt.db.writable(), self.rt.log.transaction() as conn:
                body: dict[str, Any] = {"user": user, "ok": ok, "address": address}
                if good and not ok:
                    body["disabled"] = True
                self.rt.log.append(conn, f"operator:{user}", "sign-in", body)
                if not good:
                    self._failed(conn, user, address)
        except BaseException:
            self.users.release(user)
            self.addresses.release(address)
            raise
        if good:
            self._passed(user, address, ok=ok)
        if not ok or row is None:
            if good:
                raise AuthError(f"operator {user!r} is disabled: an admin can enable it")
            raise AuthError("wrong user name or password")
        sess = Session(secrets.token_urlsafe(24), user, row[1], time.time() + 60 * minutes)
        with self._lock:
            self._sessions[sess.token] = sess
            self._stamps[sess.token] = row[0]
        return sess

    def session(self, token: str | None, *roles: str) -> Session:
        """The live session for ``token`` with one of ``roles`` (admin always passes)."""
        with self._lock:
            sess = self._sessions.get(token or "")
            if sess is None:
                raise AuthError("sign in first")
            if sess.expires < time.time():
                del self._sessions[sess.token]
                self._stamps.pop(sess.token, None)
                raise AuthError("session expired: sign in again")
        if self.rt.leasing is not None:
            self._still_signed_in(sess)
        if roles and sess.role != "admin" and sess.role not in roles:
            raise Forbidden(f"role {sess.role} may not do this (needs {' or '.join(roles)})")
        return sess

    def _still_signed_in(self, sess: Session) -> None:
        """On a shared store, another worker or appliance may have disabled, deleted,
        re-roled or re-passworded the account (its own sessions end there, not this
        process's): the account's row as it is now must still be the one signed in."""
        row = self._row(sess.user)
        with self._lock:
            stamp = self._stamps.get(sess.token)
        if row is not None and not row[2] and row[1] == sess.role and row[0] == stamp:
            return
        self.logout(sess.token)  # the user's other sessions here: each at its next use
        raise AuthError("the account changed since this session began: sign in again")

    def logout(self, token: str | None) -> None:
        with self._lock:
            self._sessions.pop(token or "", None)
            self._stamps.pop(token or "", None)

    def _end_sessions(self, user: str, keep: str | None = None) -> int:
        with self._lock:
            ended = [t for t, s in self._sessions.items() if s.user == user and t != keep]
            for t in ended:
                del self._sessions[t]
                self._stamps.pop(t, None)
        return len(ended)

    # --- the operator's own password ---------------------------------------------------

    def change_password(self, sess: Session, old: str, new: str, address: str = "") -> None:
        """The signed-in operator changes their password, proving the old one.

        A wrong old password counts as a failed sign-in (a stolen session cannot be
        used to guess the password), and the user's other sessions end.
        """
        self._throttle(sess.user, address)
        try:
            row = self._row(sess.user)
            right = row is not None and not row[2] and self._kdf(old, row[0])
            if not right:
                with self.rt.log.transaction() as conn:
                    self.rt.log.append(
                        conn,
                        f"operator:{sess.user}",
                        "password-change-refused",
                        {"user": sess.user, "address": address},
                    )
                    self._failed(conn, sess.user, address)
        except BaseException:
            self.users.release(sess.user)
            self.addresses.release(address)
            raise
        if not right:
            raise Forbidden("the old password is wrong: the password may not be changed")
        # Proving the old password is not a sign-in: it ends the check, clears nothing.
        self._passed(sess.user, address, ok=False)
        self._check_new_password(sess.user, new)
        if new == old:
            raise PasswordRejected("the new password is the old one: choose another")
        self._set_hash(sess.user, new, by=sess.user, kind="password-changed")
        self._end_sessions(sess.user, keep=sess.token)
        row = self._row(sess.user)  # the session that changed it goes on, with its stamp
        with self._lock:
            if row is not None and sess.token in self._sessions:
                self._stamps[sess.token] = row[0]

    # --- admin: operator management --------------------------------------------------

    def accounts(self) -> list[dict[str, Any]]:
        with self.rt.db.read() as tx:
            rows = tx.operators.accounts()
        return [{"user": u, "role": r, "disabled": d} for u, r, d in rows]

    def _set_hash(self, user: str, password: str, *, by: str, kind: str) -> None:
        with self.rt.log.transaction() as conn:
            if not conn.operators.set_hash(user, hash_password(password)):
                raise UnknownOperator(f"no operator {user!r}")
            self.rt.log.append(conn, f"operator:{by}", kind, {"user": user})

    def reset_password(self, user: str, password: str, *, by: str) -> None:
        """An admin sets another operator's password: their sessions end, locks clear."""
        self._check_new_password(user, password)
        self._set_hash(user, password, by=by, kind="password-reset")
        self._end_sessions(user)
        self.users.succeeded(user)

    def set_role(self, user: str, role: str, *, by: str) -> None:
        """An admin gives another operator a role; their sessions end (they sign in
        again with the new role's rights). No admin changes their own role, so an
        enabled admin always remains."""
        if role not in ROLES:
            raise AuthError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
        if user == by:
            raise PasswordRejected("an admin may not change their own role")
        with self.rt.log.transaction() as conn:
            if not conn.operators.set_role(user, role):
                raise UnknownOperator(f"no operator {user!r}")
            body = {"user": user, "role": role}
            self.rt.log.append(conn, f"operator:{by}", "operator-role", body)
        self._end_sessions(user)

    def set_disabled(self, user: str, disabled: bool, *, by: str) -> None:
        """An admin disables (every session ends at once) or enables another operator."""
        if user == by:
            raise PasswordRejected("an admin may not disable or enable their own account")
        with self.rt.log.transaction() as conn:
            if not conn.operators.set_disabled(user, disabled):
                raise UnknownOperator(f"no operator {user!r}")
            kind = "operator-disabled" if disabled else "operator-enabled"
            self.rt.log.append(conn, f"operator:{by}", kind, {"user": user})
        if disabled:
            self._end_sessions(user)
