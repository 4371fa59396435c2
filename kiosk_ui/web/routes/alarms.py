"""Live alarms and attendant calls.

Players call an attendant from any page (``/api/attendant``); operators see every alarm
(device faults, RNG halts and alarms, integrity failures, store faults, suspended tables,
attendant calls) in ``GET /api/operator/alarms`` and live on
``GET /api/operator/alarms/stream``: Server-Sent Events, one ``alarm`` event per change
after a ``snapshot`` of the list, the operator's session checked at connect and at
every event. A stream lasts at most ``STREAM_SECONDS``; the browser's EventSource
reconnects by itself (``retry``), so a stopping server never waits on an idle console.
The stream is left out of the OpenAPI schema (it never ends on its own).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import Field

from kiosk_ui.errors import AuthError
from kiosk_ui.settings import ID_PATTERN
from kiosk_ui.web import schemas
from kiosk_ui.web.routes.deps import ApplianceDep, FloorDep, OperatorDep, PlayerDep

router = APIRouter(prefix="/api", tags=["alarms"])

STREAM_SECONDS = 25.0
KEEPALIVE_SECONDS = 10.0


class AttendantIn(schemas.StrictIn):
    kiosk: Annotated[str | None, Field(default=None, pattern=ID_PATTERN)] = None
    where: str = Field(default="", max_length=100, description="the page: lobby or a table")


def _call(alarm: Any) -> dict[str, Any] | None:
    if alarm is None:
        return None
    return {"id": alarm.id, "state": alarm.state, "by": alarm.by, "at": alarm.at}


@router.post("/attendant")
def call_attendant(
    body: AttendantIn, app: ApplianceDep, floor: FloorDep, player: PlayerDep
) -> dict[str, Any]:
    """Call an attendant to this kiosk (shown on the operator console at once)."""
    alarm = floor.call_attendant(player, body.kiosk or app.settings.kiosk_name, body.where)
    return {"call": _call(alarm)}


@router.get("/attendant")
def attendant_state(floor: FloorDep, player: PlayerDep) -> dict[str, Any]:
    """This player's open call: ``open``, ``acknowledged`` (someone is coming) or none."""
    return {"call": _call(floor.attendant_call(player))}


@router.post("/attendant/cancel")
def cancel_attendant(floor: FloorDep, player: PlayerDep) -> dict[str, Any]:
    floor.cancel_attendant(player)
    return {"call": None}


@router.get("/operator/alarms")
def alarms(floor: FloorDep, session: OperatorDep) -> list[dict[str, Any]]:
    """Open alarms, newest first, then the recent closed ones."""
    return [a.out() for a in floor.alarms.listing()]


@router.post("/operator/alarms/{alarm_id}/ack")
def acknowledge(
    alarm_id: int, app: ApplianceDep, floor: FloorDep, session: OperatorDep
) -> dict[str, Any]:
    """Someone is on it: the alarm stays open with the operator's name (logged)."""
    app.operators.session(session.token, "operator", "technician")
    return floor.acknowledge(alarm_id, session.user).out()


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@router.get("/operator/alarms/stream", include_in_schema=False)
async def stream(
    request: Request,
    app: ApplianceDep,
    floor: FloorDep,
    session: OperatorDep,
) -> StreamingResponse:
    """Server-Sent Events: a ``snapshot`` of the alarms, then an ``alarm`` per change."""
    token = session.token
    queue = floor.alarms.subscribe()

    async def events() -> AsyncIterator[str]:
        ends = time.monotonic() + STREAM_SECONDS
        try:
            yield "retry: 1000\n" + _event("snapshot", [a.out() for a in floor.alarms.listing()])
            while (left := ends - time.monotonic()) > 0:
                try:
                    message = await asyncio.wait_for(queue.get(), min(left, KEEPALIVE_SECONDS))
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": keep-alive\n\n"
                    continue
                try:
                    app.operators.session(token)  # signed out or expired: the stream ends
                except AuthError:
                    return
                yield _event("alarm", message)
        finally:
            floor.alarms.unsubscribe(queue)

    return StreamingResponse(
        events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )
