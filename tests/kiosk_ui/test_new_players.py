"""Carried standing orders are the player's, not the seat's, through the runtime: Ann
queues jackpot chips and turns always-contribute on at a Caribbean Stud seat, leaves; Bo
sits there and antes: Bo is charged for none of Ann's orders. The game-start record names
the seat as a new player's beside the carry, so replay from the log gives the same game."""

from __future__ import annotations

from pathlib import Path

from games.core.records import Decide
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.table.table import Table

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


def stud_with_ann_seated(tmp_path: Path) -> tuple[Runtime, Table, str, str]:
    """A Caribbean Stud table with Ann at seat 0 and Bo funded beside it (both $5,000)."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 500_000, operator="cage")
    table = rt.open_table("cs", "caribbean-stud", seeded_outcomes(9))
    table.sit(0, ann)
    return rt, table, ann, bo


def test_a_new_player_at_the_seat_is_not_charged_for_the_last_players_orders(
    tmp_path: Path,
) -> None:
    rt, table, ann, bo = stud_with_ann_seated(tmp_path)
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


def test_chips_queued_in_an_open_game_by_a_player_who_leaves_before_its_deal_stay_theirs(
    tmp_path: Path,
) -> None:
    """Ann queues jackpot chips and turns always-contribute on in a game not yet dealt (the
    game is open: its first action was hers), then leaves before its deal; Bo takes the
    seat in that same game and antes: the queue and the button were Ann's orders, so Bo
    is charged no jackpot chip (a queued chip is no stake: nothing of Ann's moves)."""
    rt, table, ann, bo = stud_with_ann_seated(tmp_path)
    for _ in range(2):
        table.act(Decide(seat=0, decision="jackpot-chip"))
    table.act(Decide(seat=0, decision="always-contribute", arg="on"))
    game = table.game
    assert game is not None and table.current_engine().view(0)["jackpot_queue"] == {"0": 2}
    assert rt.leave("cs", 0, ann) == "now"  # a queued chip is not a stake: she goes now
    assert rt.balance(ann) == 500_000  # and nothing of hers moved

    table.sit(0, bo)
    view = table.view(0)["state"]
    assert view["jackpot_queue"] == {} and view["always_contribute"] == []
    before = rt.balance(bo)
    played = play(table, [0])
    assert played == game  # the same game Ann opened
    assert jackpot_bets(rt, played) == []
    nets = [r["body"]["net"] for r in rt._game_records(played) if r["type"] == "game-end"]
    assert rt.balance(bo) - before == nets[0]["0"]
    assert rt.balance(ann) == 500_000
    rep = rt.replay(played)  # the orders taken back are logged: a replay agrees
    assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    rt.close()
