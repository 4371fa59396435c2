"""Operator API (authenticated): devices, RNG health, tables, wallets, log, audit.

Every state-changing call is written to the game log with the operator's name.
Roles: operator (tables, wallets), technician (devices, RNG), auditor (read-only
log and audit); admin does everything.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool

from certification.install.errors import InstallError
from certification.install.seal import check_install
from certification.log.errors import LogIntegrityError
from certification.log.verify import verify_lines
from kiosk_ui.errors import AuditError
from kiosk_ui.table.table import Table
from kiosk_ui.web import schemas
from kiosk_ui.web.routes.deps import (
    OPERATOR_COOKIE,
    ApplianceDep,
    FloorDep,
    FloorViewDep,
    LiveDep,
    OperatorDep,
)

router = APIRouter(prefix="/api/operator", tags=["operator"])


_THROTTLED: dict[int | str, dict[str, Any]] = {
    429: {
        "model": schemas.ErrorResponse,
        "description": "too many failed sign-ins for this user or address (see Retry-After)",
        "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
    }
}


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


@router.post("/login", responses=_THROTTLED)
def login(
    body: schemas.Login, request: Request, response: Response, app: ApplianceDep
) -> schemas.SessionOut:
    """Sign in. Failures lock the user name and throttle the address (429, Retry-After)."""
    sess = app.operators.login(
        body.user, body.password, app.settings.session_minutes, _address(request)
    )
    response.set_cookie(OPERATOR_COOKIE, sess.token, httponly=True, samesite="strict")
    return schemas.SessionOut(**asdict(sess))


@router.get("/me")
def me(session: OperatorDep) -> schemas.OperatorMe:
    """Who is signed in on this session (the console shows the admin panel by role)."""
    return schemas.OperatorMe(user=session.user, role=session.role, expires=session.expires)


@router.post("/password", responses=_THROTTLED)
def change_password(
    body: schemas.PasswordChange, request: Request, app: ApplianceDep, session: OperatorDep
) -> dict[str, bool]:
    """Change your own password with the old one; your other sessions end."""
    app.operators.change_password(session, body.old_password, body.new_password, _address(request))
    return {"ok": True}


@router.post("/logout")
def logout(response: Response, app: ApplianceDep, session: OperatorDep) -> dict[str, bool]:
    app.operators.logout(session.token)
    response.delete_cookie(OPERATOR_COOKIE)
    return {"ok": True}


@router.get("/devices")
def devices(app: ApplianceDep, session: OperatorDep) -> list[dict[str, Any]]:
    """Every configured device: state, identity, firmware, counters, last fault."""
    app.operators.session(session.token, "technician", "operator", "auditor")
    out = []
    for st in app.device_status():
        d = asdict(st)
        d["state"] = str(st.state)
        out.append(d)
    return out


@router.get("/rng")
def rng_health(app: ApplianceDep, session: OperatorDep) -> dict[str, Any]:
    """Entropy sources, health-test counters, last failure, DRBG reseeds, bytes served."""
    return app.rng_status()


def table_row(t: Table, alarm: Any) -> dict[str, Any]:
    """A table as the console lists it: its game, seats and state (never a card)."""
    return {
        "id": t.id,
        "variant": t.variant.id,
        "title": t.variant.title,
        "source": t.source.name,
        "game": t.game,
        "suspended": t.suspended,
        "alarm": alarm,
        "seats": {str(k): v for k, v in list(t.seats.items())},
        "sitting_out": sorted(t.sitting_out),
        "per_player": t.per_player,
        # A per-player table: each player's own open game.
        "games": {p: g.game for p, g in list(t.games_of.items()) if g.game is not None},
    }


@router.get("/tables")
def tables(app: ApplianceDep, session: OperatorDep) -> list[dict[str, Any]]:
    """Every table this server serves; ``alarm`` is the open store fault (a full disk, an
    I/O error) that suspends them all until the operator resumes one of them. The whole
    floor's tables are ``GET /api/operator/floor``."""
    alarm = app.runtime.db.health.alarm()
    return [table_row(t, alarm) for t in app.tables()]


@router.get("/floor")
def floor(session: OperatorDep, view: FloorViewDep) -> list[dict[str, Any]]:
    """On a shared store (a floor, or ``serve --workers``): every leased table, who
    serves it (``holder``, its ``url``; ``here``: this process) and for how long yet
    (``seconds_left``), with its state as its server's console lists it (``answered``
    false: that server does not answer, its last known state); empty otherwise."""
    view.watched()
    return list(view.snapshot()["tables"]) if view.shared else []


