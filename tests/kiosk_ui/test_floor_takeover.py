"""A table taken over from a dead holder is out of requests' reach until its recovery is done.

Appliance A holds a table with an open game and a stake on it and stops without settling;
appliance B takes the table over (Runtime.adopt_table, what the appliance's standby loop
calls). A bet that reaches B between the table's opening and the recovery of A's game must
be refused as "table opening", never start a second game there that recovery then
restores over (that game's stakes would stay on a layout nobody plays). The takeover's
recovery looks at the table taken over only, not at B's other tables.
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from games.core.records import PlaceBet
from kiosk_ui.errors import TableOpening
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.runtime import Recovery
from kiosk_ui.web.errors import status_and_code
from tests.kiosk_ui.pg_cluster import Cluster

from .conftest import seeded_outcomes
from .test_floor import floor, funded, verify_floor


def test_a_bet_while_a_taken_over_table_recovers_is_refused_and_starts_no_game(
    tmp_path: Path, pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = pg_cluster.fresh_url()
    a, b = floor(tmp_path, url, 2)
    try:
        ann = funded(a, "Ann", 10_000)
        ta = a.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(4))
        ta.sit(0, ann)
        ta.act(PlaceBet(seat=0, bet="banker", amount=500))
        assert ta.game == "bac-1-000001"
        # b's own table with an open game the store calls settled while the log has no
        # game-end: a takeover of bac-1 must leave it alone (it is not the table taken)
        own = b.open_table("bac-b", "baccarat-pinnacle", seeded_outcomes(6))
        own.sit(0, ann)
        own.act(PlaceBet(seat=0, bet="player", amount=200))
    finally:
        a.close()  # a stops with its game open, Ann's 500 on the layout; its lease is free
    try:
        with psycopg.connect(url, autocommit=True) as pg:
            pg.execute("UPDATE games SET status = 'settled' WHERE id = 'bac-b-000001'")
        refused: list[tuple[int, str]] = []
        real = b.recover

        def recover_after_a_bet(only: set[str] | None = None) -> list[Recovery]:
            # a player's request arriving in the window between the opening and the
            # recovery: the table is not theirs to play yet
            with pytest.raises(TableOpening, match="bac-1 is opening") as caught:
                b.table_for("bac-1", ann).act(PlaceBet(seat=0, bet="player", amount=300))
            refused.append(status_and_code(caught.value))
            with b.db.read() as tx:
                assert tx.games.started("bac-1") == 1  # no second game was started
            return real(only=only)

        monkeypatch.setattr(b, "recover", recover_after_a_bet)
        tb, done = b.adopt_table("bac-1", "baccarat-pinnacle", seeded_outcomes(5))
        monkeypatch.undo()
        assert refused == [(409, "table-opening")]
        assert [(r.game, r.outcome) for r in done] == [("bac-1-000001", "resumed")]
        assert b.table("bac-1") is tb and tb.game == "bac-1-000001"
        assert b.balance(ann) == 10_000 - 500 - 200  # the 500 still on a's game, nothing more
        assert play_round(tb, 0) == "bac-1-000001"  # a's game is dealt and settled at b
        with b.db.read() as tx:
            assert tx.games.started("bac-1") == 1
            assert tx.games.status("bac-b-000001") == "settled"  # untouched by the takeover
        # the full recovery (a restart's) does find it, and says so
        assert [r.outcome for r in b.recover(only={"bac-b"})] == ["mismatch", "resumed"]
        assert play_round(b.table("bac-b"), 0) == "bac-b-000001"
        report = verify_floor(tmp_path / "a1")
        assert report["open_games"] == 0 and report["games_settled"] == 2
        assert report["player_credits"] == b.balance(ann)
    finally:
        b.close()


def test_a_recovery_that_fails_leaves_the_table_unpublished_to_be_tried_again(
    tmp_path: Path, pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = floor(tmp_path, pg_cluster.fresh_url(), 2)
    a.close()
    try:

        def broken(only: set[str] | None = None) -> list[Recovery]:
            raise OSError("the store went away")

        monkeypatch.setattr(b, "recover", broken)
        with pytest.raises(OSError, match="went away"):
            b.adopt_table("bac-1", "baccarat-pinnacle", seeded_outcomes(5))
        assert "bac-1" not in b.tables and "bac-1" not in b.opening
        monkeypatch.undo()
        table, done = b.adopt_table("bac-1", "baccarat-pinnacle", seeded_outcomes(5))
        assert done == [] and b.table("bac-1") is table
    finally:
        b.close()
