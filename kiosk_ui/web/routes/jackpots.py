"""``GET /api/jackpots``: the progressive meters of the open tables.

Each meter's amount is read from its ledger account, for the live meters on the
lobby and the table pages. On a shared store the ledger is the floor's, and each
meter names the tables of every server of the floor that feed it (the lobby shows
the meter on each of their tiles).
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from games import catalog
from kiosk_ui.store import ledger
from kiosk_ui.web.routes.deps import ApplianceDep, FloorViewDep

router = APIRouter(prefix="/api", tags=["player"])


class JackpotOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    meter: str
    amount: int  # cents now on the meter (its ledger account)
    reset: int  # cents the meter is refilled to after a win
    tables: list[str]


@router.get("/jackpots")
def jackpots(app: ApplianceDep, view: FloorViewDep) -> list[JackpotOut]:
    """Every progressive meter of an open table (of any server of a shared store), with
    its amount read from the ledger."""
    tables = [(t.id, t.variant.jackpots) for t in app.tables()]
    if view.shared:
        view.watched()
        for row in view.lobby(None):
            try:
                tables.append((row["id"], catalog.get_variant(row["variant"]).jackpots))
            except KeyError:  # a variant this server does not know: no meter shown here
                continue
    meters: dict[str, JackpotOut] = {}
    for table_id, table_jackpots in tables:
        for meter, reset in table_jackpots.items():
            out = meters.setdefault(
                meter, JackpotOut(meter=meter, amount=0, reset=int(reset), tables=[])
            )
            if table_id not in out.tables:
                out.tables.append(table_id)
    with app.runtime.db.read() as tx:
        for meter, out in meters.items():
            out.amount = tx.ledger.balance(ledger.jackpot(meter))
    return sorted(meters.values(), key=lambda m: m.meter)
