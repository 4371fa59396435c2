"""Player API: lobby, session, table views and actions, history and recall."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ValidationError

from certification.log.commitments import check_game
from certification.log.replay import render_recall, replay_game, shoe_line
from firmware_bridge.url import public_text
from games import catalog
from games.core.backline import backed_seat
from games.core.engine import Variant
from games.core.errors import BetRefused
from games.core.records import Action, Deal, Decide, PlaceBet, RemoveBet
from kiosk_ui.errors import AuthError, SeatError, TableError
from kiosk_ui.table.answers import public
from kiosk_ui.table.commit import LoopCommitter
from kiosk_ui.table.table import Table
from kiosk_ui.web import schemas
from kiosk_ui.web.house_rules import rules_for
from kiosk_ui.web.live import Broadcaster
from kiosk_ui.web.recall_view import local_time, picture
from kiosk_ui.web.routes.deps import (
    PLAYER_COOKIE,
    ApplianceDep,
    FloorViewDep,
    LiveDep,
    PlayerDep,
    SeatQuery,
    tokens,
)
from kiosk_ui.web.status_view import health_summary, public_status, public_value

router = APIRouter(prefix="/api", tags=["player"])


def table_out(t: Table) -> schemas.TableOut:
    v = t.variant
    return schemas.TableOut(
        id=t.id,
        variant=v.id,
        family=v.family,
        title=v.title,
        source=public_text(t.source.name),
        seats=max(v.seats, 1),
        suspended=public_text(t.suspended) if t.suspended else t.suspended,
        limits={
            k: schemas.BetLimitOut(minimum=b.minimum, maximum=b.maximum, increment=b.increment)
            for k, b in v.limits.items()
        },
        notes=list(v.notes),
        chip_spots=chip_spots(v),
        matched=dict(getattr(v.rules, "matched", {})),
        house_rules=list(rules_for(v.id)),
        collection=collection_out(v),
    )


def collection_out(v: Variant[Any]) -> schemas.CollectionOut | None:
    """The variant's collection schedule as the page reads it (None: no collection)."""
    c = v.collection
    if c is None:
        return None
    return schemas.CollectionOut(tiers=[(up, fee) for up, fee in c.tiers], above=c.above)


def chip_spots(v: Variant[Any]) -> list[str]:
    """The bets a player places with chips: the rules' own list of bets placed before the
    deal where the family names one (the poker families, baccarat, pai gow), else every
    bet with a limit (the layouts: roulette, sic bo, craps, blackjack, war)."""
    named = getattr(v.rules, "bets", None)
    if isinstance(named, tuple):
        return [b for b in named if b in v.limits]
    return list(v.limits)


@router.get("/health")
def health(app: ApplianceDep) -> dict[str, Any]:
    """Liveness and a one-line state for monitoring."""
    rng = app.rng_status()
    store = app.runtime.db.health.reason()  # a store fault (full disk, I/O error) or None
    return {
        "ok": rng["halted"] is None and store is None,
        "rng": public_text(rng["active"]),
        "store": store,
        "tables": len(app.tables()),
    }


@router.get("/status")
def status(app: ApplianceDep, view: FloorViewDep) -> dict[str, Any]:
    """Device, RNG and store health for the technician's status page (no secrets, no
    outcomes: :func:`kiosk_ui.web.status_view.public_status`). On a shared store,
    ``floor`` lists every server of the floor with its health as its last answer gave
    it (:meth:`FloorView.servers`: one that does not answer with why and since when, one
    whose row went stale as dead); empty on a store of one process."""
    body = public_status(app)
    floor: list[dict[str, Any]] = []
    if view.shared:
        view.watched()  # the other servers asked now if nobody was, then every second
        floor = public_value(view.servers(health_summary(body, view.started)))
    return {**body, "floor": floor}


