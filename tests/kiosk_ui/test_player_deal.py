"""Baccarat's "Player as Dealer" at an RNG table (page 000: "the player is given the shoe
and clicks it for each card"): the runtime waits for each of the dealing seat's clicks,
refuses a card asked by anyone else, and the action clock deals for a seat that stops."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.core.errors import IllegalAction
from games.core.records import Deal, Decide, PlaceBet
from kiosk_ui.store import log_records
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.table.seats import default_action

from .conftest import seeded_outcomes


@pytest.fixture
def runtime(tmp_path: Path) -> Runtime:  # SQLite only: the store is not what is tested here
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    yield rt  # type: ignore[misc]
    rt.close()


def test_each_card_waits_for_the_dealing_seat(runtime: Runtime) -> None:
    ann, bob = runtime.create_player("Ann"), runtime.create_player("Bob")
    for p in (ann, bob):
        runtime.cash_in(p, 10_000, operator="cage")
    table = runtime.open_table("bac", "baccarat-ez", seeded_outcomes(5))  # seven seats
    table.sit(0, ann)
    table.sit(1, bob)
    table.act(Decide(seat=0, decision="dealer", arg="player"))
    table.act(PlaceBet(seat=0, bet="player", amount=500))
    table.act(PlaceBet(seat=1, bet="banker", amount=500))
    after_deal = table.act(Deal(seat=0))
    assert not [e for e in after_deal.events if e["kind"] == "card-shown"]  # none yet
    with pytest.raises(IllegalAction, match="no card to deal"):
        table.act(Decide(seat=1, decision="deal-card"))  # Bob is not dealing
    clicks = 0
    while table.engine is not None and not table.engine.is_over:
        out = table.act(Decide(seat=0, decision="deal-card"))
        assert len([e for e in out.events if e["kind"] == "card-shown"]) == 1
        clicks += 1
    assert 4 <= clicks <= 6
    records = [json.loads(line) for line in log_records.lines(runtime.db.conn)]
    dealt = [r for r in records if r["type"] == "action" and r["body"]["kind"] == "deal-card"]
    assert len(dealt) == clicks and all(r["body"]["seat"] == 0 for r in dealt)
    report = runtime.audit()
    assert report["total"] == 0 and report["games_settled"] == 1


def test_the_clock_deals_for_a_seat_that_stops(runtime: Runtime) -> None:
    ann = runtime.create_player("Ann")
    runtime.cash_in(ann, 10_000, operator="cage")
    table = runtime.open_table("bac", "baccarat-pinnacle", seeded_outcomes(6))
    table.sit(0, ann)
    table.act(Decide(seat=0, decision="dealer", arg="player"))
    table.act(PlaceBet(seat=0, bet="player", amount=500))
    table.act(Deal(seat=0))
    assert table.engine is not None
    action = default_action(table.engine, 0, deals=True)
    assert action == Decide(seat=0, decision="deal-card")
    while not table.engine.is_over:
        table.act_many([Decide(seat=0, decision="deal-card")], by="timeout")
    assert len(runtime.history(ann)) == 1
