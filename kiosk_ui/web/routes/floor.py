"""The whole floor of a shared store, between its servers and on the operator console.

- ``GET /api/floor/here``: this server's part of the floor for the other servers
  (:mod:`kiosk_ui.web.floor_view`): its tables' lobby rows, its poker rooms' lobby rows
  (stakes, buy-in, who sits with what stack, as ``GET /api/rooms`` shows them), their
  console rows (seats, open game, suspension), its open alarms and its health (RNG,
  devices, store fault: what its public ``GET /api/status`` shows, summed up by
  :func:`kiosk_ui.web.status_view.health_summary`). Never a card. Only a
  server of this floor may ask, once: the ``X-Croupier-Floor`` header carries an HMAC
  with the secret derived from the floor's token key over this server, the request, its
  body, the time and a nonce (:mod:`kiosk_ui.web.floor_asks`), checked in constant time
  and let in once, so an ask read on the wire cannot be sent again.
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

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.encoders import jsonable_encoder
from fastapi.responses import Response, StreamingResponse
from pydantic import Field

from kiosk_ui.errors import AuthError, NoSuchAlarm
from kiosk_ui.table.room import Room
from kiosk_ui.web import schemas
from kiosk_ui.web.floor_asks import Ask, AskRefused, answer_proof
from kiosk_ui.web.floor_view import PEER_HEADER, PROOF_HEADER, FloorView
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


def _peer(request: Request, tag: str | None, body: bytes = b"") -> Ask:
    """The caller's ask, if it is a fresh one of a server of this floor (else refused)."""
    view: FloorView = request.app.state.floor_view
    try:
        if not view.shared or view.guard is None:
            raise AskRefused("this server serves no floor")
        return view.guard.admit(tag, request.method, request.url.path, body)
    except AskRefused as exc:
        msg = f"only a server of this floor may ask for its part of the floor: {exc}"
        raise AuthError(msg) from None


def _signed(request: Request, ask: Ask, body: dict[str, Any]) -> Response:
    """``body`` as JSON with this server's proof that it sent it to ``ask``
    (:func:`~kiosk_ui.web.floor_asks.answer_proof`)."""
    view: FloorView = request.app.state.floor_view
    assert view.url is not None  # _peer let the request in
    data = json.dumps(jsonable_encoder(body)).encode()
    proof = answer_proof(view.secret, view.url, request.method, request.url.path, ask.nonce, data)
    return Response(data, media_type="application/json", headers={PROOF_HEADER: proof})


async def _raw_body(request: Request) -> bytes:
    """The request's body as sent (the ask's tag signs it): read once, kept by Starlette."""
    return await request.body()


PeerSecret = Annotated[str | None, Header(alias=PEER_HEADER, include_in_schema=False)]
RawBody = Annotated[bytes, Depends(_raw_body)]


@router.get("/floor/here", include_in_schema=False)
def here(request: Request, secret: PeerSecret = None) -> Response:
    """This server's tables, their state and its open alarms (for the floor's servers)."""
    ask = _peer(request, secret)
    return _signed(request, ask, here_part(request.app.state))


class PeerAckIn(schemas.StrictIn):
    by: str = Field(min_length=1, max_length=200, description="operator@server")


@router.post("/floor/alarms/{alarm_id}/ack", include_in_schema=False)
def peer_ack(
    alarm_id: int,
    body: PeerAckIn,
    request: Request,
    floor: FloorDep,
    raw: RawBody,
    secret: PeerSecret = None,
) -> Response:
    """Another server's console acknowledges this server's alarm for its operator (the
    operator's name is in the signed body: an ask cannot be sent again with another)."""
    ask = _peer(request, secret, raw)
    return _signed(request, ask, floor.acknowledge(alarm_id, body.by).out())


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
