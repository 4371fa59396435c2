"""The FastAPI application: a thin adapter from HTTP to the table runtime.

``create_app(settings)`` builds the :class:`~kiosk_ui.appliance.Appliance` in the
lifespan (making the store if there is none: the library and test path) and puts it
in ``app.state``; ``croupier serve`` builds its Appliance before uvicorn starts
(an existing store only) and passes it in, so start-up errors are one line. Routes
translate requests into domain actions and back, and never hold rules logic. Every
error leaves as JSON ``{"error": {"code", "message"}}`` with a stable code chosen by
the error's type (``kiosk_ui.web.errors``: one table); no traceback is sent.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial

from fastapi import FastAPI
from starlette.types import ASGIApp

from kiosk_ui.appliance import Appliance
from kiosk_ui.cashier.floor import Floor
from kiosk_ui.identity import Handoffs, PlayerTokens
from kiosk_ui.settings import Settings
from kiosk_ui.table.clock import SeatClock
from kiosk_ui.table.commit import LoopCommitter
from kiosk_ui.web.errors import ERROR_RESPONSES, install_error_handlers
from kiosk_ui.web.floor_view import FloorView
from kiosk_ui.web.live import Broadcaster
from kiosk_ui.web.middleware import BodyLimit, OriginCheck, SecurityHeaders


class _App(FastAPI):
    """FastAPI with :class:`SecurityHeaders` outside its whole stack: Starlette's
    server-error middleware (which answers an unexpected error with 500) sits outside any
    ``add_middleware`` one, and that answer needs the headers as much as any other."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(
    settings: Settings,
    *,
    on_ready: Callable[[str | None], None] | None = None,
    max_body: int | None = None,
    appliance: Appliance | None = None,
    url: str | None = None,
) -> FastAPI:
    """The app serving ``settings``' appliance (``appliance``: one already built);
    ``url``: where this server is reached, advertised to the other servers of a shared
    store (:mod:`kiosk_ui.web.floor_view`; None: the floor sees this one's tables only
    when it asks the store, never linked)."""
    built = appliance

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        appliance = built if built is not None else Appliance(settings, create=True)
        app.state.appliance = appliance
        app.state.tokens = PlayerTokens(settings.store)
        app.state.handoffs = Handoffs(app.state.tokens, url)  # sessions from the floor
        app.state.live = Broadcaster()
        app.state.committer = LoopCommitter(appliance.runtime)
        app.state.live.start_device_tables(appliance)
        app.state.seat_clock = SeatClock(
            appliance.runtime, app.state.committer, app.state.live.publish
        )
        app.state.seat_clock.start()
        app.state.floor = Floor(appliance)  # vouchers, attendant calls, live alarms
        app.state.floor.start()
        secret = app.state.tokens.derived("floor-peer")  # the floor's servers know it
        app.state.floor_view = FloorView(
            appliance.runtime, secret, url, local=partial(floor.here_part, app.state)
        )
        app.state.floor_view.start()
        # Everything made at start-up lives as long as the server: keep it out of the
        # collector's full passes, which otherwise pause every request now and then.
        gc.collect()
        gc.freeze()
        if on_ready is not None:
            on_ready(appliance.generated_password)
        try:
            yield
        finally:
            appliance.begin_stop()  # no table taken over while stopping (appliance.py)
            try:
                await app.state.seat_clock.stop()
                app.state.floor_view.stop()
                app.state.floor.stop()
                app.state.live.stop()
                app.state.committer.close()
            finally:  # whatever failed above, the leases are given up and the store closed
                appliance.close()

    app = _App(
        title="Croupier",
        version="0.1.0",
        summary="Casino table appliance: tables, wallets, history and the operator console.",
        lifespan=lifespan,
    )

    install_error_handlers(app)

    from kiosk_ui.web.routes import (
        alarms,
        cashier,
        certify_jobs,
        floor,
        jackpots,
        operator,
        pages,
        player,
        rooms,
        spots,
    )

    # Every API route declares its error answers with the one body (ErrorResponse).
    app.include_router(player.router, responses=ERROR_RESPONSES)
    app.include_router(operator.router, responses=ERROR_RESPONSES)
    app.include_router(pages.router)
    app.include_router(spots.router, responses=ERROR_RESPONSES)
    app.include_router(jackpots.router, responses=ERROR_RESPONSES)
    app.include_router(certify_jobs.router, responses=ERROR_RESPONSES)
    app.include_router(cashier.router, responses=ERROR_RESPONSES)
    app.include_router(alarms.router, responses=ERROR_RESPONSES)
    app.include_router(rooms.router, responses=ERROR_RESPONSES)
    app.include_router(floor.router, responses=ERROR_RESPONSES)
    # Outermost last: a cross-origin request is refused before its body is read; no body
    # passes the limit. The security headers wrap even these (see _App).
    app.add_middleware(BodyLimit, limit=max_body or settings.max_body_bytes)
    app.add_middleware(OriginCheck)
    return app
