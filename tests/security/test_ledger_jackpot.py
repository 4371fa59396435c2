"""Issue 12 point 5, progressive meters: seed, contributions, a win and the refill all
derive from the log, and a forged award is caught naming its row.

A Caribbean Stud table on a real store deals from a stacked shoe (one suit first, so
the seat holds a flush and the progressive pays); the real ``croupier ledger audit``
recomputes the meter from the log alone.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from games.core.records import Deal, Decide, PlaceBet
from kiosk_ui.table.outcomes import RngOutcomes
from kiosk_ui.table.runtime import Runtime
from tests.security.conftest import croupier


class StackedShoe:
    """The outcome source's RNG, stacked: the first thirteen cards are one suit."""

    def shoe(self, decks: int, jokers: int = 0) -> list[int]:
        first = [rank * 4 for rank in range(13)]
        return first + [i for i in range(52 * decks + jokers) if i not in first]

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]:
        raise AssertionError("no dice at this table")

    def randbelow(self, n: int) -> int:
        raise AssertionError("no wheel at this table")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    store = tmp_path / "store"
    rt = Runtime(store, synchronous="NORMAL", create=True)
    try:
        player = rt.create_player("lucky", "lucky")
        rt.cash_in(player, 100_000, operator="cage")
        table = rt.open_table("stud", "caribbean-stud", RngOutcomes(StackedShoe(), "rng:stacked"))
        table.sit(0, player)
        bets = [
            PlaceBet(seat=0, bet="ante", amount=100),
            PlaceBet(seat=0, bet="jackpot", amount=100),
        ]
        result = table.act_many([*bets, Deal(seat=0)])
        if not result.over:
            table.act(Decide(seat=0, decision="call"))
    finally:
        rt.close()
    return store


def _clean_with_a_jackpot_win(store: Path) -> None:
    conn = sqlite3.connect(store / "croupier.db")
    try:
        kinds = {k for (k,) in conn.execute("SELECT kind FROM txns")}
        paid = [json.loads(d)["body"] for (d,) in conn.execute(
            "SELECT data FROM log WHERE type = 'jackpot-paid'")]  # fmt: skip
    finally:
        conn.close()
    assert {"jackpot-seed", "jackpot-contribution", "jackpot-win"} <= kinds
    assert paid and paid[0]["amount"] > 0
    r = croupier("ledger", "audit", "--store", str(store))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("AUDIT OK")


def test_a_forged_progressive_award_is_caught(store: Path) -> None:
    """The award's row pays $1,000 more from the meter, the caches fixed."""
    _clean_with_a_jackpot_win(store)
    conn = sqlite3.connect(store / "croupier.db", isolation_level=None)
    try:
        tid, seq = conn.execute(
            "SELECT id, log_seq FROM txns WHERE kind = 'jackpot-win' ORDER BY id LIMIT 1"
        ).fetchone()
        conn.execute(
            "UPDATE postings SET amount = amount + 100000 "
            "WHERE txn = ? AND account LIKE 'wallet:%'",
            (tid,),
        )
        conn.execute(
            "UPDATE postings SET amount = amount - 100000 WHERE rowid = (SELECT MIN(rowid) "
            "FROM postings WHERE txn = ? AND account LIKE 'jackpot:%' AND amount < 0)",
            (tid,),
        )
        conn.execute(
            "UPDATE accounts SET balance = "
            "(SELECT COALESCE(SUM(amount), 0) FROM postings WHERE account = accounts.name)"
        )
    finally:
        conn.close()
    r = croupier("ledger", "audit", "--store", str(store))
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert f"ledger transaction {tid} (jackpot-win) differs from log record {seq} " in out
    assert "account jackpot:caribbean-stud" in out
