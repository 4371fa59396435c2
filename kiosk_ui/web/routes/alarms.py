"""Live alarms and attendant calls.

Players call an attendant from any page (``/api/attendant``); operators see every alarm
(device faults, RNG halts and alarms, integrity failures, store faults, suspended tables,
attendant calls) in ``GET /api/operator/alarms`` and live on
``GET /api/operator/alarms/stream``: Server-Sent Events, one ``alarm`` event per change
after a ``snapshot`` of the list, the operator's session checked at connect and at
every event. The stream's shape (keep-alives, its length, the reconnect) is
:mod:`.console_stream`'s, shared with the floor's stream.
The stream is left out of the OpenAPI schema (it never ends on its own).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import Field

from kiosk_ui.settings import ID_PATTERN
from kiosk_ui.web import schemas
from kiosk_ui.web.routes.console_stream import console_stream, sse_event
from kiosk_ui.web.routes.deps import ApplianceDep, FloorDep, OperatorDep, PlayerDep

router = APIRouter(prefix="/api", tags=["alarms"])


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


@router.get("/operator/alarms/stream", include_in_schema=False)
async def stream(
    request: Request,
    app: ApplianceDep,
    floor: FloorDep,
    session: OperatorDep,
) -> StreamingResponse:
    """Server-Sent Events: a ``snapshot`` of the alarms, then an ``alarm`` per change."""
    queue = floor.alarms.subscribe()  # before the snapshot: a change between is sent again
    first = sse_event("snapshot", [a.out() for a in floor.alarms.listing()])
    return console_stream(
        request, app, session.token, first, queue, "alarm", lambda: floor.alarms.unsubscribe(queue)
    )