@router.get("/tables")
def lobby(request: Request, app: ApplianceDep, view: FloorViewDep) -> list[schemas.TableOut]:
    """Every open table with its game, limits and state: on a shared store those of every
    server of the floor, each served elsewhere with the ``url`` of its server (its pages
    and feed are there; the player's session cookie goes with them on the same host)."""
    here = [table_out(t) for t in app.tables()]
    if not view.shared:
        return here
    view.watched()
    seen = {t.id for t in here}
    for row in view.lobby(request.headers.get("host")):
        try:
            table = schemas.TableOut.model_validate(row)
        except ValidationError:  # a server of another version: its tables are left out
            continue
        if table.id not in seen:
            seen.add(table.id)
            here.append(table)
    return here


@router.post("/players", status_code=201)
def new_player(
    body: schemas.NewPlayer, request: Request, response: Response, app: ApplianceDep
) -> dict[str, Any]:
    """Start a player session on this kiosk (demo mode credits the demo amount)."""
    pid = app.runtime.create_player(body.name)
    if app.settings.demo and app.settings.demo_credit:
        app.runtime.cash_in(pid, app.settings.demo_credit, operator="demo")
    token = tokens(request).issue(pid)
    response.set_cookie(PLAYER_COOKIE, token, httponly=True, samesite="strict")
    return {
        "token": token,
        "player": schemas.PlayerOut(
            id=pid, name=body.name, balance=app.runtime.balance(pid), demo=app.settings.demo
        ).model_dump(),
    }


@router.get("/me")
def me(app: ApplianceDep, player: PlayerDep) -> schemas.PlayerOut:
    with app.runtime.db.read() as tx:
        name = tx.players.name_of(player)
    return schemas.PlayerOut(
        id=player, name=name or "", balance=app.runtime.balance(player), demo=app.settings.demo
    )


@router.get("/tables/{table_id}")
def table_view(
    table_id: str,
    app: ApplianceDep,
    player: PlayerDep,
    seat: SeatQuery = 0,
) -> dict[str, Any]:
    """This seat's view: only what the rules let it see (at a one-seat RNG table, the
    caller's own game: ``per_player``)."""
    table = app.runtime.table_for(table_id, player)
    holder = table.seats.get(seat)
    view = table.view(seat if holder == player else None)
    view["seated"] = holder == player
    held = list(table.seats.items())
    seats = [(k, v) for k, v in held if not table.is_backline(k)]
    view["seats"] = {str(k): ("you" if v == player else "taken") for k, v in seats}
    # the caller's backline positions, by the seat whose hand each bets on
    view["behind"] = {
        str(backed): k
        for k, v in held
        if v == player and (backed := backed_seat(table.engine, k)) is not None
    }
    view["sitting_out"] = holder == player and seat in table.sitting_out
    view["per_player"] = table.owner is not None
    view["balance"] = app.runtime.balance(player)
    return view


@router.post("/tables/{table_id}/sit")
def sit(
    table_id: str,
    app: ApplianceDep,
    player: PlayerDep,
    seat: SeatQuery = 0,
) -> dict[str, Any]:
    """Take a seat (within the seat limits: [seats] per_table and floor)."""
    table = app.runtime.table_for(table_id, player)
    table.sit(seat, player)
    return {"table": table_id, "seat": seat}


@router.post("/tables/{table_id}/leave")
def leave(
    table_id: str,
    app: ApplianceDep,
    player: PlayerDep,
    live: LiveDep,
    seat: SeatQuery = 0,
) -> dict[str, Any]:
    """Leave a seat: freed now, or when the game holding its stakes ends (it sits out
    meanwhile, its decisions get the rules' default)."""
    when = app.runtime.leave(table_id, seat, player)
    live.publish(table_id, {"type": "update", "events": []})
    return {"table": table_id, "seat": seat, "freed": when}


def to_action(body: schemas.ActionIn, seat: int | None = None) -> Action:
    """The action ``body`` asks for (``seat``: a backline bet's position, in place of the
    seated hand's ``body.seat``)."""
    at = body.seat if seat is None else seat
    if body.kind == "place-bet":
        return PlaceBet(seat=at, bet=body.bet, amount=body.amount)
    if body.kind == "remove-bet":
        return RemoveBet(seat=at, bet=body.bet, amount=body.amount)
    if body.backline:
        raise BetRefused("a backline bet is placed or taken down: the seated player decides")
    if body.kind == "deal":
        return Deal(seat=body.seat)
    return Decide(seat=body.seat, decision=body.decision, arg=body.arg, hand=body.hand)