@router.get("/recoveries")
def recoveries(app: ApplianceDep, session: OperatorDep) -> list[dict[str, str]]:
    """What start-up recovery did with each game the store had open: resumed, voided,
    suspended (its stored shoe no longer matches its commitment) or mismatch (the
    store's status disagreed with the log, which decided)."""
    return [asdict(r) for r in app.recoveries]


@router.post("/tables/{table_id}/seats/{seat}/free")
def free_seat(table_id: str, seat: int, app: ApplianceDep, session: OperatorDep) -> dict[str, Any]:
    """Free a shared table's seat (at once, or when the game holding its stakes ends)."""
    app.operators.session(session.token, "operator")
    return app.runtime.free_seat(table_id, seat, by=f"operator:{session.user}")


@router.post("/tables/{table_id}/suspend")
def suspend(
    table_id: str,
    body: schemas.SuspendIn,
    app: ApplianceDep,
    session: OperatorDep,
    live: LiveDep,
) -> dict[str, Any]:
    """Suspend the table; every open page of it hears so over the table's WebSocket."""
    app.operators.session(session.token, "operator", "technician")
    table = app.runtime.table(table_id)
    table.suspend(f"by {session.user}: {body.reason}")
    live.publish(table_id, {"type": "suspended"})  # no reason: the operator's words stay here
    return {"table": table_id, "suspended": table.suspended}


@router.post("/tables/{table_id}/resume")
def resume(table_id: str, app: ApplianceDep, session: OperatorDep, live: LiveDep) -> dict[str, Any]:
    """Resume the table; its open pages hear so and take their spots back without a reload."""
    app.operators.session(session.token, "operator", "technician")
    table = app.runtime.table(table_id)
    table.resume(session.user)
    live.publish(table_id, {"type": "resumed"})
    return {"table": table_id, "suspended": None}


@router.post("/tables/{table_id}/void")
def void(
    table_id: str, body: schemas.VoidIn, app: ApplianceDep, session: OperatorDep
) -> dict[str, Any]:
    """Void the table's suspended game: every stake still on the layout is returned."""
    app.operators.session(session.token, "operator")
    games = app.runtime.void_table(
        table_id, reason=f"{body.reason} (by {session.user})", by=f"operator:{session.user}"
    )
    returned: dict[str, int] = {}  # by seat:bet, summed over a per-player table's games
    for back in games.values():
        for k, v in back.items():
            returned[k] = returned.get(k, 0) + v
    return {"table": table_id, "returned": returned, "games": games}


@router.get("/players")
def players(app: ApplianceDep, session: OperatorDep) -> list[schemas.PlayerOut]:
    with app.runtime.db.read() as tx:
        rows = tx.players.roster()
    return [
        schemas.PlayerOut(id=pid, name=name, balance=balance, demo=app.settings.demo)
        for pid, name, balance in rows
    ]


@router.post("/players/{player}/cash-in")
def cash_in(
    player: str, body: schemas.CashIn, app: ApplianceDep, session: OperatorDep
) -> dict[str, Any]:
    app.operators.session(session.token, "operator")
    return {"player": player, "balance": app.runtime.cash_in(player, body.amount, session.user)}


@router.post("/players/{player}/cash-out")
def cash_out(
    player: str, body: schemas.CashIn, app: ApplianceDep, session: OperatorDep
) -> dict[str, Any]:
    app.operators.session(session.token, "operator")
    return {"player": player, "balance": app.runtime.cash_out(player, body.amount, session.user)}


@router.post("/log/verify")
async def verify(app: ApplianceDep, floor: FloorDep, session: OperatorDep) -> schemas.VerifyOut:
    """Verify the whole signed log with the store's own key chain, as a regulator would."""

    def run() -> schemas.VerifyOut:
        with app.runtime.db.read() as tx:
            lines = tx.log.lines()
        try:
            # The store's own first key: this checks integrity; a regulator checks
            # authenticity with `croupier log verify` and a key obtained out of band.
            rep = verify_lines(lines, [_first_key(lines)])
        except LogIntegrityError as exc:
            floor.integrity("log-verify", f"the signed log fails verification: {exc}")
            return schemas.VerifyOut(
                ok=False, records=len(lines), checkpoints=0, last_signed_seq=0,
                unsigned_tail=0, message=str(exc),
            )  # fmt: skip
        return schemas.VerifyOut(
            ok=True,
            records=rep.records,
            checkpoints=rep.checkpoints,
            last_signed_seq=rep.last_signed_seq,
            unsigned_tail=rep.unsigned_tail,
            message=f"{rep.records} records verified",
        )

    return await run_in_threadpool(run)


