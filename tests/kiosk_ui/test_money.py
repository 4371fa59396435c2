"""Engine money events become balanced ledger rows; progressive meters are ledger accounts."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.records import BetPlaced, BetSettled, JackpotContribution, JackpotWin
from kiosk_ui.errors import InsufficientFunds
from kiosk_ui.store import ledger
from kiosk_ui.store.db import Database
from kiosk_ui.store.ledger import Posting
from kiosk_ui.table.money import post_event

HASH = "0" * 64  # these rows name a log record the ledger-only tests do not write


@pytest.fixture
def conn(tmp_path: Path):
    db = Database(tmp_path, synchronous="NORMAL", create=True)
    with db.transaction() as c:
        ledger.post(
            c,
            "cash-in",
            [Posting("cash", -10_000), Posting("wallet:p", 10_000)],
            ts=0,
            log_seq=1,
            log_hash=HASH,
        )
        yield c
    db.close()


def post(conn, ev, reset: int = 0) -> int:
    return post_event(
        conn, ev, table="t", game="g", player="p", ts=1, log_seq=1, log_hash=HASH, reset=reset
    )


def test_bet_and_settlement_move_money_through_the_layout(conn) -> None:
    post(conn, BetPlaced(seat=0, bet="banker", amount=1_000))
    assert ledger.balance(conn, "wallet:p") == 9_000
    assert ledger.balance(conn, "stakes:t") == 1_000
    net = post(conn, BetSettled(seat=0, bet="banker", stake=1_000, returned=2_000,
                                commission=50, result="win"))  # fmt: skip
    assert net == 950
    assert ledger.balance(conn, "wallet:p") == 10_950
    assert ledger.balance(conn, "stakes:t") == 0
    assert ledger.balance(conn, ledger.HOUSE) == -1_000
    assert ledger.balance(conn, ledger.COMMISSION) == 50
    ledger.audit(conn)


def test_a_bet_above_the_wallet_is_refused(conn) -> None:
    with pytest.raises(InsufficientFunds):
        post(conn, BetPlaced(seat=0, bet="banker", amount=10_001))


def test_progressive_meter_is_fed_paid_and_reset(conn) -> None:
    meter = ledger.jackpot("stud")
    post(conn, BetPlaced(seat=0, bet="jackpot", amount=100))
    post(conn, BetSettled(seat=0, bet="jackpot", stake=100, returned=0, result="lose"))
    post(conn, JackpotContribution(seat=0, meter="stud", amount=75))
    assert ledger.balance(conn, meter) == 75
    # 10% of the meter (straight flush): 7 cents, then the meter is refilled to its reset.
    paid = post(conn, JackpotWin(seat=0, meter="stud", share_bp=1_000), reset=2_500_000)
    assert paid == 7
    assert ledger.balance(conn, meter) == 2_500_000
    # A royal takes the whole meter; a fixed award the meter cannot cover is guaranteed.
    assert post(conn, JackpotWin(seat=0, meter="stud", share_bp=10_000), reset=2_500_000) == (
        2_500_000
    )
    drain = [Posting(meter, -2_500_000), Posting("house", 2_500_000)]
    ledger.post(conn, "drain", drain, ts=2, log_seq=1, log_hash=HASH)
    assert post(conn, JackpotWin(seat=0, meter="stud", fixed=50_000)) == 50_000
    assert ledger.balance(conn, meter) == 0
    report = ledger.audit(conn)
    assert report.total == 0
