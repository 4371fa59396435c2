"""Cashier API: the kiosk's settings, ticket-out, ticket-in, the session's idle end, and
the operator's cage (vouchers listed, paid in cash, expired ones closed).

A kiosk page names its terminal (``kiosk``: its ``?kiosk=`` address, kept by the page)
or gets ``[kiosk] name``. The validation number travels only in request bodies and in
the one answer that prints it (never in a URL, a log line or a list).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import Field

from kiosk_ui.settings import ID_PATTERN
from kiosk_ui.web import schemas
from kiosk_ui.web.routes.deps import PLAYER_COOKIE, ApplianceDep, FloorDep, OperatorDep, PlayerDep

router = APIRouter(prefix="/api", tags=["cashier"])

KioskName = Annotated[str | None, Field(default=None, pattern=ID_PATTERN)]


class VoucherIn(schemas.StrictIn):
    """Ticket-out: the whole balance unless ``amount`` (cents) says less."""

    kiosk: KioskName = None
    amount: int | None = Field(default=None, gt=0, le=100_000_000)


class RedeemIn(schemas.StrictIn):
    """Ticket-in or the cage: the validation number as printed (spaces allowed)."""

    number: str = Field(min_length=1, max_length=64)
    kiosk: KioskName = None


class KioskIn(schemas.StrictIn):
    kiosk: KioskName = None


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


@router.get("/kiosk")
def kiosk_settings(app: ApplianceDep) -> dict[str, Any]:
    """What a kiosk page needs of the configuration: its default name, the idle time
    after which the session ends, what happens to the wallet then, voucher expiry."""
    s = app.settings
    return {
        "name": s.kiosk_name,
        "idle_seconds": s.idle_seconds,
        "at_idle": s.at_idle,
        "voucher_days": s.voucher_days,
    }


@router.post("/vouchers", status_code=201)
def cash_out(
    body: VoucherIn, response: Response, app: ApplianceDep, floor: FloorDep, player: PlayerDep
) -> dict[str, Any]:
    """Cash out to a voucher (the whole balance by default); the answer is the only
    place its validation number appears. Cashing out everything ends the session,
    unless a bet of the player's is still on a layout (what it wins comes back to this
    session's wallet)."""
    kiosk = body.kiosk or app.settings.kiosk_name
    voucher = floor.cashier.issue(player, kiosk, body.amount)
    balance = app.runtime.balance(player)
    ended = balance == 0 and not floor.in_play(player)
    if ended:
        response.delete_cookie(PLAYER_COOKIE)
    return {"voucher": voucher.out(), "balance": balance, "session_ended": ended}


@router.post("/vouchers/redeem")
def ticket_in(
    body: RedeemIn, request: Request, app: ApplianceDep, floor: FloorDep, player: PlayerDep
) -> dict[str, Any]:
    """Ticket-in: pay a voucher into this player's wallet, once. Wrong numbers from one
    address are counted: after 10 it is locked out (429, Retry-After)."""
    kiosk = body.kiosk or app.settings.kiosk_name
    voucher, balance = floor.cashier.redeem(
        body.number, player=player, kiosk=kiosk, address=_address(request)
    )
    return {"voucher": voucher.out(), "balance": balance}


@router.post("/session/idle")
def idle(
    body: KioskIn, response: Response, app: ApplianceDep, floor: FloorDep, player: PlayerDep
) -> dict[str, Any]:
    """The kiosk saw no touch for ``[kiosk] idle_seconds``: with ``at_idle = "voucher"``
    the balance is paid to a voucher and the session ends; with ``"keep"`` the wallet
    stays this session's and nothing changes. Neither while a bet of the player's is on a
    layout (``in_play``: the page stays where it is)."""
    if floor.in_play(player):
        return {"voucher": None, "session_ended": False, "in_play": True}
    if app.settings.at_idle != "voucher" or app.runtime.balance(player) <= 0:
        return {"voucher": None, "session_ended": False, "in_play": False}
    voucher = floor.cashier.issue(player, body.kiosk or app.settings.kiosk_name)
    response.delete_cookie(PLAYER_COOKIE)
    return {"voucher": voucher.out(), "session_ended": True, "in_play": False}


# --- the cage (operators) ---------------------------------------------------------


@router.get("/operator/vouchers")
def vouchers(app: ApplianceDep, floor: FloorDep, session: OperatorDep) -> dict[str, Any]:
    """The newest vouchers (never their numbers) and the unpaid count and sum."""
    app.operators.session(session.token, "operator", "auditor")
    listed, count, total = floor.cashier.recent()
    return {"vouchers": [v.out() for v in listed], "outstanding": count, "liability": total}


@router.post("/operator/vouchers/redeem")
def cage(
    body: RedeemIn, request: Request, app: ApplianceDep, floor: FloorDep, session: OperatorDep
) -> dict[str, Any]:
    """Pay a voucher in cash at the cage, once (same checks and counting as ticket-in)."""
    app.operators.session(session.token, "operator")
    voucher, _ = floor.cashier.redeem(body.number, operator=session.user, address=_address(request))
    return {"voucher": voucher.out()}


@router.post("/operator/vouchers/expire")
def expire(app: ApplianceDep, floor: FloorDep, session: OperatorDep) -> dict[str, Any]:
    """Close every voucher past its expiry: its amount goes to the house."""
    app.operators.session(session.token, "operator")
    closed = floor.cashier.expire_due(f"operator:{session.user}")
    return {"expired": [v.out() for v in closed]}