def _first_key(lines: list[bytes]) -> Any:
    import json

    from certification.log.keys import load_public_key

    try:
        return load_public_key(json.loads(lines[0])["body"]["public_key"])
    except (IndexError, KeyError, ValueError):
        raise LogIntegrityError("record 1: the log has no valid start record", seq=1) from None


@router.get("/audit")
def audit(app: ApplianceDep, floor: FloorDep, session: OperatorDep) -> schemas.AuditOut:
    try:
        report = app.runtime.audit()
    except AuditError as exc:
        floor.integrity("ledger-audit", f"the ledger audit fails: {exc}")
        return schemas.AuditOut(ok=False, message=str(exc), report={})
    return schemas.AuditOut(ok=True, message="the ledger balances", report=report)


@router.post("/install/verify")
async def verify_install(app: ApplianceDep, session: OperatorDep) -> dict[str, Any]:
    """Check the installed software against its signed seal (files hashed again, off the loop)."""

    def run() -> dict[str, Any]:
        try:
            check = check_install(app.settings.store)
        except InstallError as exc:
            return {"ok": False, "message": str(exc)}
        words = "matches its seal" if check.ok else check.difference.summary()
        return {"message": f"installed software {words}", **check.as_dict()}

    return await run_in_threadpool(run)


@router.get(
    "/pubkey",
    response_class=Response,
    responses={
        200: {
            "description": "the log's Ed25519 public key (PEM)",
            "content": {"application/x-pem-file": {"schema": {"type": "string"}}},
        }
    },
)
def pubkey(app: ApplianceDep, session: OperatorDep) -> Response:
    return Response(app.runtime.log.public_key_pem(), media_type="application/x-pem-file")


@router.post("/log/rotate-key")
def rotate_key(app: ApplianceDep, session: OperatorDep) -> dict[str, str]:
    """Start signing with a new key; the rotation is a log record signed by the old key."""
    app.operators.session(session.token, "admin")
    key_id = app.runtime.log.rotate_key(session.user)
    return {"key_id": key_id, "public_key": app.runtime.log.public_key_pem()}


@router.post("/operators", status_code=201)
def add_operator(
    body: schemas.NewOperator, app: ApplianceDep, session: OperatorDep
) -> dict[str, str]:
    """Admin only: add an operator, technician or auditor."""
    app.operators.session(session.token, "admin")
    app.operators.add(body.user, body.password, body.role, by=session.user)
    return {"user": body.user, "role": body.role}


@router.get("/operators")
def list_operators(app: ApplianceDep, session: OperatorDep) -> list[schemas.OperatorOut]:
    """Admin only: every operator account with its role and whether it is disabled."""
    app.operators.session(session.token, "admin")
    return [schemas.OperatorOut(**a) for a in app.operators.accounts()]


@router.post("/operators/{user}/disable")
def disable_operator(user: str, app: ApplianceDep, session: OperatorDep) -> schemas.OperatorOut:
    """Admin only: the operator can no longer sign in, and their sessions end now."""
    app.operators.session(session.token, "admin")
    app.operators.set_disabled(user, True, by=session.user)
    return _account(app, user)


@router.post("/operators/{user}/enable")
def enable_operator(user: str, app: ApplianceDep, session: OperatorDep) -> schemas.OperatorOut:
    """Admin only: a disabled operator may sign in again."""
    app.operators.session(session.token, "admin")
    app.operators.set_disabled(user, False, by=session.user)
    return _account(app, user)


@router.post("/operators/{user}/password")
def reset_password(
    user: str, body: schemas.PasswordReset, app: ApplianceDep, session: OperatorDep
) -> schemas.OperatorOut:
    """Admin only: set an operator's password; their sessions end and any lock clears."""
    app.operators.session(session.token, "admin")
    app.operators.reset_password(user, body.password, by=session.user)
    return _account(app, user)


@router.post("/operators/{user}/role")
def set_role(
    user: str, body: schemas.RoleIn, app: ApplianceDep, session: OperatorDep
) -> schemas.OperatorOut:
    """Admin only: give an operator another role; their sessions end at once."""
    app.operators.session(session.token, "admin")
    app.operators.set_role(user, body.role, by=session.user)
    return _account(app, user)


def _account(app: ApplianceDep, user: str) -> schemas.OperatorOut:
    return next(schemas.OperatorOut(**a) for a in app.operators.accounts() if a["user"] == user)
