"""Carried standing orders are the player's, not the seat's, through the runtime: Ann
queues jackpot chips and turns always-contribute on at a Caribbean Stud seat, leaves; Bo
sits there and antes: Bo is charged for none of Ann's orders. The game-start record names
the seat as a new player's beside the carry, so replay from the log gives the same game."""

from __future__ import annotations

from pathlib import Path

from games.core.records import Decide
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes
from .test_carry import play, start_body


def jackpot_bets(rt: Runtime, game: str) -> list[int]:
    return [
        r["body"]["amount"]
        for r in rt._game_records(game)
        if r["type"] == "event"
        and r["body"]["kind"] == "bet-placed"
        and r["body"]["bet"] == "jackpot"
    ]


def test_a_new_player_at_the_seat_is_not_charged_for_the_last_players_orders(
    tmp_path: Path,
) -> None:
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 500_000, operator="cage")
    table = rt.open_table("cs", "caribbean-stud", seeded_outcomes(9))
    table.sit(0, ann)
    for _ in range(3):
        table.act(Decide(seat=0, decision="jackpot-chip"))
    table.act(Decide(seat=0, decision="always-contribute", arg="on"))
    first = play(table, [0])
    assert jackpot_bets(rt, first) == [100]
    assert rt.leave("cs", 0, ann) == "now"

    table.sit(0, bo)
    before = rt.balance(bo)
    assert not table.current_engine().view(0)["always_contribute"]
    second = play(table, [0])
    body = start_body(rt, second)
    assert body["carry"] == {"always_contribute": [0], "jackpot_queue": {"0": 2}}
    assert body["new_players"] == [0]
    assert jackpot_bets(rt, second) == []
    nets = [r["body"]["net"] for r in rt._game_records(second) if r["type"] == "game-end"]
    assert rt.balance(bo) - before == nets[0]["0"]  # Bo paid his own ante and call only
    rep = rt.replay(second)
    assert rep is not None and rep.matches, rep and rep.mismatch
    assert not rep.engine.always_contribute
    rt.audit()
    rt.close()
