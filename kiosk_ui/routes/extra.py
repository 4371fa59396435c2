"""Extra player API the pages need beyond the lead's core routes.

``GET /api/tables/{id}/spots``: the bet spots this seat may add a chip to now and
may take down now, for engines that say so (craps: which hotspots are live on the
come-out and with a point). Other engines answer ``null`` and the page relies on
the view's ``legal`` list and the error message of a refused bet. The answer is
read from the engine; no rules live here.

``GET /api/jackpots``: the progressive meters of the open tables, read from their
ledger accounts, for the live meters on the lobby and the table pages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict

from kiosk_ui.routes.deps import ApplianceDep, PlayerDep
from kiosk_ui.store import ledger

router = APIRouter(prefix="/api", tags=["player"])


class SpotsOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str
    seat: int
    placeable: list[str] | None
    removable: list[str] | None


@router.get("/tables/{table_id}/spots")
def spots(
    table_id: str,
    app: ApplianceDep,
    player: PlayerDep,
    seat: Annotated[int, Query(ge=0, le=15)] = 0,
) -> SpotsOut:
    """Which bet spots this seat may place on or take down now (null: not reported)."""
    table = app.runtime.table(table_id)
    with table.lock:
        engine = table.engine
        mine = table.seats.get(seat) == player
        if engine is not None and engine.is_over:
            engine = None  # the next action starts a fresh game
        if engine is None:
            engine = table.family.new_game(table.variant, max(table.variant.seats, 1))
        in_range = 0 <= seat < max(table.variant.seats, 1)
        return SpotsOut(
            table=table_id,
            seat=seat,
            placeable=_names(engine, "placeable", seat) if in_range else None,
            removable=_names(engine, "removable", seat) if in_range and mine else None,
        )


def _names(engine: object, method: str, seat: int) -> list[str] | None:
    """``engine.<method>(seat)`` as a list of bet names, or None if the engine has no such list."""
    fn: Callable[[int], Iterable[object]] | None = getattr(engine, method, None)
    return None if fn is None else [str(x) for x in fn(seat)]


class JackpotOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    meter: str
    amount: int  # cents now on the meter (its ledger account)
    reset: int  # cents the meter is refilled to after a win
    tables: list[str]


@router.get("/jackpots")
def jackpots(app: ApplianceDep) -> list[JackpotOut]:
    """Every progressive meter of an open table, with its amount read from the ledger."""
    meters: dict[str, JackpotOut] = {}
    for table in app.tables():
        for meter, reset in table.variant.jackpots.items():
            out = meters.setdefault(
                meter, JackpotOut(meter=meter, amount=0, reset=int(reset), tables=[])
            )
            out.tables.append(table.id)
    with app.runtime.db.lock:
        for meter, out in meters.items():
            out.amount = ledger.balance(app.runtime.db.conn, ledger.jackpot(meter))
    return sorted(meters.values(), key=lambda m: m.meter)
