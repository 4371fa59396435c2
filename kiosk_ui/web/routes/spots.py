"""``GET /api/tables/{id}/spots``: the bet spots a seat may add a chip to, or take down, now.

For engines with the :class:`~games.core.capabilities.Spots` capability (craps: which
hotspots are live on the come-out and with a point). Other engines answer ``null`` and
the page relies on the view's ``legal`` list and the error message of a refused bet.
The answer is read from the engine; no rules live here.
"""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from games.core.capabilities import Spots
from kiosk_ui.web.routes.deps import ApplianceDep, PlayerDep, SeatQuery

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
    seat: SeatQuery = 0,
) -> SpotsOut:
    """Which bet spots this seat may place on or take down now (null: not reported)."""
    table = app.runtime.table_for(table_id, player)
    with table.lock:
        engine = table.engine
        mine = table.seats.get(seat) == player
        if engine is not None and engine.is_over:
            engine = None  # the next action starts a fresh game
        if engine is None:
            engine = table.family.new_game(table.variant, max(table.variant.seats, 1))
        in_range = 0 <= seat < max(table.variant.seats, 1)
        layout = engine if in_range and isinstance(engine, Spots) else None
        return SpotsOut(
            table=table_id,
            seat=seat,
            placeable=None if layout is None else _names(layout.placeable(seat)),
            removable=None if layout is None or not mine else _names(layout.removable(seat)),
        )


def _names(spots: Iterable[object]) -> list[str]:
    """The engine's spot names as the JSON list the page reads."""
    return [str(x) for x in spots]