@router.post("/tables/{table_id}/actions", response_model=schemas.ActOut)
async def act(
    table_id: str,
    body: schemas.ActionIn,
    request: Request,
    player: PlayerDep,
    idempotency_key: Annotated[str | None, Header(max_length=100)] = None,
) -> Response:
    """Apply one action for the caller's seat. Repeat a request with the same
    Idempotency-Key and it is applied once; the first answer is returned again."""
    key = f"{player}:{idempotency_key}" if idempotency_key else None
    digest = request_digest("actions", table_id, body) if key else ""
    position = _behind(request, table_id, player, body) if body.backline else None
    action = to_action(body, position)
    return await _play(request, table_id, player, [action], key, digest, behind=body.backline)


def _behind(request: Request, table_id: str, player: str, body: schemas.ActionIn) -> int:
    """The backline position the caller bets from behind ``body.seat`` (page 004: "Multiple
    Players may bet on the same hand"): taken by the bet like a seat, but no seat."""
    if body.kind not in ("place-bet", "remove-bet"):
        raise BetRefused("a backline bet is placed or taken down: the seated player decides")
    table: Table = request.app.state.appliance.runtime.table_for(table_id, player)
    return table.behind(body.seat, player, body.bet, placing=body.kind == "place-bet")


@router.post("/tables/{table_id}/round", response_model=schemas.ActOut)
async def bet_and_deal(
    table_id: str,
    body: schemas.RoundIn,
    request: Request,
    player: PlayerDep,
    idempotency_key: Annotated[str | None, Header(max_length=100)] = None,
) -> Response:
    """Place a whole bet slip and deal, atomically: either every bet is placed and the
    round dealt, or nothing changes (a refused bet names its reason)."""
    actions: list[Action] = [
        PlaceBet(seat=body.seat, bet=bet, amount=amount) for bet, amount in body.bets.items()
    ]
    if body.deal:
        actions.append(Deal(seat=body.seat))
    key = f"{player}:{idempotency_key}" if idempotency_key else None
    digest = request_digest("round", table_id, body) if key else ""
    return await _play(request, table_id, player, actions, key, digest)


