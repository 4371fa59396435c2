"""Poker room API (issue 15): the lobby rows, a seat's view with every stack, buy-in,
sit out / return / leave, the player's decisions, and the hand history export.

A room is a :class:`~kiosk_ui.table.room.Room` (player against player). A player holds
one seat there, found from the session, so the routes take no seat but the buy-in's.
What a page sees is the engine's view for the caller's seat (an observer's: the public
view): another player's hole cards never leave the server before the rules show them.
Decisions go through the same path as every table's actions (the loop's group commit,
the Idempotency-Key, a WebSocket notice to every page of the table).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request, Response
from pydantic import Field

from games.core.records import Decide
from kiosk_ui.errors import NoSuchTable, SeatError
from kiosk_ui.store import ledger
from kiosk_ui.table.hand_history import session_hands
from kiosk_ui.table.room import Room
from kiosk_ui.table.room_engine import buy_in_limits, stakes_of
from kiosk_ui.web import schemas
from kiosk_ui.web.house_rules import rules_for
from kiosk_ui.web.routes.deps import (
    ApplianceDep,
    FloorViewDep,
    LiveDep,
    OperatorDep,
    PlayerDep,
)
from kiosk_ui.web.routes.player import _play, request_digest

router = APIRouter(prefix="/api", tags=["poker room"])


class BuyInIn(schemas.StrictIn):
    """Sit at ``seat`` (if not seated yet) with ``amount`` cents from the wallet (0: with
    the chips already yours at this table)."""

    seat: int = Field(ge=0, le=15)
    amount: schemas.Cents = Field(ge=0, le=100_000_000)


class DecideIn(schemas.StrictIn):
    """One of the legal decisions the view lists (``fold``, ``check``, ``call``, ``bet``,
    ``raise``, ...); fixed limit: the engine knows every amount."""

    decision: str = Field(min_length=1, max_length=40)
    arg: str = Field(default="", max_length=40)


def _room(app: ApplianceDep, table_id: str) -> Room:
    table = app.runtime.table(table_id)
    if not isinstance(table, Room):
        raise NoSuchTable(f"table {table_id!r} is no poker room")
    return table


def _seat_of(room: Room, player: str) -> int | None:
    return next((s for s, p in room.seats.items() if p == player), None)


def _my_seat(room: Room, player: str) -> int:
    seat = _seat_of(room, player)
    if seat is None:
        raise SeatError(f"you have no seat at table {room.id}: buy in first")
    return seat


def room_row(
    app: ApplianceDep, room: Room, seated: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A lobby row: the game, its stakes, the buy-in and the seated players."""
    low, high = buy_in_limits(room.variant)
    lower, higher = stakes_of(room.variant)
    return {
        "id": room.id,
        "variant": room.variant.id,
        "title": room.variant.title,
        "stakes": {"lower": lower, "higher": higher},
        "buy_in": {"minimum": low, "maximum": high},
        "seats": max(room.variant.seats, 1),
        "seated": _seated(app, room, None) if seated is None else seated,
        "suspended": room.suspended,
        "notes": list(rules_for(room.variant.id) or room.variant.notes),
    }


def _seated(app: ApplianceDep, room: Room, player: str | None) -> list[dict[str, Any]]:
    """Every seat's player: name, stack, sitting out, action clock (one read of the store)."""
    seats = sorted(room.seats.items())
    with app.runtime.db.read() as tx:
        held = [
            (s, p, tx.players.name_of(p) or "", tx.ledger.balance(ledger.stack(room.id, p)))
            for s, p in seats
        ]
    return [
        {
            "seat": s,
            "name": name,
            "stack": stack,
            "you": p == player,
            "sitting_out": room.is_sitting_out(s),
            "clock": room.clock_left(s),
        }
        for s, p, name, stack in held
    ]


#: what every lobby row of a room holds (another server's row without them is left out)
ROW_KEYS = frozenset(("id", "variant", "title", "stakes", "buy_in", "seats", "seated"))


@router.get("/rooms")
def rooms(request: Request, app: ApplianceDep, view: FloorViewDep) -> list[dict[str, Any]]:
    """Every poker room with its stakes and seated players (the lobby's rows): on a
    shared store those of every server of the floor, each served elsewhere with the
    ``url`` of its server (``None``: served here), as ``GET /api/tables`` lists them."""
    here = [{**room_row(app, t), "url": None} for t in app.tables() if isinstance(t, Room)]
    if not view.shared:
        return here
    view.watched()
    seen = {r["id"] for r in here}
    for row in view.rooms(request.headers.get("host")):
        if row.keys() >= ROW_KEYS and row["id"] not in seen:  # else: another version's
            seen.add(row["id"])
            here.append(row)
    return here


