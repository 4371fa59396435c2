"""Failed sign-in counting with exponential lockout, per user name and per client address.

After ``limit`` failures a key (a user name, known or not, or a client address) is
locked for ``base_seconds``; every further failure before a success locks it again for
twice as long as the last lock, up to ``cap_seconds``. A locked key is refused without
any password work, so guessing costs the server nothing but the refusal and the
guesser gets at most ``limit`` tries per growing window. A success clears the key.

Attempts are admitted before their password work (:meth:`Backoff.admit`) and counted
as in flight until they fail or succeed, so a burst of parallel guesses gets no more
tries than a sequence would: at most ``limit`` in flight before the first lock, and one
at a time after a lock has run out.

On a store several processes write (the workers of ``serve --workers``, a floor's
appliances), :class:`StoreBackoff` keeps each key's counts in the store as well
(:mod:`kiosk_ui.store.lockouts`), so a guesser who spreads tries over the floor's
servers is locked after ``limit`` failures in all, not ``limit`` at each, and a
restart forgets no lock.

The window is computed when it is checked (``locked_at`` + the window for the lock
count), so changing ``base_seconds`` applies to locks already in place. The table
holds at most ``max_keys`` keys; when full, the entries with the oldest activity go
first (locked or not), so spraying names cannot grow memory without bound, and an
entry idle for ``forget_seconds`` starts again from zero.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiosk_ui.store.lockouts import LockoutRow

if TYPE_CHECKING:
    from kiosk_ui.store.protocol import Store


@dataclass(slots=True)
class _Entry:
    failures: int = 0  # since the last success
    locks: int = 0  # locks imposed since the last success
    locked_at: float = 0.0
    refused: int = 0  # attempts refused during the current lock (reported with the next)
    pending: int = 0  # admitted attempts whose password check has not ended yet
    last: float = 0.0


@dataclass(frozen=True, slots=True)
class Lock:
    """A lock just imposed on a key: for the log record that says so."""

    key: str
    seconds: float
    failures: int
    refused_before: int  # attempts refused during the previous lock


class Backoff:
    def __init__(
        self,
        *,
        limit: int,
        base_seconds: float,
        cap_seconds: float = 3600.0,
        forget_seconds: float = 86_400.0,
        max_keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.base_seconds = base_seconds
        self.cap_seconds = cap_seconds
        self.forget_seconds = forget_seconds
        self.max_keys = max_keys
        self.clock = clock
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def _window(self, locks: int) -> float:
        return float(min(self.cap_seconds, self.base_seconds * 2 ** max(locks - 1, 0)))

    def _follow(self, key: str, failures: int) -> None:
        """Count ``failures`` for ``key`` here, no more, no less, and no lock: what the
        store counts for every process (:class:`StoreBackoff`), which decides the locks.
        Past the limit this process then admits one try at a time too."""
        with self._lock:
            e = self._entry(key, self.clock()) or self._new(key)
            e.failures, e.locks = failures, 0

    def _entry(self, key: str, now: float) -> _Entry | None:
        e = self._entries.get(key)
        if e is not None and now - e.last > self.forget_seconds:
            del self._entries[key]
            return None
        return e

    def _wait(self, e: _Entry | None, now: float) -> float:
        if e is None or not e.locks:
            return 0.0
        return max(0.0, e.locked_at + self._window(e.locks) - now)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: it may try now)."""
        now = self.clock()
        with self._lock:
            return self._wait(self._entry(key, now), now)

    def admit(self, key: str) -> float:
        """Admit one attempt for ``key`` now (0.0, counted in flight) or say how many
        seconds to wait. Every admitted attempt ends in :meth:`failed`,
        :meth:`succeeded` or :meth:`release`."""
        now = self.clock()
        with self._lock:
            e = self._entry(key, now)
            if e is None:
                e = self._new(key)
            wait = self._wait(e, now)
            if wait > 0:
                return wait
            room = self.limit - e.failures if e.failures < self.limit else 1
            if e.pending >= room:  # as many tries in flight as may fail before a lock
                return 1.0
            e.pending += 1
            e.last = now
            return 0.0

    def release(self, key: str) -> None:
        """An admitted attempt ended without a verdict (refused elsewhere, or an error)."""
        with self._lock:
            e = self._entries.get(key)
            if e is not None and e.pending:
                e.pending -= 1

    def _new(self, key: str) -> _Entry:
        if len(self._entries) >= self.max_keys:
            oldest = sorted(self._entries, key=lambda k: self._entries[k].last)
            for k in oldest[: max(1, self.max_keys // 10)]:
                del self._entries[k]
        e = self._entries[key] = _Entry()
        return e

    def refused(self, key: str) -> None:
        """Count an attempt refused while locked (no password work was done for it)."""
        with self._lock:
            e = self._entries.get(key)
            if e is not None:
                e.refused += 1

    def failed(self, key: str) -> Lock | None:
        """Count a failure; return the lock it imposes, if it does."""
        now = self.clock()
        with self._lock:
            e = self._entry(key, now)
            if e is None:
                e = self._new(key)
            if e.pending:
                e.pending -= 1
            e.failures += 1
            e.last = now
            if e.failures < self.limit:
                return None
            e.locks += 1
            e.locked_at = now
            refused, e.refused = e.refused, 0
            return Lock(key, self._window(e.locks), e.failures, refused)

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._entries.pop(key, None)


class StoreBackoff(Backoff):
    """A :class:`Backoff` whose counts every process of a shared store sees.

    Each failure is counted in the store's ``lockouts`` row for the key (in the caller's
    unit of work when there is one: the one that logs the failure), and the lock it
    imposes is decided there, under the store's writer lock, so failures at two
    processes at once are both counted. Before any password (or voucher number) work an
    attempt is refused while the row's lock lasts, whichever process imposed it; a
    success clears the row. This process's own table still bounds the tries in flight
    here (:meth:`Backoff.admit`). Times in the store are wall-clock microseconds
    (``wall``): the processes share no monotonic clock.
    """

    def __init__(
        self,
        store: Store,
        scope: str,
        *,
        limit: int,
        base_seconds: float,
        wall: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(limit=limit, base_seconds=base_seconds)
        self.store = store
        self.scope = scope
        self.wall = wall
        with store.read() as tx:  # stores made before the counts were shared get the table
            tx.lockouts.ensure_table()

    def _now_us(self) -> int:
        return int(self.wall() * 1e6)

    def _shared_wait(self, row: LockoutRow | None, now: int) -> float:
        if row is None or not row.locks or now - row.last > self.forget_seconds * 1e6:
            return 0.0
        return max(0.0, row.locked_at / 1e6 + self._window(row.locks) - now / 1e6)

    def _row(self, key: str) -> LockoutRow | None:
        with self.store.read() as tx:
            return tx.lockouts.get(self.scope, key)

    def wait(self, key: str) -> float:
        return self._shared_wait(self._row(key), self._now_us())

    def admit(self, key: str) -> float:
        row = self._row(key)
        now = self._now_us()
        wait = self._shared_wait(row, now)
        if wait > 0:
            return wait
        live = row is not None and now - row.last <= self.forget_seconds * 1e6
        self._follow(key, row.failures if live and row is not None else 0)
        return super().admit(key)

    def failed(self, key: str) -> Lock | None:
        """Count the failure in the store (and here); the lock it imposes, as the store
        decided it (the failures of every process counted)."""
        self.release(key)  # here only its tries in flight are counted (admit follows the store)
        now = self._now_us()
        with self.store.transaction() as tx:
            row = tx.lockouts.get(self.scope, key)
            if row is None or now - row.last > self.forget_seconds * 1e6:
                row = LockoutRow(0, 0, 0, now)
            failures, locks, locked_at = row.failures + 1, row.locks, row.locked_at
            lock = None
            if failures >= self.limit:
                locks, locked_at = locks + 1, now
                with self._lock:  # refused here during the lock now ending (logged with it)
                    e = self._entries.get(key)
                    refused = e.refused if e is not None else 0
                    if e is not None:
                        e.refused = 0
                lock = Lock(key, self._window(locks), failures, refused)
            tx.lockouts.put(self.scope, key, LockoutRow(failures, locks, locked_at, now))
            tx.lockouts.forget(self.scope, now - int(self.forget_seconds * 1e6))
        return lock

    def succeeded(self, key: str) -> None:
        super().succeeded(key)
        if self._row(key) is None:
            return  # nothing counted anywhere: no write
        with self.store.transaction() as tx:
            tx.lockouts.clear(self.scope, key)