def request_digest(kind: str, table_id: str, body: BaseModel) -> str:
    """What an Idempotency-Key stands for: the endpoint, the table and the whole body.

    Stored with the key's first answer; the key reused for anything else is refused
    (422) instead of answered with the first request's result.
    """
    canon = orjson.dumps([kind, table_id, body.model_dump()], option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(canon).hexdigest()


async def _play(
    request: Request,
    table_id: str,
    player: str,
    actions: list[Action],
    key: str | None,
    digest: str = "",
    *,
    behind: bool = False,
) -> Response:
    """Apply one seat's actions and answer once they are durable.

    A table fed by the RNG never waits on hardware: its work runs right here on the
    event loop and joins the loop's group commit. A device table may wait for a card
    or a roll, so its work goes to a worker thread.
    """
    state = request.app.state  # read directly: this is the hot path, one dependency less each
    table: Table = state.appliance.runtime.table_for(table_id, player)
    live: Broadcaster = state.live
    committer: LoopCommitter = state.committer
    seat = actions[0].seat
    took = seat is not None and table.seats.get(seat) != player
    if took:
        assert seat is not None
        if table.is_backline(seat):
            if not behind:  # a position is found by `backline` (behind an occupied seat)
                raise SeatError(f"no seat {seat} at table {table.id}: bet behind a seat")
            table.sit_behind(seat, player)  # a backline bet's position: no seat limit
        else:
            table.sit(seat, player)  # a bet takes the seat, within the seat limits
    try:
        if table.source.blocking:
            result = await run_in_threadpool(
                table.act_many, actions, idempotency_key=key, request_digest=digest
            )
        else:
            result = await committer.run(
                table,
                lambda: table.act_many(
                    actions, idempotency_key=key, request_digest=digest, defer=True
                ),
            )
    except BaseException:
        if took:
            assert seat is not None
            table.release_unused(seat, player)  # a refused bet seats nobody
        raise
    if table.owner is None:  # a player's own game has nobody else to tell
        live.publish(table.id, {"type": "update", "events": public(result.events)})
    return Response(orjson.dumps(result.body()), media_type="application/json")


@router.get("/history")
def history(
    app: ApplianceDep,
    player: PlayerDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 500,
) -> list[schemas.HistoryItem]:
    """The last games (500 at most), newest first, with the net result of each, its game's
    name and its end on the casino's clock ([lobby] time_zone)."""
    zone = app.settings.time_zone
    return [
        schemas.HistoryItem(
            **h,
            title=_title(h["variant"]),
            ended_local=local_time(h["ended"], zone) if h.get("ended") else None,
        )
        for h in app.runtime.history(player, limit)
    ]


def _title(variant: str) -> str:
    """The variant's name (its id if the catalog no longer has it)."""
    try:
        return catalog.get_variant(variant).title
    except KeyError:
        return variant


@router.get("/history/{game}")
def recall(game: str, app: ApplianceDep, player: PlayerDep) -> schemas.RecallOut:
    """Replay one of the player's finished games from the signed log."""
    if not any(h["game"] == game for h in app.runtime.history(player)):
        raise TableError(f"no finished game {game!r} in your history")
    with app.runtime.db.read() as tx:
        records = [json.loads(x) for x in tx.log.game_lines(game)]
        seated = tx.seats.seats_of(game, player)
    rep = replay_game(records)
    if rep is None:
        raise TableError(f"game {game} is not in the log")
    # Their own seats' cards, and of the others only what the table saw face up.
    seated |= {seat for seat, who in rep.seats.items() if who == player}
    shoe = check_game(game, rep.records)
    return schemas.RecallOut(
        game=game,
        text=render_recall(rep, seated),
        matches=rep.matches,
        commitment=schemas.CommitmentOut(
            sha256=shoe.sha256,
            holds=shoe.holds,
            source="physical-shoe" if shoe.device else "rng-shoe" if shoe.sha256 else "none",
            detail=shoe_line(shoe),
        ),
        title=_title(rep.variant),
        picture=picture(rep.records, seated),
    )


@router.websocket("/ws/tables/{table_id}")
async def table_feed(websocket: WebSocket, table_id: str) -> None:
    """Pushes 'table changed' notices with public events; pages then refetch their view."""
    app = websocket.app.state.appliance
    if table_id not in app.runtime.tables:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    live = websocket.app.state.live
    q = live.subscribe(table_id)
    # The feed also listens to the socket: a page that leaves, or the server's stop
    # (uvicorn closes every socket with 1012 and waits for the handlers), ends it at
    # once, not at the next ping up to 15 s later, so a stop is never held up by the
    # kiosks watching a table, nor cancelled with a traceback in the log.
    heard: asyncio.Future[Any] = asyncio.ensure_future(websocket.receive())
    news: asyncio.Future[Any] | None = None
    try:
        while True:
            news = asyncio.ensure_future(q.get())
            done, _ = await asyncio.wait(
                {heard, news}, timeout=15, return_when=asyncio.FIRST_COMPLETED
            )
            if heard in done:
                if heard.result()["type"] == "websocket.disconnect":
                    return
                heard = asyncio.ensure_future(websocket.receive())  # what a page says: nothing
            if news in done:
                await websocket.send_json(news.result())
                continue
            news.cancel()  # (a queue's get gives up its place, the item stays queued)
            if not done:
                await websocket.send_json({"type": "ping"})  # 15 s of quiet
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        for pending in (heard, news):
            if pending is not None and not pending.done():
                pending.cancel()
        live.unsubscribe(table_id, q)


__all__ = ["AuthError", "router"]
