"""The land pai gow table through the runtime (pai-gow-land): the start position drawn
from the RNG, logged as the source's action, replayed and recalled; the dragon hand
played, its wager debited and settled in the ledger.

shared/rules/002_e7444afd9398bcdd.txt: "An electronic random-number generator usually
determines the position of the first hand dealt for each game."
shared/rules/001_4697bf24ec253ef9.txt: "Physical: Players may play more than one hand when
sitting at a Pai Gow table with fewer players than hands. The extra hands are called
"dragon" hands."
"""

from __future__ import annotations

from pathlib import Path

import pytest

from certification.log.replay import render_recall
from certification.log.verify import verify_lines
from firmware_bridge import open_device
from games.core.records import Deal, Decide, PlaceBet
from games.pai_gow.land_deal import START_NEED
from kiosk_ui.store import log_records
from kiosk_ui.table.outcomes import DeviceOutcomes, OutcomeFault, RngOutcomes
from kiosk_ui.table.runtime import Runtime
from rng.sample import Rng, SeededBytes


class CountingRng(Rng):
    """The seeded test RNG, remembering what each ``randbelow`` drew."""

    def __init__(self, seed: int) -> None:
        super().__init__(SeededBytes(seed))
        self.drawn: list[tuple[int, int]] = []

    def randbelow(self, n: int) -> int:
        value = super().randbelow(n)
        self.drawn.append((n, value))
        return value


def test_the_start_position_comes_from_the_rng_is_logged_and_replays(tmp_path: Path) -> None:
    """002: "An electronic random-number generator usually determines the position of the
    first hand dealt for each game": the runtime answers the engine's position need with
    1 + randbelow(7) from the table's RNG, logs it as the source's action, and a replay of
    the log deals the same hands from it."""
    rt = Runtime(tmp_path / "store", synchronous="NORMAL", create=True)
    ann = rt.create_player("Ann")
    rt.cash_in(ann, 100_000, operator="cage")
    rng = CountingRng(14)
    table = rt.open_table("pg", "pai-gow-land", RngOutcomes(rng, name="rng:seeded:14"))
    table.sit(3, ann)
    table.act(PlaceBet(seat=3, bet="main", amount=1000))
    table.act(Deal(seat=3))
    engine = table.current_engine()
    assert [n for n, _v in rng.drawn] == [7]  # one uniform draw over the seven positions
    position = 1 + rng.drawn[0][1]
    assert engine.view(None)["start_position"] == position
    game = table.game
    assert game is not None
    actions = [r for r in rt._game_records(game) if r["type"] == "action"]
    logged = [r for r in actions if r["body"]["kind"] == "start-position"]
    assert len(logged) == 1 and logged[0]["source"] == "rng:seeded:14"
    assert logged[0]["body"]["position"] == position and logged[0]["body"]["seat"] is None
    deals = [r for r in actions if r["body"]["kind"] == "deal-card"]
    assert len(deals) == 49  # seven hands of seven, every position
    assert actions.index(logged[0]) < actions.index(deals[0])
    # page 001, physical: the first unplayed hand is the dragon, offered to the one player
    assert engine.view(3)["dragon"]["offered_to"] == 3
    table.act(Decide(seat=3, decision="dragon", arg="500"))
    table.act(Decide(seat=3, decision="house-way"))
    result = table.act(Decide(seat=3, decision="house-way", hand=1))
    assert result.over
    dragon = [e for e in result.events if e["kind"] == "bet-settled" and e["bet"] == "dragon"]
    assert len(dragon) == 1 and dragon[0]["stake"] == 500
    assert rt.balance(ann) == 100_000 + sum(
        e["returned"] - e["commission"] - e["stake"]
        for e in result.events
        if e["kind"] == "bet-settled"
    )
    rep = rt.replay(game)
    assert rep is not None and rep.matches, rep and rep.mismatch
    assert rep.engine.view(None)["start_position"] == position
    assert list(rep.engine.hand(3)) == list(engine.hand(3))
    assert f"the deal starts at position {position}" in render_recall(rep, [3])
    rt.audit()
    verify_lines(log_records.lines(rt.db.conn), [rt.log.writer.key.public])
    rt.close()


def test_a_device_source_never_invents_a_start_position() -> None:
    """A physical shoe reports cards only: asked for a position it stops the table (an
    OutcomeFault suspends it) rather than make one up."""
    shoe = open_device("sim://shoe?seed=5")
    try:
        source = DeviceOutcomes(shoe, timeout=1)
        with pytest.raises(OutcomeFault, match="supplies no position"):
            source.supply(None, "g", START_NEED)  # type: ignore[arg-type]
    finally:
        shoe.close()
