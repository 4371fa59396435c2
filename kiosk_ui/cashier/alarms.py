"""The floor's live alarms: what the operator console shows and pushes without a reload.

An :class:`Alarms` hub holds the open alarms and the recent closed ones, in memory
(the game log keeps the record: device faults, RNG alarms, suspensions, attendant calls
and their acknowledgements are logged where they happen). Each alarm has a ``key``
naming its condition (``device:shoe``, ``rng-halt``, ``table:<id>``,
``attendant:<player>``): raising a key already open with the same message changes
nothing, so a watcher can raise on every scan; clearing a key closes its alarm when
the condition ends (the device is back, the table resumed, the call cancelled).

Subscribers are asyncio queues (the console's Server-Sent Events stream); a change is
handed to each queue's loop with ``call_soon_threadsafe``, so any thread may raise or
clear. Kinds: ``device-fault``, ``rng-halt``, ``rng-alarm``, ``integrity`` (a shoe
that does not match its commitment, a log or ledger check that failed),
``store-fault``, ``table-suspended``, ``attendant``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
import time
from dataclasses import asdict, dataclass, replace
from typing import Any

from kiosk_ui.errors import NoSuchAlarm

KINDS = (
    "device-fault",
    "rng-halt",
    "rng-alarm",
    "integrity",
    "store-fault",
    "table-suspended",
    "attendant",
)
KEEP_CLOSED = 200  # closed alarms kept for the console's list


@dataclass(frozen=True, slots=True)
class Alarm:
    id: int
    kind: str
    key: str
    message: str
    at: float  # seconds since the epoch, when raised
    state: str = "open"  # open, acknowledged (still open: someone is on it), cleared
    by: str = ""  # who acknowledged it
    closed: float | None = None

    def out(self) -> dict[str, Any]:
        return asdict(self)


class Alarms:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._open: dict[str, Alarm] = {}  # key -> its open (or acknowledged) alarm
        self._closed: list[Alarm] = []
        self._subs: dict[asyncio.Queue[dict[str, Any]], asyncio.AbstractEventLoop] = {}

    # --- raising and closing -----------------------------------------------------------

    def raise_(self, kind: str, key: str, message: str) -> Alarm | None:
        """Open an alarm for ``key`` (None when it is open already with this message)."""
        assert kind in KINDS, kind
        with self._lock:
            now = self._open.get(key)
            if now is not None and now.message == message:
                return None
            if now is not None:
                self._close(now, "cleared")
            alarm = Alarm(next(self._ids), kind, key, message, time.time())
            self._open[key] = alarm
        self._publish("raised", alarm)
        return alarm

    def clear(self, key: str) -> Alarm | None:
        """The condition behind ``key`` ended: close its alarm, if one is open."""
        with self._lock:
            alarm = self._open.pop(key, None)
            if alarm is None:
                return None
            closed = self._close(alarm, "cleared")
        self._publish("cleared", closed)
        return closed

    def _close(self, alarm: Alarm, state: str) -> Alarm:
        closed = replace(alarm, state=state, closed=time.time())
        self._open.pop(alarm.key, None)
        self._closed = [closed, *self._closed][:KEEP_CLOSED]
        return closed

    def acknowledge(self, alarm_id: int, by: str) -> Alarm:
        """An operator is on it: the alarm stays listed (open) with their name."""
        with self._lock:
            alarm = next((a for a in self._open.values() if a.id == alarm_id), None)
            if alarm is None:
                raise NoSuchAlarm(f"no open alarm {alarm_id}")
            acked = self._open[alarm.key] = replace(alarm, state="acknowledged", by=by)
        self._publish("acknowledged", acked)
        return acked

    def get(self, key: str) -> Alarm | None:
        with self._lock:
            return self._open.get(key)

    def listing(self) -> list[Alarm]:
        """Open alarms (newest first), then the recent closed ones."""
        with self._lock:
            live = sorted(self._open.values(), key=lambda a: -a.id)
            return live + list(self._closed)

    # --- subscribers -----------------------------------------------------------------

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=500)
        with self._lock:
            self._subs[q] = asyncio.get_running_loop()
        return q

    def unsubscribe(self, q: asyncio.Queue[dict[str, Any]]) -> None:
        with self._lock:
            self._subs.pop(q, None)

    def _publish(self, what: str, alarm: Alarm) -> None:
        message = {"event": what, "alarm": alarm.out()}
        with self._lock:
            subs = list(self._subs.items())
        for q, loop in subs:
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(_put, q, message)


def _put(q: asyncio.Queue[dict[str, Any]], message: dict[str, Any]) -> None:
    with contextlib.suppress(asyncio.QueueFull):
        q.put_nowait(message)
