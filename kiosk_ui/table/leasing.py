"""This appliance's table leases on a shared store (several appliances, one database).

The store holds the leases (:mod:`kiosk_ui.store.leases`); this is the runtime's side:
take a table's lease when it opens (refused while another live appliance holds it),
renew every lease this appliance holds every third of the lease's life from a thread
of its own, check the lease inside every unit that plays the table (a table whose
lease was lost, because this appliance was cut off or frozen past its expiry and
another took the table over, is suspended here and writes nothing), and give every
lease up at a clean stop so the tables are free at once. Leases are dated by this
appliance's clock: a floor keeps its appliances' clocks in step (NTP), with the lease
(default 15 s) far longer than any skew.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from kiosk_ui.errors import StoreError, TableError, TableSuspended

if TYPE_CHECKING:
    from kiosk_ui.store.protocol import Store, Tx

log = logging.getLogger("kiosk_ui.table")

LEASE_SECONDS = 15.0


class TableLeased(TableError):
    """Another live appliance holds the table's lease (this one may stand by for it)."""

    def __init__(self, message: str, holder: str = "") -> None:
        super().__init__(message)
        self.holder = holder  # who holds it


class LeaseLost(TableSuspended):
    """The table's lease is another appliance's now: this one writes nothing for it."""


class Leasing:
    """The leases this appliance holds on its shared store (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], int],
        *,
        seconds: float = LEASE_SECONDS,
        lost: Callable[[str, str], None] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock  # microseconds
        self.life = int(seconds * 1_000_000)
        self.name = store.appliance
        self.held: set[str] = set()
        self._lost = lost
        self.stopped = threading.Event()
        self._thread = threading.Thread(
            target=self._renew_loop, name="croupier-leases", daemon=True
        )
        self._thread.start()

    def take(self, tx: Tx, table: str) -> None:
        """Take ``table``'s lease in the unit that opens it (TableError if it is held)."""
        now = self.clock()
        holder = tx.leases.take(table, self.name, now, now + self.life)
        if holder != self.name:
            until = tx.leases.expires(table) or now
            raise TableLeased(
                f"table {table} is served by appliance {holder} (its lease runs "
                f"{max(until - now, 0) / 1e6:.0f} s more unless renewed): one appliance "
                "per table",
                holder,
            )
        self.held.add(table)

    def check(self, tx: Tx, table: str) -> None:
        """Refuse a unit for ``table`` unless this appliance's lease on it is good now
        (and extend it: see :meth:`kiosk_ui.store.leases.SqliteLeases.holds`)."""
        now = self.clock()
        if table not in self.held or not tx.leases.holds(table, self.name, now, now + self.life):
            self.held.discard(table)
            raise LeaseLost(
                f"table {table} is no longer served here: its lease expired and another "
                "appliance may have taken it over"
            )

    def renew(self) -> set[str]:
        """Extend every lease held; return the tables whose lease was lost."""
        tables = sorted(self.held)
        if not tables:
            return set()
        now = self.clock()
        with self.store.transaction() as tx:
            kept = tx.leases.renew(self.name, tables, now, now + self.life)
        lost = set(tables) - kept
        self.held -= lost
        return lost

    def _renew_loop(self) -> None:
        failures: tuple[type[Exception], ...] = (StoreError, *self.store.errors)
        while not self.stopped.wait(self.life / 3e6):
            try:
                lost = self.renew()
            except failures as exc:
                log.warning("lease renewal failed (tried again): %s", exc)
                continue
            for table in sorted(lost):
                log.error("lease of table %s lost: the table is suspended here", table)
                if self._lost is not None:
                    self._lost(table, "its lease was lost: another appliance may serve it")

    def close(self) -> None:
        """Stop renewing and give every lease up (a clean stop frees the tables at once).

        Every row still in this appliance's name goes, not only those :attr:`held` lists:
        a lease that lapsed here (renewed late on a loaded machine) but that nobody took
        over yet is this appliance's row still, and left behind it would keep its table
        from a running appliance until it expires. Another holder's rows are untouched."""
        self.stopped.set()
        self._thread.join(timeout=5)
        failures: tuple[type[Exception], ...] = (StoreError, *self.store.errors)
        try:
            with self.store.transaction() as tx:
                tx.leases.release(self.name)
        except failures as exc:
            log.warning("leases not released (they expire): %s", exc)
        self.held.clear()
