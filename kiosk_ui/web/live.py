"""Live updates: WebSocket fan-out of table changes, and the loops that read live devices.

A message only says *that* a table changed, with the public events (those every
seat may see); each page then fetches its own seat's view. Hidden cards never
travel in a broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import TYPE_CHECKING, Any

from kiosk_ui.errors import KioskError
from kiosk_ui.table.answers import public

if TYPE_CHECKING:
    from kiosk_ui.appliance import Appliance
    from kiosk_ui.table.table import Table

log = logging.getLogger("kiosk_ui.web.live")


class Broadcaster:
    def __init__(self) -> None:
        self._subs: dict[str, set[asyncio.Queue[dict[str, Any]]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def subscribe(self, table: str) -> asyncio.Queue[dict[str, Any]]:
        self._loop = asyncio.get_running_loop()
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=100)
        self._subs.setdefault(table, set()).add(q)
        return q

    def unsubscribe(self, table: str, q: asyncio.Queue[dict[str, Any]]) -> None:
        self._subs.get(table, set()).discard(q)

    def publish(self, table: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for every subscriber of ``table`` (callable from any thread)."""
        loop = self._loop
        if loop is None or not self._subs.get(table):
            return

        def put() -> None:
            for q in list(self._subs.get(table, ())):
                with contextlib.suppress(asyncio.QueueFull):
                    q.put_nowait(message)

        with contextlib.suppress(RuntimeError):  # loop closed at shutdown
            loop.call_soon_threadsafe(put)

    # --- live device tables --------------------------------------------------

    def start_device_tables(self, appliance: Appliance) -> None:
        for table in appliance.tables():
            if table.source.blocking:
                t = threading.Thread(
                    target=self._device_loop, args=(table,), name=f"live-{table.id}", daemon=True
                )
                t.start()
                self._threads.append(t)

    def _device_loop(self, table: Table) -> None:
        while not self._stop.is_set():
            engine = table.engine
            need = engine.needs() if engine is not None else None
            if table.suspended or need is None:
                self._stop.wait(0.05)
                continue
            self.publish(table.id, {"type": "waiting", "need": str(need.kind)})
            try:
                events = table.advance()
            except KioskError as exc:
                self.publish(table.id, {"type": "suspended", "reason": str(exc)})
                continue
            self.publish(table.id, {"type": "update", "events": public(events)})

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=2)
