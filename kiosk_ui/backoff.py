"""Failed sign-in counting with exponential lockout, per user name and per client address.

After ``limit`` failures a key (a user name, known or not, a client address, a
kiosk's address at the voucher slot) is locked for ``base_seconds``; every further
failure before a success locks it again for twice as long as the last lock, up to
``cap_seconds``. A locked key is refused without any password work, so guessing costs
the server nothing but the refusal and the guesser gets at most ``limit`` tries per
growing window. A success clears the key.

The counts are the store's (:mod:`kiosk_ui.store.lockouts`): every process of a
shared store (the workers of ``serve --workers``, a floor's appliances) sees them, so
a guesser who spreads tries over the floor's servers is locked after ``limit``
failures in all, not ``limit`` at each, and a restart forgets no lock. Each attempt is
charged in the store before its password work (:meth:`StoreBackoff.admit`), so a burst
of parallel guesses, sent to one server or to all of them at once, gets no more tries
than a sequence would: at most ``limit`` in flight on the whole floor before the first
lock, and one at a time after a lock has run out.

The window is computed when it is checked (``locked_at`` + the window for the lock
count), so changing ``base_seconds`` applies to locks already in place. A row idle for
``forget_seconds`` starts again from zero and is dropped. The refused attempts each
process counts for the next lock's log record are kept in memory for at most
``max_keys`` keys; when full, the oldest go first, so spraying names cannot grow
memory without bound.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiosk_ui.errors import StoreConflict, StoreError
from kiosk_ui.store.lockouts import LockoutRow

if TYPE_CHECKING:
    from kiosk_ui.store.protocol import Store


@dataclass(frozen=True, slots=True)
class Lock:
    """A lock just imposed on a key: for the log record that says so."""

    key: str
    seconds: float
    failures: int
    refused_before: int  # attempts refused during the previous lock


class StoreBackoff:
    """Failed-attempt counts and locks for one ``scope``, kept in the store.

    Each key's counts are its ``lockouts`` row in the store, and every decision on
    them is taken there, under the store's writer lock (a row read and written in one
    unit of work), so attempts at two processes at once are both counted. An attempt is
    refused while the row's lock lasts, before any password (or voucher number) work
    and without a write, whichever process imposed it.

    An admitted attempt is **charged first**: counted as a failure in the store the
    moment it is let in, before its password work, and refunded if it ends without a
    verdict (:meth:`release`); a success clears the row. So the tries *in flight* are
    bounded by the floor, not by each process: the attempt whose charge reaches
    ``limit`` imposes the lock as it is let in, every other try at any server is then
    refused while it is under way, and its success lifts the lock again (its failure
    keeps it, and is the one logged). A process killed mid-check leaves its charge
    counted, which errs against the guesser. Times in the store are wall-clock
    microseconds (``wall``): the processes share no monotonic clock.
    """

    def __init__(
        self,
        store: Store,
        scope: str,
        *,
        limit: int,
        base_seconds: float,
        wall: Callable[[], float] = time.time,
        cap_seconds: float = 3600.0,
        forget_seconds: float = 86_400.0,
        max_keys: int = 10_000,
    ) -> None:
        self.limit = limit
        self.base_seconds = base_seconds
        self.cap_seconds = cap_seconds
        self.forget_seconds = forget_seconds
        self.max_keys = max_keys
        self._lock = threading.Lock()
        self._refused: dict[str, int] = {}  # key -> tries refused here during its lock
        self.store = store
        self.scope = scope
        self.wall = wall
        self._imposed: dict[str, Lock] = {}  # key -> the lock an attempt here let in imposed
        with store.read() as tx:  # stores made before the counts were shared get the table
            tx.lockouts.ensure_table()

    def _window(self, locks: int) -> float:
        return float(min(self.cap_seconds, self.base_seconds * 2 ** max(locks - 1, 0)))

    def _now_us(self) -> int:
        return int(self.wall() * 1e6)

    def _live(self, row: LockoutRow | None, now: int) -> LockoutRow:
        """The row as it counts now: a missing or forgotten one starts from zero."""
        if row is None or now - row.last > self.forget_seconds * 1e6:
            return LockoutRow(0, 0, 0, now)
        return row

    def _shared_wait(self, row: LockoutRow, now: int) -> float:
        """Seconds the live row ``row`` (:meth:`_live`) still locks its key."""
        if not row.locks:
            return 0.0
        return max(0.0, row.locked_at / 1e6 + self._window(row.locks) - now / 1e6)

    def _row(self, key: str) -> LockoutRow | None:
        with self.store.read() as tx:
            return tx.lockouts.get(self.scope, key)

    def wait(self, key: str) -> float:
        now = self._now_us()
        return self._shared_wait(self._live(self._row(key), now), now)

    def admit(self, key: str) -> float:
        """Let one attempt in, charged in the store (0.0), or say how many seconds to
        wait. A locked key is refused from a plain read: the guesser's refused tries
        cost one read and write nothing. Two writers of the same row at once on
        PostgreSQL: the one the database ends is refused for a second."""
        wait = self.wait(key)
        if wait > 0:
            return wait
        try:
            with self.store.writable(), self.store.transaction() as tx:
                now = self._now_us()
                row = self._live(tx.lockouts.hold(self.scope, key, now), now)
                wait = self._shared_wait(row, now)
                if wait > 0:  # locked by an attempt let in since the read above
                    return wait
                failures, locks, locked_at = row.failures + 1, row.locks, row.locked_at
                lock = None
                if failures >= self.limit:  # the last try before a lock: it holds the key
                    locks, locked_at = locks + 1, now
                    lock = Lock(key, self._window(locks), failures, self._take_refused(key))
                tx.lockouts.put(self.scope, key, LockoutRow(failures, locks, locked_at, now))
                tx.lockouts.forget(self.scope, now - int(self.forget_seconds * 1e6))
        except StoreConflict:
            return 1.0
        if lock is not None:
            with self._lock:
                self._imposed[key] = lock
        return 0.0

    def _take_refused(self, key: str) -> int:
        """Attempts refused here during the lock now ending (logged with the next one)."""
        with self._lock:
            return self._refused.pop(key, 0)

    def refused(self, key: str) -> None:
        """Count an attempt refused while locked (no password work was done for it)."""
        with self._lock:
            if key not in self._refused and len(self._refused) >= self.max_keys:
                for old in list(self._refused)[: max(1, self.max_keys // 10)]:
                    del self._refused[old]  # the oldest first (dicts keep insertion order)
            self._refused[key] = self._refused.get(key, 0) + 1

    def failed(self, key: str) -> Lock | None:
        """An admitted attempt failed: it was counted when it was let in, so nothing is
        written; the lock it imposed then, if it did (to be logged, once)."""
        with self._lock:
            return self._imposed.pop(key, None)

    def release(self, key: str) -> None:
        """An admitted attempt ended without a verdict (a right password of a disabled
        account, a good voucher number, an error): its charge is refunded, and a lock it
        imposed is lifted (the last lock's window stays: ``locked_at`` is not restored)."""
        with self._lock:
            lock = self._imposed.pop(key, None)
        with suppress(StoreError), self.store.writable(), self.store.transaction() as tx:
            now = self._now_us()
            if tx.lockouts.get(self.scope, key) is None:
                return  # cleared since (a success): nothing to refund, nothing to write
            row = self._live(tx.lockouts.hold(self.scope, key, now), now)
            if row.failures == 0:
                return  # forgotten since: nothing to refund
            locks = row.locks - 1 if lock is not None and row.locks else row.locks
            tx.lockouts.put(
                self.scope,
                key,
                LockoutRow(row.failures - 1, locks, row.locked_at if locks else 0, now),
            )

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._imposed.pop(key, None)
            self._refused.pop(key, None)
        if self._row(key) is None:
            return  # nothing counted anywhere: no write
        with self.store.writable(), self.store.transaction() as tx:
            tx.lockouts.clear(self.scope, key)
