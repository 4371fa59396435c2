"""HTML pages: the lobby, a page per table, history, the operator console, device status.

Pages are static HTML + JavaScript that talk to the JSON API; no rules logic lives
here, and nothing hidden is rendered server-side.
"""

from __future__ import annotations

import re
import threading
from importlib import resources
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from kiosk_ui.errors import AuthError
from kiosk_ui.web.routes.deps import PLAYER_COOKIE

HANDOFF = "handoff"  # the query parameter carrying a session from another appliance

router = APIRouter(include_in_schema=False)

_STATIC = resources.files("kiosk_ui.web").joinpath("static")
_STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.(?:css|js|svg|html)")


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(_STATIC.joinpath(name).read_text(encoding="utf-8"))


@router.get("/")
def lobby() -> HTMLResponse:
    return _page("lobby.html")


def _elsewhere(request: Request, table_id: str) -> Response | None:
    """A table another server of a shared store serves: a redirect to its page there
    (its game, seats and feed live in that process; None: served here, or unknown).

    A server on another host does not get this host's cookie: the player's session
    goes with the redirect as a one-time hand-off (:mod:`kiosk_ui.identity`)."""
    if table_id in request.app.state.appliance.runtime.tables:
        return None
    view = request.app.state.floor_view
    if not view.shared:
        return None
    view.watched()
    host = request.headers.get("host")
    base = view.served_at(table_id, host)
    if base is None:
        return None
    params = _without_handoff(request)
    if (urlsplit(base).hostname or "") != (urlsplit(f"//{host or ''}").hostname or ""):
        tokens = request.app.state.tokens
        try:
            player = tokens.player(request.cookies.get(PLAYER_COOKIE))
        except AuthError:
            player = None  # no session yet: the player starts one there
        if player is not None:
            params.append((HANDOFF, tokens.handoff(player, base)))
    query = f"?{urlencode(params)}" if params else ""
    return RedirectResponse(f"{base}{request.url.path}{query}", status_code=307)


def _without_handoff(request: Request) -> list[tuple[str, str]]:
    """The request's query parameters but a hand-off (never passed on, never shown)."""
    return [(k, v) for k, v in request.query_params.multi_items() if k != HANDOFF]


def _arrived(request: Request) -> Response | None:
    """A player handed over from another appliance's lobby (``?handoff=``): the session
    taken once, this host's cookie set, and the browser sent on to the address without
    the hand-off (so it is never bookmarked, shared or shown). A hand-off that does not
    hold (forged, for another server, expired, used) sets nothing: the page then starts
    a session of its own, as for a player who walked up. None: no hand-off."""
    text = request.query_params.get(HANDOFF)
    if text is None:
        return None
    params = _without_handoff(request)
    clean = request.url.path + (f"?{urlencode(params)}" if params else "")
    response = RedirectResponse(clean, status_code=303)
    try:
        player = request.app.state.handoffs.take(text)
    except AuthError:
        return response
    token = request.app.state.tokens.issue(player)
    response.set_cookie(PLAYER_COOKIE, token, httponly=True, samesite="strict")
    return response


@router.get("/table/{table_id}")
def table(table_id: str, request: Request) -> Response:
    """One page for every table; the family's renderer is picked by the page script."""
    return _arrived(request) or _elsewhere(request, table_id) or _page("table.html")


@router.get("/room/{table_id}")
def room(table_id: str, request: Request) -> Response:
    """A poker room's page (player against player); it reads the table from its address."""
    return _arrived(request) or _elsewhere(request, table_id) or _page("poker_room.html")


_WARMING: list[threading.Thread] = []


@router.get("/video_poker/{table_id}")
def video_poker(table_id: str, request: Request) -> Response:
    """A video poker machine (issue 16): its own page, the table's id read from the address.

    The first page served starts building the exact auto-hold's counts in the background
    (seconds of CPU, once per process), so the player's first deal need not wait for all
    of it.
    """
    moved = _arrived(request) or _elsewhere(request, table_id)
    if moved is not None:
        return moved
    if not _WARMING:
        from games.video_poker import warm_up

        _WARMING.append(threading.Thread(target=warm_up, name="video-poker-warm-up", daemon=True))
        _WARMING[0].start()
    return _page("video_poker.html")


@router.get("/history")
def history() -> HTMLResponse:
    """The player's last 500 games, each opening its recall from the signed log."""
    return _page("history.html")


@router.get("/operator")
def operator() -> HTMLResponse:
    """The operator console: sign-in, devices, RNG, tables, wallets, log, audit."""
    return _page("operator.html")


@router.get("/voucher")
def voucher() -> HTMLResponse:
    """The cash-out voucher just printed (from the cash-out answer, kept by the page)."""
    return _page("voucher.html")


@router.get("/status")
def status() -> HTMLResponse:
    """The technician's status page: devices, RNG health, tables."""
    return _page("status.html")


@router.get("/static/{name}")
def static(name: str) -> Response:
    # Only plain file names of the packaged kinds: an over-long or odd name is a 404
    # here, never an OS error (ENAMETOOLONG) turned into a 500.
    if not _STATIC_NAME.fullmatch(name):
        return Response(status_code=404)
    path = _STATIC.joinpath(name)
    try:
        if not path.is_file():
            return Response(status_code=404)
    except OSError:
        return Response(status_code=404)
    media = {
        "css": "text/css",
        "js": "text/javascript",
        "svg": "image/svg+xml",
        "html": "text/html",
    }.get(name.rsplit(".", 1)[-1], "application/octet-stream")
    return Response(path.read_bytes(), media_type=media)
