"""A table's next game follows on from its last one (games.catalog.new_game previous=/carry=):
the pai gow bank rotation of page 002 and the stud "always contribute" button, through the
runtime, the log, replay and a restart."""

from __future__ import annotations

from pathlib import Path

from certification.log.verify import verify_lines
from games.core.records import Action, Decide, PlaceBet
from kiosk_ui.store import log_records
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.table.table import Table

from .conftest import seeded_outcomes


def play(table: Table, seats: list[int], take_bank: dict[int, str] | None = None) -> str:
    """Play one game with the scripted player at every seat; ``take_bank`` maps a seat to
    the bank it takes when offered (its arg), instead of declining."""
    take_bank = take_bank or {}
    for _ in range(200):
        engine = table.current_engine()
        wanted: list[Action] = []
        for seat in seats:
            action: Action | None
            if "bank" in engine.legal_actions(seat) and seat in take_bank:
                action = Decide(seat=seat, decision="bank", arg=take_bank[seat])
            else:
                action = table.family.autoplay(engine, seat)
            if action is not None:
                wanted.append(action)
        assert wanted, f"no seat can act: {engine.view(None)}"
        # every seat's bet goes down before anyone deals
        bets = [a for a in wanted if isinstance(a, PlaceBet)]
        result = table.act((bets or wanted)[0])
        if result.over:
            return result.game
    raise AssertionError("the game did not finish")


def start_body(rt: Runtime, game: str) -> dict:
    rec = next(r for r in rt._game_records(game) if r["type"] == "game-start")
    return dict(rec["body"])


def test_pai_gow_bank_rotation_follows_the_table_across_games_and_a_restart(
    tmp_path: Path,
) -> None:
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50, create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 500_000, operator="cage")
    table = rt.open_table("pg", "pai-gow-land", seeded_outcomes(21))
    table.sit(0, ann)
    table.sit(1, bo)

    first = play(table, [0, 1])
    assert "carry" not in start_body(rt, first) or start_body(rt, first)["carry"]
    # Page 002: after a game the dealer banked, the bank is offered in turn, seat 0 first.
    engine = table.current_engine()
    assert engine.view(None)["bank_offered_to"] == 0
    second = play(table, [0, 1], take_bank={0: "100000"})
    assert start_body(rt, second).get("carry"), "the game-start record states what it followed"
    rep = rt.replay(second)
    assert rep is not None and rep.matches, rep and rep.mismatch
    assert rep.engine.view(None)["banker"] == "0"
    # Seat 0 banked; it may not bank twice running: the offer goes to seat 1 next.
    assert table.current_engine().view(None)["bank_offered_to"] == 1
    rt.audit()
    rt.close()

    # After a restart the table finds its last game in the log and carries on from it;
    # Ann is not back at the table, so nobody waits on her seat.
    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50)
    table = rt.open_table("pg", "pai-gow-land", seeded_outcomes(22))
    table.sit(1, bo)
    assert table.current_engine().view(None)["bank_offered_to"] == 1
    third = play(table, [1])
    rep = rt.replay(third)
    assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    lines = log_records.lines(rt.db.conn)
    verify_lines(lines, [rt.log.writer.key.public])
    rt.close()


def test_the_bank_is_not_offered_to_the_seat_its_player_left(tmp_path: Path) -> None:
    """Ann leaves after a game the dealer banked: her place in the rotation goes with her
    (the next game's start record names her seat a new player's), so the bank is offered
    to Bo at once; the table never waits on her empty chair. (A rotation that is the
    table's, the Player/Dealer's, passes empty chairs by the runtime's decline:
    test_player_dealer.py.)"""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 500_000, operator="cage")
    table = rt.open_table("pg", "pai-gow-land", seeded_outcomes(5))
    table.sit(0, ann)
    table.sit(1, bo)
    play(table, [0, 1])
    del table.seats[0]  # Ann left the table
    game = play(table, [1])
    assert start_body(rt, game)["new_players"] == [0]
    actions = [r for r in rt._game_records(game) if r["type"] == "action"]
    assert actions[0]["source"] == "seat:1"
    assert actions[0]["body"]["decision"] == "decline-bank" and actions[0]["body"]["seat"] == 1
    rt.audit()
    rt.close()


def test_always_contribute_carries_to_the_next_stud_game(tmp_path: Path) -> None:
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    ann = rt.create_player("Ann")
    rt.cash_in(ann, 500_000, operator="cage")
    table = rt.open_table("cs", "caribbean-stud", seeded_outcomes(9))
    table.sit(0, ann)
    table.act(Decide(seat=0, decision="always-contribute", arg="on"))
    first = play(table, [0])
    assert table.current_engine().view(0)["always_contribute"]
    second = play(table, [0])
    contributions = [
        r
        for g in (first, second)
        for r in rt._game_records(g)
        if r["type"] == "event" and r["body"]["kind"] == "jackpot-contribution"
    ]
    assert len(contributions) == 2  # one per game, the second from the carried button
    rep = rt.replay(second)
    assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    rt.close()


def test_the_stud_jackpot_chip_queue_is_spent_one_chip_a_game_across_a_restart(
    tmp_path: Path,
) -> None:
    """001_4697bf24ec253ef9.txt (Caribbean Stud Poker): "Each click stores one $1 chip. Every
    time you start a new game round, one $1 chip is taken from the queue for the progressive
    jackpot side bet." The queue carries game to game through the log, replay and a restart;
    each chip is paid from the wallet when its game takes it."""
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", create=True)
    ann = rt.create_player("Ann")
    rt.cash_in(ann, 500_000, operator="cage")
    table = rt.open_table("cs", "caribbean-stud", seeded_outcomes(9))
    table.sit(0, ann)
    for _ in range(3):
        table.act(Decide(seat=0, decision="jackpot-chip"))
    assert rt.balance(ann) == 500_000  # a queued chip is not on the layout yet
    games = [play(table, [0]), play(table, [0])]
    assert start_body(rt, games[1])["carry"] == {"always_contribute": [], "jackpot_queue": {"0": 2}}
    rep = rt.replay(games[1])
    assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    rt.close()

    rt = Runtime(store, synchronous="NORMAL")
    table = rt.open_table("cs", "caribbean-stud", seeded_outcomes(10))
    table.sit(0, ann)
    assert table.current_engine().view(0)["jackpot_queue"] == {"0": 1}
    games += [play(table, [0]), play(table, [0])]
    per_game = [
        [
            r["body"]["amount"]
            for r in rt._game_records(g)
            if r["type"] == "event"
            and r["body"]["kind"] == "bet-placed"
            and r["body"]["bet"] == "jackpot"
        ]
        for g in games
    ]
    assert per_game == [[100], [100], [100], []]
    for g in games[2:]:
        rep = rt.replay(g)
        assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    rt.close()
