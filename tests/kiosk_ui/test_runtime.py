"""The table runtime on a real store, SQLite and PostgreSQL alike (the store conformance
suite's runtime half; its store half is test_store_conformance.py): ledger, log,
history, recall, recovery, group commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certification.log.verify import verify_lines
from games.core.errors import IllegalAction
from games.core.records import Deal, PlaceBet
from kiosk_ui.errors import InsufficientFunds, SeatError
from kiosk_ui.store import log_records
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes


def play_rounds(rt: Runtime, table_id: str, player: str, rounds: int) -> None:
    table = rt.table(table_id)
    for _ in range(rounds):
        play_round(table, 0)


def test_rounds_balance_and_the_log_verifies(runtime: Runtime, tmp_path: Path) -> None:
    player = runtime.create_player("Ann")
    runtime.cash_in(player, 100_000, operator="cage")
    table = runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(7))
    table.sit(0, player)
    play_rounds(runtime, "bac-1", player, 30)
    report = runtime.audit()
    assert report["total"] == 0
    assert report["games_settled"] == 30
    # Every credit is accounted for: the player's balance + house + commission = cash-in.
    assert runtime.balance(player) + report["house"] + report["commission"] == 100_000
    lines = log_records.lines(runtime.db.conn)
    verify_lines(lines, [runtime.log.writer.key.public])
    hist = runtime.history(player)
    assert len(hist) == 30
    assert hist[0]["game"] > hist[-1]["game"]  # newest first
    assert sum(h["net"] for h in hist) == runtime.balance(player) - 100_000


def test_recall_reproduces_every_settlement(runtime: Runtime) -> None:
    player = runtime.create_player("Bo")
    runtime.cash_in(player, 50_000, operator="cage")
    runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(3)).sit(0, player)
    play_rounds(runtime, "bac-1", player, 10)
    for h in runtime.history(player):
        rep = runtime.replay(h["game"])
        assert rep is not None
        assert rep.matches, rep.mismatch
        settled = [e for e in rep.events if e["kind"] == "bet-settled"]
        assert sum(e["returned"] - e["commission"] - e["stake"] for e in settled) == h["net"]


def test_bet_above_balance_is_refused_and_changes_nothing(runtime: Runtime) -> None:
    player = runtime.create_player("Cy")
    runtime.cash_in(player, 1_000, operator="cage")
    table = runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(1))
    table.sit(0, player)
    before = len(log_records.lines(runtime.db.conn))
    with pytest.raises(InsufficientFunds):
        table.act(PlaceBet(seat=0, bet="banker", amount=5_000))
    assert runtime.balance(player) == 1_000
    assert len(log_records.lines(runtime.db.conn)) == before
    table.act(PlaceBet(seat=0, bet="banker", amount=1_000))
    assert runtime.balance(player) == 0


def test_illegal_action_changes_nothing(runtime: Runtime) -> None:
    player = runtime.create_player("Di")
    runtime.cash_in(player, 10_000, operator="cage")
    table = runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(1))
    table.sit(0, player)
    with pytest.raises(IllegalAction):
        table.act(Deal(seat=0))  # no bet yet
    with pytest.raises(SeatError):
        table.act(PlaceBet(seat=3, bet="banker", amount=500))
    assert runtime.balance(player) == 10_000
    runtime.audit()


def test_idempotency_key_settles_once(runtime: Runtime) -> None:
    player = runtime.create_player("Ed")
    runtime.cash_in(player, 10_000, operator="cage")
    table = runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(5))
    table.sit(0, player)
    first = table.act(PlaceBet(seat=0, bet="player", amount=1_000), idempotency_key="k1")
    again = table.act(PlaceBet(seat=0, bet="player", amount=1_000), idempotency_key="k1")
    assert again.balance == first.balance == 9_000
    assert runtime.balance(player) == 9_000


def test_restart_resumes_the_open_game_exactly(tmp_path: Path, store_url: str | None) -> None:
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", create=True, url=store_url)
    player = rt.create_player("Flo")
    rt.cash_in(player, 10_000, operator="cage")
    table = rt.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(9))
    table.sit(0, player)
    table.act(PlaceBet(seat=0, bet="banker", amount=2_000))
    view_before = table.view(0)
    rt.close()  # the process "dies" between bet and deal

    rt2 = Runtime(store, synchronous="NORMAL")
    table2 = rt2.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(9))
    recovered = rt2.recover()
    assert [r.outcome for r in recovered] == ["resumed"]
    assert table2.view(0)["state"] == view_before["state"]
    res = table2.act(Deal(seat=0))
    assert res.over
    rt2.audit()
    rt2.close()


def test_void_returns_stakes(runtime: Runtime) -> None:
    player = runtime.create_player("Gus")
    runtime.cash_in(player, 10_000, operator="cage")
    table = runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(2))
    table.sit(0, player)
    table.act(PlaceBet(seat=0, bet="tie", amount=1_000))
    assert table.game is not None
    returned = runtime.void(table.game, reason="operator test", by="operator:sam")
    assert returned == {"0:tie": 1_000}
    assert runtime.balance(player) == 10_000
    runtime.audit()
    ends = [
        json.loads(x)["body"]
        for x in log_records.lines(runtime.db.conn)
        if json.loads(x)["type"] == "game-end"
    ]
    assert ends[-1]["status"] == "voided"


def test_group_commit_keeps_every_unit_and_isolates_failures(
    tmp_path: Path, store_url: str | None
) -> None:
    """Concurrent writers share fsyncs; a failing unit rolls back alone."""
    import threading

    rt = Runtime(tmp_path / "store", synchronous="FULL", create=True, url=store_url)
    players = [rt.create_player(f"p{i}") for i in range(8)]
    start = rt.db.commits
    errors: list[Exception] = []

    def work(pid: str) -> None:
        for _ in range(20):
            rt.cash_in(pid, 100, operator="cage")
        try:
            rt.cash_out(pid, 1_000_000, operator="cage")  # more than the balance: refused
        except InsufficientFunds as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 8
    assert all(rt.balance(p) == 2_000 for p in players)
    # Writers that found others waiting shared one commit (one fsync) with them.
    assert rt.db.commits - start < 8 * 21
    rt.audit()
    verify_lines(log_records.lines(rt.db.conn), [rt.log.writer.key.public])
    rt.close()


def test_key_rotation_is_in_the_log_and_verifies_from_the_first_key(runtime: Runtime) -> None:
    player = runtime.create_player("Hal")
    runtime.cash_in(player, 50_000, operator="cage")
    runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(4)).sit(0, player)
    play_rounds(runtime, "bac-1", player, 3)
    first = runtime.log.writer.key
    new_id = runtime.log.rotate_key("admin")
    assert runtime.log.writer.key.key_id == new_id != first.key_id
    assert (runtime.db.directory / "keys" / f"log-signing-{new_id}.pem").stat().st_mode & 0o077 == 0
    play_rounds(runtime, "bac-1", player, 3)
    report = verify_lines(log_records.lines(runtime.db.conn), [first.public])
    assert report.key_ids == (first.key_id, new_id)
    assert report.unsigned_tail == 0


def test_history_is_the_last_500_games_newest_first(runtime: Runtime) -> None:
    player = runtime.create_player("Ivy")
    runtime.cash_in(player, 10_000_000, operator="cage")
    runtime.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(8)).sit(0, player)
    play_rounds(runtime, "bac-1", player, 503)
    hist = runtime.history(player)
    assert len(hist) == 500
    ids = [h["game"] for h in hist]
    assert ids == sorted(ids, reverse=True)
    assert ids[0] == "bac-1-000503"
    assert ids[-1] == "bac-1-000004"


def test_a_new_progressive_meter_starts_at_its_reset_value(runtime: Runtime) -> None:
    from games import catalog
    from kiosk_ui.store import ledger

    variant = catalog.get_variant("oasis-poker")
    ((meter, reset),) = variant.jackpots.items()
    runtime.open_table("oasis-1", "oasis-poker", seeded_outcomes(1))
    runtime.open_table("oasis-2", "oasis-poker", seeded_outcomes(2))  # shares the meter
    assert ledger.balance(runtime.db.conn, ledger.jackpot(meter)) == reset
    runtime.audit()
