"""The operator console's live streams (alarms, the floor) as Server-Sent Events.

One shape for every stream: a first event with the state now, then one event per
change from the caller's queue, a comment every ``KEEPALIVE_SECONDS`` so proxies keep
the connection, and the operator's session checked again before every event (a
signed-out or expired session ends the stream). A stream lasts at most
``STREAM_SECONDS``: the browser's EventSource reconnects by itself (``retry``), so a
stopping server never waits on an idle console.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse

from kiosk_ui.appliance import Appliance
from kiosk_ui.errors import AuthError

STREAM_SECONDS = 25.0
KEEPALIVE_SECONDS = 10.0


def sse_event(name: str, data: Any) -> str:
    """One Server-Sent Event named ``name`` carrying ``data`` as compact JSON."""
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'), default=str)}\n\n"


def console_stream(
    request: Request,
    app: Appliance,
    token: str,
    first: str,
    queue: asyncio.Queue[dict[str, Any]],
    name: str,
    unsubscribe: Callable[[], None],
) -> StreamingResponse:
    """The stream: ``first`` (an encoded event), then a ``name`` event per item of
    ``queue``; ``unsubscribe`` runs when it ends, however it ends."""

    async def events() -> AsyncIterator[str]:
        ends = time.monotonic() + STREAM_SECONDS
        try:
            yield "retry: 1000\n" + first
            while (left := ends - time.monotonic()) > 0:
                try:
                    item = await asyncio.wait_for(queue.get(), min(left, KEEPALIVE_SECONDS))
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": keep-alive\n\n"
                    continue
                try:
                    app.operators.session(token)  # signed out or expired: the stream ends
                except AuthError:
                    return
                yield sse_event(name, item)
        finally:
            unsubscribe()

    return StreamingResponse(
        events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )
