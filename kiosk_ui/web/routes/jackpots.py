"""``GET /api/jackpots``: the progressive meters of the open tables.

Each meter's amount is read from its ledger account, for the live meters on the
lobby and the table pages.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from kiosk_ui.store import ledger
from kiosk_ui.web.routes.deps import ApplianceDep

router = APIRouter(prefix="/api", tags=["player"])


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
    with app.runtime.db.read() as tx:
        for meter, out in meters.items():
            out.amount = tx.ledger.balance(ledger.jackpot(meter))
    return sorted(meters.values(), key=lambda m: m.meter)
