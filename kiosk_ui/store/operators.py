"""Operator accounts as stored: the ``operators`` table (user name, password hash, role,
disabled), read and written by :mod:`kiosk_ui.auth`.

Every function takes the connection it runs on and adds no locking or transaction of
its own: the caller holds ``Database.lock`` for a read, or runs a write inside the log
transaction that also records it, so the row and its log record commit together.
"""

from __future__ import annotations

import sqlite3


def ensure_disabled_column(conn: sqlite3.Connection) -> None:
    """Stores made before operators could be disabled get the column (default: no)."""
    cols = {r[1] for r in conn.execute("PRAGMA table_info(operators)")}
    if "disabled" not in cols:
        conn.execute("ALTER TABLE operators ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0")


def count(conn: sqlite3.Connection) -> int:
    """How many operator accounts exist (enabled or not)."""
    return int(conn.execute("SELECT COUNT(*) FROM operators").fetchone()[0])


def exists(conn: sqlite3.Connection, user: str) -> bool:
    return (
        conn.execute("SELECT 1 FROM operators WHERE username = ?", (user,)).fetchone() is not None
    )


def insert(conn: sqlite3.Connection, user: str, pw_hash: str, role: str) -> None:
    conn.execute(
        "INSERT INTO operators (username, pw_hash, role) VALUES (?, ?, ?)",
        (user, pw_hash, role),
    )


def credentials(conn: sqlite3.Connection, user: str) -> tuple[str, str, bool] | None:
    """``(pw_hash, role, disabled)`` of ``user``, or None for an unknown name."""
    row = conn.execute(
        "SELECT pw_hash, role, disabled FROM operators WHERE username = ?", (user,)
    ).fetchone()
    return None if row is None else (str(row[0]), str(row[1]), bool(row[2]))


def accounts(conn: sqlite3.Connection) -> list[tuple[str, str, bool]]:
    """Every account as ``(user, role, disabled)``, by user name."""
    rows = conn.execute(
        "SELECT username, role, disabled FROM operators ORDER BY username"
    ).fetchall()
    return [(r[0], r[1], bool(r[2])) for r in rows]


def set_hash(conn: sqlite3.Connection, user: str, pw_hash: str) -> bool:
    """Store ``user``'s new password hash; False when there is no such operator."""
    done = conn.execute("UPDATE operators SET pw_hash = ? WHERE username = ?", (pw_hash, user))
    return bool(done.rowcount)


def set_disabled(conn: sqlite3.Connection, user: str, disabled: bool) -> bool:
    """Disable or enable ``user``; False when there is no such operator."""
    done = conn.execute(
        "UPDATE operators SET disabled = ? WHERE username = ?", (int(disabled), user)
    )
    return bool(done.rowcount)
