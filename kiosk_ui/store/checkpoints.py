"""The verified checkpoints: the ``log_verified`` rows (one per chain at most).

It names the last checkpoint a start-up check (or a clean stop) vouched for, with the
RFC 6962 tree at it, signed; :mod:`certification.log.integrity` makes and checks the
signature, this module only stores and reads the row.
"""

from __future__ import annotations

from certification.log.reader import VerifiedPosition
from kiosk_ui.store.sql import Conn


def read(conn: Conn, chain: str = "") -> VerifiedPosition | None:
    """The verified position of ``chain`` as stored (unchecked), or None."""
    row = conn.execute(
        "SELECT seq, hash, tree, key_id, signature FROM log_verified WHERE chain = ?", (chain,)
    ).fetchone()
    if row is None:
        return None
    return VerifiedPosition(int(row[0]), str(row[1]), row[2], str(row[3]), str(row[4]))


class SqliteCheckpoints:
    """The verified-checkpoint repository of one connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    def verified(self, chain: str = "") -> VerifiedPosition | None:
        return read(self._conn, chain)

    def verified_seq(self, chain: str = "") -> int | None:
        """The seq of ``chain``'s last verified checkpoint as stored (unchecked), or None."""
        row = self._conn.execute(
            "SELECT seq FROM log_verified WHERE chain = ?", (chain,)
        ).fetchone()
        return None if row is None else int(row[0])

    def save(self, position: VerifiedPosition, chain: str = "") -> None:
        """Keep ``position`` of ``chain`` (signed by
        :func:`certification.log.integrity.signed_position`)."""
        p = position
        self._conn.execute(
            "INSERT INTO log_verified (chain, seq, hash, tree, key_id, signature) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (chain) DO UPDATE SET seq = excluded.seq, "
            "hash = excluded.hash, tree = excluded.tree, key_id = excluded.key_id, "
            "signature = excluded.signature",
            (chain, p.seq, p.hash, p.tree, p.key_id, p.signature),
        )
