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
        self._gate: list[asyncio.Future[None]] = []  # units waiting for the commit to end
        self._admitting = 0  # units let in after a commit that have not run yet
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="croupier-commit")
        self.groups = 0  # commits made by this committer (one fsync each under FULL)

    async def run(self, table: Table, work: Callable[[], T]) -> T:
        """Run ``work`` (a deferred unit at ``table``) on the loop; return its result
        once it is durable. Raises what ``work`` raised, or :class:`StoreError` if the
        commit holding it failed."""
        loop = asyncio.get_running_loop()
        if self._committing:
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

    def close(self) -> None:
        self._executor.shutdown(wait=True)

    def _schedule(self) -> None:
        if not self._scheduled and not self._committing and self._waiters:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if self._committing or not self._waiters:
            return
        self._committing = True
        loop = asyncio.get_running_loop()
        done = loop.run_in_executor(self._executor, self.rt.db.commit_open)
        done.add_done_callback(self._committed)

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
        admitted = [f for f in self._gate if not f.done()]
        self._gate.clear()
        self._admitting += len(admitted)
        for f in admitted:
            f.set_result(None)
        if self._admitting == 0:
            self._schedule()

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
