"""Issue 12 B10: recovery decides from the log, not from the store's game status.

The attack: flip a settled game back to ``open`` in the store (sqlite UPDATE on the
stopped appliance's file) and restart. On the old code recovery replayed it and wrote
a second game-end. Now the log's game-end decides: no second game-end, no ledger
change, and the mismatch is reported (an operator alarm in the log and a recovery
entry the operator sees).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.security.conftest import croupier
from tests.security.test_shoe_commitment import Client, Start, config, open_blackjack_hand, verify


def ledger_rows(store: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(store / "croupier.db")
    try:
        return [
            row
            for name in ("txns", "postings", "accounts")
            for row in conn.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall()
        ]
    finally:
        conn.close()


@pytest.mark.slow
def test_a_settled_game_flipped_to_open_is_reported_not_settled_again(
    tmp_path: Path, serve_process: Start
) -> None:
    store, cfg = config(tmp_path)
    first = serve_process(cfg)
    client = Client(first.url)
    ann = client.player("Ann")
    status, out = client.call(
        "POST", "/api/tables/bac/round", {"seat": 0, "bets": {"banker": 1000}, "deal": True}, ann
    )
    assert status == 200 and out["over"], out
    game = out["game"]
    first.stop()

    before = ledger_rows(store)
    conn = sqlite3.connect(store / "croupier.db")
    with conn:
        conn.execute("UPDATE games SET status = 'open', ended = NULL WHERE id = ?", (game,))
    conn.close()

    second = serve_process(cfg)
    client.url = second.url
    op = client.operator()
    status, recoveries = client.call("GET", "/api/operator/recoveries", headers=op)
    _, history = client.call("GET", "/api/history", headers=ann)
    second.stop()

    conn = sqlite3.connect(store / "croupier.db")
    try:
        recs = [
            json.loads(d)
            for (d,) in conn.execute("SELECT data FROM log WHERE game = ? ORDER BY seq", (game,))
        ]
    finally:
        conn.close()
    assert [r["type"] for r in recs].count("game-end") == 1
    assert ledger_rows(store) == before  # no second settlement, nothing moved
    assert status == 200, recoveries
    mine = [r for r in recoveries if r["game"] == game]
    assert [r["outcome"] for r in mine] == ["mismatch"], recoveries
    assert "the log is kept" in mine[0]["reason"]
    assert [h["status"] for h in history if h["game"] == game] == ["settled"]
    alarms = [r["body"] for r in recs if r["type"] == "operator-alarm"]
    assert [a["alarm"] for a in alarms] == ["store-status"]
    assert croupier("ledger", "audit", "--store", str(store)).returncode == 0
    assert verify(store, tmp_path)[0] == 0


@pytest.mark.slow
def test_an_open_hand_marked_settled_in_the_store_is_recovered_from_the_log(
    tmp_path: Path, serve_process: Start
) -> None:
    """The other way round: the store calls an open hand settled (its stake would
    stay on the layout for ever). The log has no game-end: recovery reports the
    mismatch and resumes the hand, which then ends once."""
    store, cfg = config(tmp_path)
    first = serve_process(cfg)
    client = Client(first.url)
    ann = client.player("Ann")
    game = open_blackjack_hand(client, ann)["game"]
    first.stop()
    conn = sqlite3.connect(store / "croupier.db")
    with conn:
        conn.execute("UPDATE games SET status = 'settled' WHERE id = ?", (game,))
    conn.close()

    second = serve_process(cfg)
    client.url = second.url
    status, out = client.call(
        "POST", "/api/tables/bj/actions", {"seat": 0, "kind": "decide", "decision": "stand"}, ann
    )
    assert status == 200 and out["game"] == game and out["over"], out
    op = client.operator()
    _, recoveries = client.call("GET", "/api/operator/recoveries", headers=op)
    assert [r["outcome"] for r in recoveries if r["game"] == game] == ["mismatch", "resumed"]
    second.stop()
    conn = sqlite3.connect(store / "croupier.db")
    try:
        types = [
            json.loads(d)["type"]
            for (d,) in conn.execute("SELECT data FROM log WHERE game = ? ORDER BY seq", (game,))
        ]
        (status_now,) = conn.execute("SELECT status FROM games WHERE id = ?", (game,)).fetchone()
    finally:
        conn.close()
    assert types.count("game-end") == 1 and "operator-alarm" in types
    assert status_now == "settled"
    assert croupier("ledger", "audit", "--store", str(store)).returncode == 0
    assert verify(store, tmp_path)[0] == 0
