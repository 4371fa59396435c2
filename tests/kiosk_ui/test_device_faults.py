"""A device fault mid-game suspends the table; the game resumes once the device is back,
or an operator voids it. No fault ever becomes a card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge import open_device
from games.core.records import Deal, PlaceBet
from kiosk_ui.errors import TableSuspended
from kiosk_ui.store import log_records
from kiosk_ui.table.outcomes import DeviceOutcomes
from kiosk_ui.table.runtime import Runtime


@pytest.fixture
def live(tmp_path: Path):
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    shoe = open_device("sim://shoe?seed=5")
    player = rt.create_player("Ann")
    rt.cash_in(player, 100_000, operator="cage")
    table = rt.open_table("live", "baccarat-pinnacle", DeviceOutcomes(shoe, timeout=5))
    table.sit(0, player)
    yield rt, table, shoe, player
    shoe.close()
    rt.close()


def _cards_in_log(rt: Runtime, game: str) -> list[str]:
    out = []
    for line in log_records.game_lines(rt.db.conn, game):
        rec = json.loads(line)
        if rec["type"] == "action" and rec["body"]["kind"] == "deal-card":
            out.append(rec["body"]["card"])
    return out


def test_jam_suspends_then_the_game_resumes_with_the_same_cards(live) -> None:
    rt, table, shoe, player = live
    table.act(PlaceBet(seat=0, bet="banker", amount=1_000))
    table.act(Deal(seat=0))
    shoe.inject("jam")
    with pytest.raises(TableSuspended, match="CardJam"):
        table.advance()
    assert table.suspended
    game = table.game
    assert game is not None
    before = _cards_in_log(rt, game)
    assert table.engine is not None
    assert not table.engine.is_over  # nothing was invented for the jammed card
    table.resume("tech")
    table.advance()
    assert table.engine.is_over
    after = _cards_in_log(rt, game)
    assert after[: len(before)] == before
    assert rt.history(player)[0]["game"] == game
    rt.audit()


def test_operator_voids_a_suspended_live_game(live) -> None:
    rt, table, shoe, player = live
    table.act(PlaceBet(seat=0, bet="player", amount=2_500))
    table.act(Deal(seat=0))
    shoe.inject("misread")
    with pytest.raises(TableSuspended):
        table.advance()
    assert table.game is not None
    returned = rt.void(table.game, reason="misread card", by="operator:sam")
    assert returned == {"0:player": 2_500}
    assert rt.balance(player) == 100_000
    rt.audit()
