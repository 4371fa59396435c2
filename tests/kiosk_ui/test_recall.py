"""For every engine: games played through the runtime replay from the log to the same settlement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certification.log.replay import render_recall, replay_game
from games import catalog
from kiosk_ui.store import log_records
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes

# house games; a poker room (player against player) is played through its room and
# recalled in tests/kiosk_ui/test_poker_room.py
VARIANTS = sorted(v for v in catalog.variants() if catalog.get_variant(v).family != "poker_room")


@pytest.mark.parametrize("variant", VARIANTS)
def test_recall_reproduces_the_settlement(tmp_path: Path, variant: str) -> None:
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    try:
        player = rt.create_player("lab")
        rt.cash_in(player, 10_000_000, operator="lab")
        table = rt.open_table("t", variant, seeded_outcomes(len(variant)))
        for seat in range(max(table.variant.seats, 1)):
            table.sit(seat, player)
        games = [play_round(table, 0) for _ in range(6)]
        rt.audit()
        for game in games:
            records = [json.loads(x) for x in log_records.game_lines(rt.db.conn, game)]
            rep = replay_game(records)
            assert rep is not None
            assert rep.matches, rep.mismatch
            settled = [e for e in rep.events if e["kind"] == "bet-settled"]
            end = next(r for r in records if r["type"] == "game-end")["body"]
            for seat, net in end["net"].items():
                mine = [e for e in settled if str(e["seat"]) == seat]
                jackpots = [
                    r["body"]["amount"]
                    for r in records
                    if r["type"] == "jackpot-paid" and str(r["body"]["seat"]) == seat
                ]
                won = sum(e["returned"] - e["commission"] - e["stake"] for e in mine)
                # the California collection (004) is part of the seat's net: its wallet's change
                fees = sum(
                    e["amount"]
                    for e in rep.events
                    if e["kind"] == "collection-charged" and str(e["seat"]) == seat
                )
                assert won + sum(jackpots) - fees == net
            text = render_recall(rep)
            assert text.startswith(f"Game {game}")
            assert "Result seat 0" in text
    finally:
        rt.close()
