"""How an error leaves the web app: the one table of error type -> (HTTP status, code).

Every answer that is not a success is JSON ``{"error": {"code", "message"}}``
(:class:`~kiosk_ui.web.schemas.ErrorResponse`, declared for the routes' error statuses
in the OpenAPI schema through :data:`ERROR_RESPONSES`). The status and code come from
the exception's type, never from its text: a kiosk error carries its own
(``kiosk_ui.errors``), the rules engines' errors know no HTTP and get theirs here. The
most specific type on the exception's MRO that the table names wins; a type it does
not name is a 500 whose message tells nothing. The message is the exception's text.
:func:`install_error_handlers` puts the handlers on the app (validation and routing
errors get the same body).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from games.core.errors import BetRefused, FoulHand, GameError, IllegalAction, UnknownGame
from kiosk_ui.errors import (
    AlreadyExists,
    AuditError,
    AuthError,
    Forbidden,
    IdempotencyConflict,
    InsufficientFunds,
    KioskError,
    LedgerError,
    NoSuchAlarm,
    NoSuchTable,
    NoSuchVoucher,
    PasswordRejected,
    SeatError,
    SignInThrottled,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    TableError,
    TableOpening,
    TableSuspended,
    UnknownOperator,
    VoucherError,
    VoucherExpired,
    VoucherNumberInvalid,
    VoucherRedeemed,
    VoucherThrottled,
)
from kiosk_ui.settings import SettingsError
from kiosk_ui.store.db import UnfinishedStore
from kiosk_ui.store.faults import is_io_error
from kiosk_ui.table.leasing import LeaseLost, TableLeased
from kiosk_ui.table.outcomes import OutcomeFault, ShoeTampered
from kiosk_ui.web.schemas import ErrorResponse

log = logging.getLogger("kiosk_ui")

#: seconds a client is told to wait after a 503 (a store fault needs the operator)
RETRY_AFTER_SECONDS = 30

INTERNAL: Final = (500, "internal")
STORE_UNAVAILABLE: Final = (StoreUnavailable.status, StoreUnavailable.code)

#: every kiosk error type, each answered with the status and code it carries
KIOSK_ERRORS: Final[tuple[type[KioskError], ...]] = (
    KioskError,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    UnfinishedStore,
    LedgerError,
    InsufficientFunds,
    AuditError,
    TableError,
    TableSuspended,
    SeatError,
    NoSuchTable,
    TableOpening,
    OutcomeFault,
    ShoeTampered,
    AuthError,
    Forbidden,
    SignInThrottled,
    AlreadyExists,
    IdempotencyConflict,
    PasswordRejected,
    UnknownOperator,
    VoucherError,
    VoucherNumberInvalid,
    NoSuchVoucher,
    VoucherRedeemed,
    VoucherExpired,
    VoucherThrottled,
    NoSuchAlarm,
    SettingsError,
    TableLeased,
    LeaseLost,
)

#: error type -> (HTTP status, code): the one place an error's answer is decided
STATUS: Final[Mapping[type[Exception], tuple[int, str]]] = {
    **{kind: (kind.status, kind.code) for kind in KIOSK_ERRORS},
    # The rules engines' errors (games/core/errors.py): a refused move is a conflict
    # with the table's state; a variant that does not exist is not found.
    FoulHand: (409, "foul-hand"),
    BetRefused: (409, "bet-refused"),
    IllegalAction: (409, "illegal-action"),
    UnknownGame: (404, "unknown-game"),
    GameError: (409, "game"),
}

#: the error statuses every API route declares, each with the one error body
ERROR_RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": ErrorResponse, "description": description}
    for status, description in (
        (401, "not signed in, or the session is not valid"),
        (403, "this role, origin or request may not do this"),
        (404, "no such table, game, player, operator, voucher or variant"),
        (409, "refused by the table, the rules, the ledger or the seat"),
        (422, "the request is malformed, or a password or key is rejected"),
        (423, "the table is suspended"),
        (429, "too many failed sign-ins or voucher numbers: wait Retry-After seconds"),
        (503, "the store cannot write: nothing changed; retry after Retry-After"),
    )
}


def status_and_code(exc: BaseException) -> tuple[int, str]:
    """The answer to ``exc``: the table's entry for the most specific type it names.

    An I/O error that escaped as it is (a read on a failing disk) is a store fault too.
    """
    if is_io_error(exc):
        return STORE_UNAVAILABLE
    for kind in type(exc).__mro__:
        answer = STATUS.get(kind)
        if answer is not None:
            return answer
    return INTERNAL


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The error body (:class:`ErrorResponse`) as JSON: ``{"error": {"code", "message"}}``."""
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers
    )


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error with the error body: validation, routing, domain, anything else.

    A 503 (store fault) carries Retry-After and reports a raw I/O error to the store's
    health first; a 500 is logged and tells the client nothing; a throttled sign-in
    carries its own Retry-After.
    """

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        msg = first.get("msg", "invalid request")
        return error_response(422, "invalid-request", f"{where}: {msg}" if where else msg)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http")
        return error_response(exc.status_code, code, str(exc.detail))

    async def _domain(request: Request, exc: Exception) -> JSONResponse:
        status, code = status_and_code(exc)
        if status == 503:
            if not isinstance(exc, StoreUnavailable):  # raw I/O error: it is a fault too
                health = request.app.state.appliance.runtime.db.health
                exc = health.report(exc, "request") or health.unavailable()
            retry = {"Retry-After": str(RETRY_AFTER_SECONDS)}
            return error_response(503, code, str(exc), retry)
        if status == 500:
            log.error("unexpected error on %s: %r", request.url.path, exc)
            return error_response(500, code, "internal error; the operator has been alerted")
        return error_response(status, code, str(exc))

    async def _throttled(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, SignInThrottled)
        answer = error_response(exc.status, exc.code, str(exc))
        answer.headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return answer

    app.add_exception_handler(SignInThrottled, _throttled)
    # Domain errors are expected answers (4xx); anything else is a 500 with no traceback.
    app.add_exception_handler(KioskError, _domain)
    app.add_exception_handler(GameError, _domain)
    app.add_exception_handler(Exception, _domain)
