"""Group commit for the work the event loop does itself.

A table whose outcomes come from the RNG never waits on hardware, so its requests
run on the event loop with no thread hand-off (:meth:`LoopCommitter.run`). Each
request's unit of work runs in its own savepoint inside the store's open group
transaction and leaves it open (``Table.act_many(defer=True)``). Once the loop has
run every request that was ready, one worker thread commits the whole group (one
fsync) while the loop goes on reading and parsing the next requests; their units
wait for that commit to finish, then run together and form the next group. Nobody
answers before the group holding their work is durable. If a commit fails, every
unit of that group is gone: the chain head is re-read from disk, each table
involved is rebuilt from the log, and each request answers with the store's error
(nothing was settled). An I/O error (a full disk, a failed fsync) answers
:class:`~kiosk_ui.errors.StoreUnavailable` (HTTP 503) and has suspended every table of
the store (:mod:`kiosk_ui.store.faults`); if even the rebuild cannot read the store,
the requests are still answered, and the operator's resume rebuilds every table.

On a store whose group may have to wait for another process (``Store.begin_waits``:
the workers of ``serve --workers`` on one SQLite file, one write lock between them),
the commit thread also opens each group (:meth:`Store.begin_group`) before its units
run, so the loop never blocks in that wait: it goes on reading requests, answering
views and feeds, while the other worker's group runs and commits.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TypeVar

from kiosk_ui.errors import StoreError

if TYPE_CHECKING:
    from kiosk_ui.table.runtime import Runtime
    from kiosk_ui.table.table import Table

T = TypeVar("T")

log = logging.getLogger("kiosk_ui.commit")


class LoopCommitter:
    """Runs the event loop's units of work and makes them durable a group at a time."""

    def __init__(self, runtime: Runtime) -> None:
        self.rt = runtime
        self._waiters: dict[int, list[asyncio.Future[None]]] = {}
        self._tables: dict[int, set[Table]] = {}
        self._scheduled = False
        self._committing = False
        self._opening = False  # a group being opened off the loop (Store.begin_waits)
        self._gate: list[asyncio.Future[None]] = []  # units waiting for the commit to end
        self._admitting = 0  # units let in after a commit that have not run yet
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="croupier-commit")
        self.groups = 0  # commits made by this committer (one fsync each under FULL)

    async def run(self, table: Table, work: Callable[[], T]) -> T:
        """Run ``work`` (a deferred unit at ``table``) on the loop; return its result
        once it is durable. Raises what ``work`` raised, or :class:`StoreError` if the
        commit holding it failed."""
        loop = asyncio.get_running_loop()
        if not (self._committing or self._opening) and self._must_open():
            self._open()
        if self._committing or self._opening:
            admit: asyncio.Future[None] = loop.create_future()
            self._gate.append(admit)
            try:
                await admit
            finally:
                if admit.done() and not admit.cancelled():
                    self._admitting -= 1
        done = False
        try:
            result = work()
            done = True
        finally:  # a refused unit left nothing to wait for, but may close a batch
            group = self.rt.db.open_group()
            fut: asyncio.Future[None] | None = None
            if done and group is not None:
                fut = loop.create_future()
                self._waiters.setdefault(group, []).append(fut)
                self._tables.setdefault(group, set()).add(table)
            if self._admitting == 0:  # the last of a batch let in: commit them all
                self._schedule()
        if fut is not None:
            await fut
        return result

    @property
    def waiting(self) -> int:
        """Units waiting at the gate: for their group to open, or the last one to commit."""
        return sum(1 for f in self._gate if not f.done())

    def close(self) -> None:
        self._executor.shutdown(wait=True)

    def _must_open(self) -> bool:
        """Whether the next units need their group opened off the loop first."""
        return self.rt.db.begin_waits and self.rt.db.open_group() is None

    def _open(self) -> None:
        """Open the next group in the commit thread (it may wait for another process's
        write lock), the loop reading requests meanwhile; the units waiting at the gate
        run once it is open."""
        self._opening = True
        self._in_thread(self.rt.db.begin_group, self._opened)

    def _in_thread(
        self, step: Callable[[], None], then: Callable[[asyncio.Future[None]], None]
    ) -> None:
        """Run ``step`` in the commit thread, then ``then`` on the loop."""
        done = asyncio.get_running_loop().run_in_executor(self._executor, step)
        done.add_done_callback(then)

    def _opened(self, done: asyncio.Future[None]) -> None:
        self._opening = False
        self._admit(opened=True)  # not opened after all: the units meet why themselves

    def _admit(self, *, opened: bool = False) -> None:
        """Let the units at the gate run (together: they form the next group)."""
        if self._gate and not opened and self._must_open():
            self._open()
            return
        admitted = [f for f in self._gate if not f.done()]
        self._gate.clear()
        self._admitting += len(admitted)
        for f in admitted:
            f.set_result(None)
        if self._admitting == 0:
            self._schedule()

    def _schedule(self) -> None:
        if self._scheduled or self._committing or self._opening:
            return
        if self._waiters or (self.rt.db.begin_waits and self.rt.db.open_group() is not None):
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if self._committing or self._opening:
            return
        if not self._waiters and self.rt.db.open_group() is None:
            return
        self._committing = True
        self._in_thread(self.rt.db.commit_open, self._committed)

    def _committed(self, done: asyncio.Future[None]) -> None:
        self._committing = False
        self.groups += 1
        error = done.exception()
        for group in sorted(self._waiters):
            try:
                failure = self.rt.db.group_outcome(group)
            except StoreError:
                continue  # still open (joined by a worker thread's unit): next commit
            if failure is None and error is not None:
                failure = self.rt.db.health.report(error, "commit") or StoreError(
                    f"commit failed: {error}"
                )
            waiters = self._waiters.pop(group)
            tables = self._tables.pop(group, set())
            if failure is not None:
                self._rebuild(tables)
            for fut in waiters:
                if fut.done():
                    continue
                if failure is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(type(failure)(str(failure)))
        self._admit()

    def _rebuild(self, tables: set[Table]) -> None:
        """Forget the failed group's work: chain head from disk, tables from the log.
        Never raises, so every waiter is answered; a store that cannot even be read
        now is a store fault, and the operator's resume rebuilds every table."""
        try:
            self.rt.log.resync()
            for table in tables:
                table.rebuild()
        except Exception as exc:
            if self.rt.db.health.report(exc, "rebuild") is None:
                log.exception("rebuilding after a failed commit")
                for table in tables:  # in memory only: what they hold is not known good
                    table.suspended = f"not rebuilt after a failed commit: {exc}"
