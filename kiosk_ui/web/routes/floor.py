"""The whole floor of a shared store, between its servers and on the operator console.

- ``GET /api/floor/here``: this server's part of the floor for the other servers
  (:mod:`kiosk_ui.web.floor_view`): its tables' lobby rows, its poker rooms' lobby rows
  (stakes, buy-in, who sits with what stack, as ``GET /api/rooms`` shows them), their
  console rows (seats, open game, suspension), its open alarms and its health (RNG,
  devices, store fault: what its public ``GET /api/status`` shows, summed up by
  :func:`kiosk_ui.web.status_view.health_summary`). Never a card. Only a
  server of this floor may ask: the ``X-Croupier-Floor`` header carries the secret
  derived from the floor's token key, compared in constant time.
- ``POST /api/floor/alarms/{id}/ack``: another server's console acknowledges one of
  this server's alarms for its signed-in operator (logged here with their name).
- ``GET /api/operator/floor/stream``: Server-Sent Events for the console, a ``floor``
  event with :meth:`FloorView.snapshot` at once and again whenever a table or an alarm
  changed on any server; the operator's session checked at every event, at most
  ``STREAM_SECONDS`` long (the EventSource reconnects), as the alarm stream.
- ``POST /api/operator/floor/alarms/ack``: acknowledge another server's alarm from this
  console (relayed to that server).
"""

from __future__ import annotations

import hmac
import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.encoders import jsonable_encoder
from fastapi.responses import Response, StreamingResponse
from pydantic import Field

from kiosk_ui.errors import AuthError, NoSuchAlarm
from kiosk_ui.table.room import Room
from kiosk_ui.web import schemas
from kiosk_ui.web.floor_view import PEER_HEADER, PROOF_HEADER, FloorView, answer_proof, ask_tag
from kiosk_ui.web.routes.console_stream import console_stream, sse_event
from kiosk_ui.web.routes.deps import ApplianceDep, FloorDep, FloorViewDep, OperatorDep
from kiosk_ui.web.routes.operator import table_row
from kiosk_ui.web.routes.player import table_out
from kiosk_ui.web.routes.rooms import room_row
from kiosk_ui.web.status_view import health_summary, public_status

router = APIRouter(prefix="/api", tags=["floor"])


def here_part(state: Any) -> dict[str, Any]:
    """This server's part of the floor (``state``: the app's ``state``): what the other
    servers' lobbies and consoles show of it."""
    app = state.appliance
    alarm = app.runtime.db.health.alarm()
    tables = app.tables()
    view: FloorView = state.floor_view
    return {
        "holder": view.name,
        "url": view.url,
        "lobby": [table_out(t).model_dump() for t in tables],
        "rooms": [room_row(app, t) for t in tables if isinstance(t, Room)],
        "tables": [table_row(t, alarm) for t in tables],
        "alarms": [a.out() for a in state.floor.alarms.listing() if a.state != "cleared"],
        "health": health_here(state),
    }


def health_here(state: Any) -> dict[str, Any]:
    """This server's health as the floor's status page lists it: the summary of what its
    own ``GET /api/status`` shows anyone (:func:`kiosk_ui.web.status_view.health_summary`)."""
    view: FloorView = state.floor_view
    return health_summary(public_status(state.appliance), view.started)


def _peer(request: Request, secret: str | None) -> None:
    """Refuse a caller that is not a server of this floor."""
    view: FloorView = request.app.state.floor_view
    good = (
        ask_tag(view.secret, view.url, request.method, request.url.path)
        if view.shared and view.url
        else None
    )
    if not good or not secret or not hmac.compare_digest(secret.encode(), good.encode()):
        raise AuthError("only a server of this floor may ask for its part of the floor")


def _signed(request: Request, body: dict[str, Any]) -> Response:
    """``body`` as JSON with this server's proof that it sent it (:func:`answer_proof`)."""
    view: FloorView = request.app.state.floor_view
    assert view.url is not None  # _peer let the request in
    data = json.dumps(jsonable_encoder(body)).encode()
    proof = answer_proof(view.secret, view.url, request.method, request.url.path, data)
    return Response(data, media_type="application/json", headers={PROOF_HEADER: proof})


PeerSecret = Annotated[str | None, Header(alias=PEER_HEADER, include_in_schema=False)]


@router.get("/floor/here", include_in_schema=False)
def here(request: Request, secret: PeerSecret = None) -> Response:
    """This server's tables, their state and its open alarms (for the floor's servers)."""
    _peer(request, secret)
    return _signed(request, here_part(request.app.state))


class PeerAckIn(schemas.StrictIn):
    by: str = Field(min_length=1, max_length=200, description="operator@server")


@router.post("/floor/alarms/{alarm_id}/ack", include_in_schema=False)
def peer_ack(
    alarm_id: int, body: PeerAckIn, request: Request, floor: FloorDep, secret: PeerSecret = None
) -> Response:
    """Another server's console acknowledges this server's alarm for its operator."""
    _peer(request, secret)
    return _signed(request, floor.acknowledge(alarm_id, body.by).out())


class FloorAckIn(schemas.StrictIn):
    holder: str = Field(min_length=1, max_length=200, description="the server of the alarm")
    id: int = Field(ge=1, description="its alarm id there")


@router.post("/operator/floor/alarms/ack")
async def floor_ack(
    body: FloorAckIn, app: ApplianceDep, view: FloorViewDep, session: OperatorDep
) -> dict[str, Any]:
    """Acknowledge an alarm another server of the floor raised (relayed to it, logged
    there with this operator's name and this server)."""
    app.operators.session(session.token, "operator", "technician")
    by = f"{session.user}@{view.name}"
    try:
        alarm = await run_in_threadpool(
            view.relay, body.holder, f"/api/floor/alarms/{body.id}/ack", {"by": by}
        )
    except LookupError as exc:
        raise NoSuchAlarm(str(exc)) from None
    return {**alarm, "holder": body.holder}


@router.get("/operator/floor/stream", include_in_schema=False)
async def floor_stream(
    request: Request, app: ApplianceDep, view: FloorViewDep, session: OperatorDep
) -> StreamingResponse:
    """Server-Sent Events: the whole floor now, then again at every change anywhere."""
    await run_in_threadpool(view.watched)  # the other servers asked now if nobody was
    queue = view.subscribe()  # before the first snapshot: a change between is sent again
    first = sse_event("floor", await run_in_threadpool(view.snapshot))
    return console_stream(
        request, app, session.token, first, queue, "floor", lambda: view.unsubscribe(queue)
    )
