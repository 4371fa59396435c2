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
