"""The California Player/Dealer through the runtime: the offer, the bank posted from the
wallet, the rotation carried in the game-start record, replay, a restart and the audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from certification.log.verify import verify_lines
from games.core.collection import README_DEFAULT
from games.core.records import Decide, PlaceBet
from kiosk_ui.store import log_records
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes
from .test_carry import play, start_body


@pytest.mark.parametrize(
    "variant",
    ["three-card-poker", "ultimate-texas-holdem", "blackjack-21st-century", "pai-gow-fortune"],
)
def test_the_position_rotates_through_the_log_and_the_books_audit(
    tmp_path: Path, variant: str
) -> None:
    """004: "Each player may act as the player/dealer for two hands per round"; README:
    "the position is offered to each seated player in turn for two hands"."""
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50, create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 500_000, operator="cage")
    table = rt.open_table("pd", variant, seeded_outcomes(31))
    table.sit(0, ann)
    table.sit(1, bo)
    # a new table offers the position to seat 0 first; the empty chairs are never asked
    assert table.current_engine().view(None)["player_dealer"]["offered"] == 0
    games = [play(table, [0, 1], take_bank={0: "200000"}) for _ in range(2)]
    for game in games:
        rep = rt.replay(game)
        assert rep is not None and rep.matches, rep and rep.mismatch
        assert rep.engine.view(None)["player_dealer"]["seat"] == 0
    assert start_body(rt, games[1])["carry"] == {"player_dealer": {"turn": 0, "held": 1}}
    # two hands held: the turn passes to seat 1 (seats 2.. are empty and decline)
    upcoming = table.current_engine().view(None)["player_dealer"]
    assert upcoming["offered"] == 1
    rt.audit()
    rt.close()

    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50)
    table = rt.open_table("pd", variant, seeded_outcomes(32))
    table.sit(1, bo)
    assert table.current_engine().view(None)["player_dealer"]["offered"] == 1
    third = play(table, [1])  # Bo bets and deals: the offer lapses, the house banks
    rep = rt.replay(third)
    assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    verify_lines(log_records.lines(rt.db.conn), [rt.log.writer.key.public])
    rt.close()


def test_a_bank_on_the_table_survives_a_restart_and_a_void_returns_it(tmp_path: Path) -> None:
    """The process dies with the player/dealer's bank and a wager on the layout: the game
    resumes from the log with the bank in place and settles; a voided game gives the bank
    back like any stake; the ledger audits after each."""
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 500_000, operator="cage")
    table = rt.open_table("pd", "three-card-poker", seeded_outcomes(41))
    table.sit(0, ann)
    table.sit(1, bo)
    table.act(Decide(seat=0, decision="bank", arg="200000"))
    table.act(PlaceBet(seat=1, bet="ante", amount=1_000))
    before = table.view(None)["state"]
    assert rt.balance(ann) == 300_000
    rt.close()  # the process "dies" between the bets and the deal

    rt = Runtime(store, synchronous="NORMAL")
    table = rt.open_table("pd", "three-card-poker", seeded_outcomes(41))
    table.sit(0, ann)
    table.sit(1, bo)
    assert [r.outcome for r in rt.recover()] == ["resumed"]
    assert table.view(None)["state"] == before
    game = play(table, [0, 1])
    rep = rt.replay(game)
    assert rep is not None and rep.matches, rep and rep.mismatch
    rt.audit()
    # the house took nothing; page 004's collection took each seat's fee at the deal
    fees = README_DEFAULT.fee(200_000) + README_DEFAULT.fee(1_000)
    assert rt.balance(ann) + rt.balance(bo) + fees == 1_000_000

    # the next round: seat 0 holds its second hand, then the game is voided
    table.act(Decide(seat=0, decision="bank", arg="100000"))
    table.act(PlaceBet(seat=1, bet="ante", amount=500))
    assert table.game is not None
    returned = rt.void(table.game, reason="operator test", by="operator:sam")
    assert returned == {"0:bank": 100_000, "1:ante": 500}
    assert rt.balance(ann) + rt.balance(bo) + fees == 1_000_000  # not dealt: no collection
    rt.audit()
    rt.close()
