"""Dependency providers: the appliance, the calling player, the operator session."""

from __future__ import annotations

from typing import Annotated

from fastapi import Cookie, Depends, Header, Query, Request
from fastapi.security import APIKeyCookie, APIKeyHeader

from kiosk_ui.appliance import Appliance
from kiosk_ui.auth import Session
from kiosk_ui.cashier.floor import Floor
from kiosk_ui.identity import PlayerTokens
from kiosk_ui.web.floor_view import FloorView
from kiosk_ui.web.live import Broadcaster

PLAYER_COOKIE = "croupier_player"
OPERATOR_COOKIE = "croupier_operator"


def appliance_of(request: Request) -> Appliance:
    app: Appliance = request.app.state.appliance
    return app


# Dependencies are ``async def``: they only read app state, and a sync dependency would
# cost a thread-pool hop per request.
async def appliance(request: Request) -> Appliance:
    return appliance_of(request)


async def live(request: Request) -> Broadcaster:
    b: Broadcaster = request.app.state.live
    return b


async def floor(request: Request) -> Floor:
    """The cashier, attendant calls and live alarms of the served appliance."""
    f: Floor = request.app.state.floor
    return f


async def floor_view(request: Request) -> FloorView:
    """Every server's tables of a shared store (:mod:`kiosk_ui.web.floor_view`)."""
    v: FloorView = request.app.state.floor_view
    return v


def tokens(request: Request) -> PlayerTokens:
    t: PlayerTokens = request.app.state.tokens
    return t


# The player's token, as OpenAPI security schemes: documented in the contract, and read
# straight from the request (cheaper than Header/Cookie parameters on every request).
PLAYER_HEADER = APIKeyHeader(
    name="X-Player-Token",
    auto_error=False,
    description="API clients: the token from POST /api/players",
)
PLAYER_COOKIE_KEY = APIKeyCookie(
    name=PLAYER_COOKIE, auto_error=False, description="Kiosk pages: set by POST /api/players"
)


async def player_id(
    request: Request,
    x_player_token: Annotated[str | None, Depends(PLAYER_HEADER)],
    croupier_player: Annotated[str | None, Depends(PLAYER_COOKIE_KEY)],
) -> str:
    """The player bound to this kiosk session (cookie) or API client (X-Player-Token)."""
    pid = tokens(request).player(x_player_token or croupier_player)
    if not appliance_of(request).runtime.player_exists(pid):
        from kiosk_ui.errors import AuthError

        raise AuthError("unknown player: start a new session in the lobby")
    return pid


async def operator_session(
    request: Request,
    croupier_operator: Annotated[str | None, Cookie()] = None,
    authorization: Annotated[str | None, Header()] = None,
) -> Session:
    token = croupier_operator
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip()
    return appliance_of(request).operators.session(token)


ApplianceDep = Annotated[Appliance, Depends(appliance)]
PlayerDep = Annotated[str, Depends(player_id)]
OperatorDep = Annotated[Session, Depends(operator_session)]
LiveDep = Annotated[Broadcaster, Depends(live)]
FloorDep = Annotated[Floor, Depends(floor)]
FloorViewDep = Annotated[FloorView, Depends(floor_view)]
#: the ``?seat=`` of a player's table routes: a seat number 0..15
SeatQuery = Annotated[int, Query(ge=0, le=15)]
