"""Suspending and resuming a table (the operator, a device fault, an RNG halt, an integrity
alarm), split from :mod:`kiosk_ui.table.table` to keep one job a module.

A suspended table takes no action; its open game stays for the operator to resume or void.
A per-player table stops and restarts with every player's game (they share the source).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk_ui.store.protocol import Tx
from kiosk_ui.table.faults import resume_store
from kiosk_ui.table.seating import Seating

if TYPE_CHECKING:
    from kiosk_ui.table.runtime import Runtime


class Suspension(Seating):
    """The suspend and resume half of :class:`~kiosk_ui.table.table.Table`."""

    rt: Runtime

    def suspend(self, reason: str, *, alarm: str | None = None) -> None:
        """Stop the table (its game, if any, stays open for the operator to resume or
        void). ``alarm`` names an integrity alarm (e.g. ``shoe-commitment``): it is
        logged as an ``operator-alarm`` record (with the game it is about) before the
        suspension.

        A per-player table stops with every player's game (a fault in one player's game
        stops them all: they share the source). Seats with nothing on the open game's
        layout are freed (nobody can play there now); seats with stakes are kept for the
        resume or the void."""
        if self.parent is not None:
            if alarm is not None:
                with self.lock, self.rt.log.transaction() as conn:
                    self._log_alarm(conn, alarm, reason)
            self.parent.suspend(reason)
            return
        with self.lock:
            self.suspended = reason
            games = list(self.games_of.values())
        self._suspend_own(reason, log=True, alarm=alarm)
        for mine in games:
            mine._suspend_own(reason, log=mine.game is not None)

    def _log_alarm(self, conn: Tx, alarm: str, reason: str) -> None:
        self.rt.log.append(
            conn,
            "runtime",
            "operator-alarm",
            {"table": self.id, "alarm": alarm, "message": reason},
            self.game or "",
        )

    def _suspend_own(self, reason: str, *, log: bool, alarm: str | None = None) -> None:
        with self.lock:
            self.suspended = reason
            if log:
                with self.rt.log.transaction() as conn:
                    if alarm is not None:
                        self._log_alarm(conn, alarm, reason)
                    self.rt.log.append(
                        conn,
                        "runtime",
                        "table-suspended",
                        {"table": self.id, "reason": reason},
                        self.game or "",
                    )
                    if self.game:
                        conn.games.set_status(self.game, "suspended")
            self._free_unstaked()
            self._clock.clear()

    def resume(self, operator: str) -> None:
        """Restart the table (every player's game of a per-player table); the seats kept
        through the suspension stay, and their action clocks start afresh. After a store
        fault, resume the store first (every table of it reopens, see
        :func:`kiosk_ui.table.faults.resume_store`)."""
        if self.parent is not None:
            self.parent.resume(operator)
            return
        if self.rt.db.health.fault is not None:
            resume_store(self.rt, operator)  # outside the table lock: it rebuilds every table
            if self._suspended is None:
                return
        with self.lock:
            games = list(self.games_of.values())
        self._resume_own(operator, log=True)
        for mine in games:
            mine._resume_own(operator, log=mine.game is not None)

    def _resume_own(self, operator: str, *, log: bool) -> None:
        with self.lock:
            if log:
                with self.rt.log.transaction() as conn:
                    self.rt.log.append(
                        conn,
                        f"operator:{operator}",
                        "table-resumed",
                        {"table": self.id},
                        self.game or "",
                    )
                    if self.game:
                        conn.games.set_status(self.game, "open")
            self.suspended = None
            self._clock.clear()
