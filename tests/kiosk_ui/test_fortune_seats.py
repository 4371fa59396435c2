"""Fortune Pai Gow with several seats through the runtime: the runtime tells the round which
seats one player holds, as a logged record before the deal (issue 14 point 5)."""

from __future__ import annotations

import json
from pathlib import Path

from games.core.records import Deal, Decide, PlaceBet
from kiosk_ui.store import log_records
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes


def test_a_players_second_seat_is_set_by_the_house_way_and_the_log_says_whose(
    tmp_path: Path,
) -> None:
    """004, Fortune Game Rules: "If a Player chooses to play multiple hands they may only set
    the first hand that is viewed. Their other hands will be played "house way"." Ann holds
    seats 0 and 2, Bo seat 1: at the deal the runtime logs that 0 and 2 are one player's;
    Ann's seat 2 is set by the house way, Bo's and Ann's seat 0 are theirs to set; the game
    replays from the log and the books audit."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 100_000, operator="cage")
    table = rt.open_table("fortune", "pai-gow-fortune", seeded_outcomes(5))
    table.sit(0, ann)
    table.sit(1, bo)
    table.sit(2, ann)
    engine = table.current_engine()
    while "decline-bank" in engine.legal_actions(0) or "decline-bank" in engine.legal_actions(1):
        seat = 0 if "decline-bank" in engine.legal_actions(0) else 1
        table.act(Decide(seat=seat, decision="decline-bank"))
    for seat in (0, 1, 2):
        table.act(PlaceBet(seat=seat, bet="main", amount=1_000))
    table.act(Deal(seat=0))
    engine = table.current_engine()
    assert "house-way" in engine.legal_actions(0) or "set" in engine.legal_actions(0)
    assert "set" in engine.legal_actions(1) or "house-way" in engine.legal_actions(1)
    assert engine.legal_actions(2) == frozenset()  # Ann's second hand: the dealer's to set
    game = table.game
    assert game is not None
    records = [json.loads(x) for x in log_records.lines(rt.db.conn)]
    told = [
        (r["source"], r["game"], r["body"]["seat"], r["body"]["arg"])
        for r in records
        if r["type"] == "action" and r["body"].get("decision") == "same-player"
    ]
    assert told == [("runtime", game, None, "0 2")]
    for seat in (0, 1):
        table.act(Decide(seat=seat, decision="house-way"))
    assert table.current_engine().is_over or table.game != game
    rep = rt.replay(game)
    assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    rt.close()


def test_one_seat_per_player_logs_nothing(tmp_path: Path) -> None:
    """Nobody holds two seats: no same-player record (the rules need none)."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 100_000, operator="cage")
    table = rt.open_table("fortune", "pai-gow-fortune", seeded_outcomes(6))
    table.sit(0, ann)
    table.sit(1, bo)
    engine = table.current_engine()
    while "decline-bank" in engine.legal_actions(0) or "decline-bank" in engine.legal_actions(1):
        seat = 0 if "decline-bank" in engine.legal_actions(0) else 1
        table.act(Decide(seat=seat, decision="decline-bank"))
    for seat in (0, 1):
        table.act(PlaceBet(seat=seat, bet="main", amount=1_000))
    table.act(Deal(seat=0))
    lines = log_records.lines(rt.db.conn)
    assert not any(b'"same-player"' in line for line in lines)
    rt.close()