@router.get("/rooms/{table_id}")
def room_view(table_id: str, app: ApplianceDep, player: PlayerDep) -> dict[str, Any]:
    """The caller's view: the engine's view for their seat (an observer's: the public
    one), every seat's name, stack and clock, the caller's seat and wallet."""
    room = _room(app, table_id)
    seat = _seat_of(room, player)
    view = room.view(seat)  # an observer's (seat None) is the public view
    seated = _seated(app, room, player)
    view["room"] = room_row(app, room, seated)
    view["players"] = seated
    view["seat"] = seat
    view["sitting_out"] = seat is not None and room.is_sitting_out(seat)
    with app.runtime.db.read() as tx:
        view["balance"] = tx.ledger.balance(ledger.wallet(player))
        view["stack"] = tx.ledger.balance(ledger.stack(room.id, player))
    return view


@router.post("/rooms/{table_id}/buy-in")
def buy_in(
    table_id: str, body: BuyInIn, app: ApplianceDep, player: PlayerDep, live: LiveDep
) -> dict[str, Any]:
    """Sit down (or add chips between hands) with chips bought from the wallet."""
    room = _room(app, table_id)
    stack = room.buy_in(body.seat, player, body.amount)
    live.publish(table_id, {"type": "update", "events": []})
    return {"table": table_id, "seat": body.seat, "stack": stack}


@router.post("/rooms/{table_id}/sit-out")
def sit_out(table_id: str, app: ApplianceDep, player: PlayerDep, live: LiveDep) -> dict[str, Any]:
    """Sit out from the next hand on (the seat and the stack are kept)."""
    room = _room(app, table_id)
    seat = _my_seat(room, player)
    room.sit_out(seat, player)
    live.publish(table_id, {"type": "update", "events": []})
    return {"table": table_id, "seat": seat, "sitting_out": True}


@router.post("/rooms/{table_id}/return")
def come_back(table_id: str, app: ApplianceDep, player: PlayerDep, live: LiveDep) -> dict[str, Any]:
    """Back from sitting out: dealt into the next hand."""
    room = _room(app, table_id)
    seat = _my_seat(room, player)
    room.come_back(seat, player)
    live.publish(table_id, {"type": "update", "events": []})
    return {"table": table_id, "seat": seat, "sitting_out": False}


@router.post("/rooms/{table_id}/leave")
def leave(table_id: str, app: ApplianceDep, player: PlayerDep, live: LiveDep) -> dict[str, Any]:
    """Leave the table: the stack goes back to the wallet now, or when the hand the
    seat is dealt into ends (its decisions meanwhile: check if possible, else fold)."""
    room = _room(app, table_id)
    seat = _my_seat(room, player)
    when = app.runtime.leave(table_id, seat, player)
    live.publish(table_id, {"type": "update", "events": []})
    return {"table": table_id, "seat": seat, "freed": when, "balance": app.runtime.balance(player)}


@router.post("/rooms/{table_id}/decide", response_model=schemas.ActOut)
async def decide(
    table_id: str,
    body: DecideIn,
    request: Request,
    player: PlayerDep,
    idempotency_key: Annotated[str | None, Header(max_length=100)] = None,
) -> Response:
    """The caller's decision at their seat, validated by the engine (the view's ``legal``
    list names what is open, with the amounts)."""
    room = _room(request.app.state.appliance, table_id)
    seat = _my_seat(room, player)
    key = f"{player}:{idempotency_key}" if idempotency_key else None
    digest = request_digest("decide", table_id, body) if key else ""
    action = Decide(seat=seat, decision=body.decision, arg=body.arg)
    return await _play(request, table_id, player, [action], key, digest)


_TEXT: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/plain": {"schema": {"type": "string"}}}}
}


@router.get("/rooms/{table_id}/hands", response_class=Response, responses=_TEXT)
def my_hands(table_id: str, app: ApplianceDep, player: PlayerDep) -> Response:
    """The caller's hands of this table session as a PokerStars-style text hand history
    (their own hole cards; of the others what the table showed)."""
    room = _room(app, table_id)
    text = session_hands(app.runtime, room.id, hero=player)
    return _download(text, f"{room.id}-hands.txt")


@router.get("/operator/rooms/{table_id}/hands", response_class=Response, responses=_TEXT)
def all_hands(table_id: str, app: ApplianceDep, session: OperatorDep) -> Response:
    """Every hand of the table's current session, as the table showed it (the
    operator's export: one file per table session)."""
    del session
    room = _room(app, table_id)
    return _download(session_hands(app.runtime, room.id), f"{room.id}-hands.txt")


def _download(text: str, name: str) -> Response:
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
