"""Operator accounts as stored: the ``operators`` table (user name, password hash, role,
disabled), read and written by :mod:`kiosk_ui.auth`.

A write runs inside the log transaction that also records it, so the row and its log
record commit together.
"""

from __future__ import annotations

from kiosk_ui.errors import AlreadyExists
from kiosk_ui.store.sql import Conn


class SqliteOperators:
    """The operator-accounts repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def ensure_disabled_column(self) -> None:
        """Stores made before operators could be disabled get the column (default: no)."""
        cols = {d[0] for d in self._conn.execute("SELECT * FROM operators LIMIT 0").description}
        if "disabled" not in cols:
            self._conn.execute(
                "ALTER TABLE operators ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0"
            )

    def count(self) -> int:
        """How many operator accounts exist (enabled or not)."""
        return int(self._conn.execute("SELECT COUNT(*) FROM operators").fetchone()[0])

    def exists(self, user: str) -> bool:
        return (
            self._conn.execute("SELECT 1 FROM operators WHERE username = ?", (user,)).fetchone()
            is not None
        )

    def insert(self, user: str, pw_hash: str, role: str) -> None:
        """Add ``user``; :class:`AlreadyExists` if the name is taken (also when another
        writer of a shared store adds it at the same moment)."""
        row = self._conn.execute(
            "INSERT INTO operators (username, pw_hash, role) VALUES (?, ?, ?) "
            "ON CONFLICT (username) DO NOTHING RETURNING 1",
            (user, pw_hash, role),
        ).fetchone()
        if row is None:
            raise AlreadyExists(f"operator {user!r} already exists")

    def credentials(self, user: str) -> tuple[str, str, bool] | None:
        """``(pw_hash, role, disabled)`` of ``user``, or None for an unknown name."""
        row = self._conn.execute(
            "SELECT pw_hash, role, disabled FROM operators WHERE username = ?", (user,)
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), bool(row[2]))

    def accounts(self) -> list[tuple[str, str, bool]]:
        """Every account as ``(user, role, disabled)``, by user name."""
        rows = self._conn.execute(
            "SELECT username, role, disabled FROM operators ORDER BY username"
        ).fetchall()
        return [(r[0], r[1], bool(r[2])) for r in rows]

    def set_hash(self, user: str, pw_hash: str) -> bool:
        """Store ``user``'s new password hash; False when there is no such operator."""
        done = self._conn.execute(
            "UPDATE operators SET pw_hash = ? WHERE username = ?", (pw_hash, user)
        )
        return bool(done.rowcount)

    def set_disabled(self, user: str, disabled: bool) -> bool:
        """Disable or enable ``user``; False when there is no such operator."""
        done = self._conn.execute(
            "UPDATE operators SET disabled = ? WHERE username = ?", (int(disabled), user)
        )
        return bool(done.rowcount)

    def set_role(self, user: str, role: str) -> bool:
        """Give ``user`` the role ``role``; False when there is no such operator."""
        done = self._conn.execute("UPDATE operators SET role = ? WHERE username = ?", (role, user))
        return bool(done.rowcount)
