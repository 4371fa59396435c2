"""European Slot Poker's decks through the runtime (issue 16): kept per player, per credit
value and per coins bet, in the signed log (the game-start record's carry), and resumed
exactly after a restart, an open hand included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.core.records import Deal, Decide, PlaceBet
from games.video_poker.engine import VideoPokerRound
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.table.table import Table

from .conftest import seeded_outcomes

ESP = "video-poker-european-slot"


def hand(table: Table, bet: str = "coin-25", amount: int = 250, *, finish: bool = True) -> str:
    """Bet, deal, draw on the machine's hold, collect any win; the game id."""
    result = table.act_many([PlaceBet(seat=0, bet=bet, amount=amount), Deal(seat=0)])
    if not finish:
        return result.game
    for _ in range(20):
        engine = table.current_engine()
        if result.over:
            return result.game
        action = engine.default_action(0)
        assert action is not None, engine.view(0)
        result = table.act(action)
    raise AssertionError("the hand did not end")


def machines(table: Table) -> dict[str, Any]:
    engine = table.current_engine()
    assert isinstance(engine, VideoPokerRound)
    return {k: (m.deck, m.collected, m.cherry) for k, m in engine.machines.items()}


def start_carry(rt: Runtime, game: str) -> dict[str, Any]:
    rec = next(r for r in rt._game_records(game) if r["type"] == "game-start")
    return dict(rec["body"].get("carry") or {})


def test_decks_are_kept_per_player_value_and_bet_and_survive_a_restart(tmp_path: Path) -> None:
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50, create=True)
    ann, bo = rt.create_player("Ann"), rt.create_player("Bo")
    for p in (ann, bo):
        rt.cash_in(p, 100_000, operator="cage")
    rt.open_table(ESP, ESP, seeded_outcomes(31), per_player=True)
    mine = rt.table_for(ESP, ann)
    for _ in range(4):
        hand(mine)
    hand(mine, "coin-5", 5)  # another value and bet: a deck of its own
    kept = machines(mine)
    assert set(kept) == {"25x10", "5x1"}
    bos = rt.table_for(ESP, bo)
    last = hand(bos)
    assert set(machines(bos)) == {"25x10"}  # Bo's own deck, shuffled on his entry
    assert machines(mine) == kept  # Bo's hand did not touch Ann's decks
    assert start_carry(rt, last) == {}  # Bo's first hand carried nothing of Ann's
    rt.audit()
    rt.close()

    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50)
    rt.open_table(ESP, ESP, seeded_outcomes(32), per_player=True)
    rt.recover()
    mine = rt.table_for(ESP, ann)
    assert machines(mine) == kept  # the next hand starts from the log's decks
    game = hand(mine)
    assert start_carry(rt, game)["machines"]["5x1"]["deck"] == list(kept["5x1"][0])
    rep = rt.replay(game)
    assert rep is not None and rep.matches
    rt.audit()
    rt.close()


def test_an_open_hand_resumes_exactly_after_a_restart(tmp_path: Path) -> None:
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50, create=True)
    ann = rt.create_player("Ann")
    rt.cash_in(ann, 100_000, operator="cage")
    rt.open_table(ESP, ESP, seeded_outcomes(33), per_player=True)
    mine = rt.table_for(ESP, ann)
    hand(mine)
    game = hand(mine, finish=False)  # dealt, waiting on the holds
    before = mine.current_engine().view(0)
    assert before["phase"] == "holding"
    rt.close()  # the process stops with the hand open

    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=50)
    rt.open_table(ESP, ESP, seeded_outcomes(34), per_player=True)
    [recovery] = [r for r in rt.recover() if r.game == game]
    assert recovery.outcome == "resumed", recovery
    mine = rt.table_for(ESP, ann)
    after = mine.current_engine().view(0)
    for key in ("cards", "auto_hold", "deck_left", "machines", "coins", "denomination"):
        assert after[key] == before[key], key
    result = mine.act(Decide(seat=0, decision="draw", arg=""))
    assert result.game == game
    rt.audit()
    rt.close()
