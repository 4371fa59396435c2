"""Issue 12 point 5: the audit ties the ledger to the log, row by row.

A served appliance (real ``croupier serve``) takes demo credit grants, an operator's
cash-in and cash-out, whole rounds, a bet by a player who sat after the game
started, and a void. Then each forgery is applied with sqlite3 to a copy of the real
store file, always with the cached balances put right so the ledger still balances
to the cent, and both the real CLI (``croupier ledger audit``) and the operator API
(``/api/operator/audit`` of an appliance served on the forged store) must fail naming
the row: ledger transaction id, posting id or log seq. Each copy audits clean (CLI)
before it is forged, and the served appliance's own audit is clean after play.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.security.conftest import (
    OPERATOR_PASSWORD,
    croupier,
    demo_settings,
    start_serve,
    write_config,
)

pytestmark = pytest.mark.slow

BET = 1_000


def _settings(store: Path) -> dict[str, Any]:
    data = demo_settings(store)
    data["tables"] = [
        {"id": "bac", "variant": "baccarat-ez"},  # seven seats
        {"id": "stud", "variant": "caribbean-stud"},  # a progressive meter, seeded at open
    ]
    return data


def _operator(client: httpx.Client) -> dict[str, str]:
    r = client.post("/api/operator/login", json={"user": "admin", "password": OPERATOR_PASSWORD})
    assert r.status_code == 200, r.text
    return {"authorization": f"Bearer {r.json()['token']}"}


def _player(client: httpx.Client, name: str) -> tuple[str, dict[str, str]]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["player"]["id"], {"x-player-token": body["token"]}


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _bet(seat: int, bet: str, amount: int) -> dict[str, Any]:
    return {"seat": seat, "kind": "place-bet", "bet": bet, "amount": amount}


def _play(url: str) -> None:
    """Every kind of money record, through the served appliance's HTTP API."""
    with httpx.Client(base_url=url, headers={"origin": url}, timeout=30) as c:
        staff = _operator(c)
        alice, a = _player(c, "alice")  # demo credit: a cash-in by "demo"
        bob, b = _player(c, "bob")
        _ok(
            c.post(f"/api/operator/players/{alice}/cash-in", json={"amount": 25_000}, headers=staff)
        )
        _ok(c.post("/api/tables/bac/sit?seat=0", headers=a))
        for bet in ("banker", "player", "tie", "banker"):
            _ok(c.post("/api/tables/bac/round", json={"seat": 0, "bets": {bet: BET}}, headers=a))
        # Bob sits after Alice's bet opened the game: the log names his wallet.
        _ok(c.post("/api/tables/bac/actions", headers=a, json=_bet(0, "player", BET)))
        _ok(c.post("/api/tables/bac/sit?seat=1", headers=b))
        _ok(c.post("/api/tables/bac/actions", headers=b, json=_bet(1, "banker", 2 * BET)))
        _ok(c.post("/api/tables/bac/actions", headers=a, json={"seat": 0, "kind": "deal"}))
        # A bet left on the layout, then the table is suspended and the game voided.
        _ok(c.post("/api/tables/bac/actions", headers=b, json=_bet(1, "tie", BET)))
        _ok(c.post("/api/operator/tables/bac/suspend", json={"reason": "jam"}, headers=staff))
        voided = _ok(c.post("/api/operator/tables/bac/void", json={"reason": "jam"}, headers=staff))
        assert voided["returned"] == {"1:tie": BET}
        _ok(c.post("/api/operator/tables/bac/resume", headers=staff))
        _ok(c.post(f"/api/operator/players/{bob}/cash-out", json={"amount": 5_000}, headers=staff))
        # Caribbean Stud with the progressive side bet: contributions go to the meter.
        _ok(c.post("/api/tables/stud/sit?seat=0", headers=a))
        for _ in range(2):
            slip = {"seat": 0, "bets": {"ante": 100, "jackpot": 100}}
            r = _ok(c.post("/api/tables/stud/round", json=slip, headers=a))
            if not r["over"]:
                fold = {"seat": 0, "kind": "decide", "decision": "fold"}
                _ok(c.post("/api/tables/stud/actions", json=fold, headers=a))
        audit = _ok(c.get("/api/operator/audit", headers=staff))
        assert audit["ok"], audit


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store played through a real ``croupier serve``, then stopped."""
    root = tmp_path_factory.mktemp("played")
    store = root / "store"
    server = start_serve(write_config(root, _settings(store)))
    try:
        _play(server.url)
    finally:
        server.stop()
        for pipe in (server.proc.stdout, server.proc.stderr):
            if pipe is not None:
                pipe.close()
    return store


@pytest.fixture
def store(played: Path, tmp_path: Path) -> Path:
    """A copy of the played store, which audits clean before the test forges it."""
    copy = tmp_path / "store"
    shutil.copytree(played, copy)
    code, out = _cli_audit(copy)
    assert code == 0, out
    assert out.startswith("AUDIT OK")
    return copy


@pytest.fixture
def db(store: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(store / "croupier.db", isolation_level=None)
    yield conn
    conn.close()


def _record(db: sqlite3.Connection, type_: str, **body: Any) -> tuple[int, str]:
    """The first log record of ``type_`` whose body has those values: (seq, hash)."""
    for seq, hash_, data in db.execute(
        "SELECT seq, hash, data FROM log WHERE type = ? ORDER BY seq", (type_,)
    ):
        rec = json.loads(data)
        if all(rec["body"].get(k) == v for k, v in body.items()):
            return int(seq), str(hash_)
    raise AssertionError(f"no {type_} record with {body}")


def _txn(db: sqlite3.Connection, seq: int) -> int:
    (tid,) = db.execute("SELECT id FROM txns WHERE log_seq = ? ORDER BY id", (seq,)).fetchone()
    return int(tid)


def _add_txn(
    db: sqlite3.Connection, kind: str, seq: int, log_hash: str, postings: list[tuple[str, int]]
) -> int:
    columns = {row[1] for row in db.execute("PRAGMA table_info(txns)")}
    if "log_hash" in columns:
        cur = db.execute(
            "INSERT INTO txns (kind, game, memo, log_seq, log_hash, ts) "
            "VALUES (?, '', '', ?, ?, 0)",
            (kind, seq, log_hash),
        )
    else:  # the store as it was before the ledger named its records' hashes
        cur = db.execute(
            "INSERT INTO txns (kind, game, memo, log_seq, ts) VALUES (?, '', '', ?, 0)",
            (kind, seq),
        )
    tid = int(cur.lastrowid or 0)
    db.executemany(
        "INSERT INTO postings (txn, account, amount) VALUES (?, ?, ?)",
        [(tid, a, m) for a, m in postings],
    )
    return tid


def _fix_cached_balances(db: sqlite3.Connection) -> None:
    """What a careful forger does last: every cached balance equals its postings."""
    db.execute(
        "UPDATE accounts SET balance = "
        "(SELECT COALESCE(SUM(amount), 0) FROM postings WHERE account = accounts.name)"
    )


def _wallet(db: sqlite3.Connection, name: str) -> str:
    (pid,) = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
    return f"wallet:{pid}"


def _cli_audit(store: Path) -> tuple[int, str]:
    r = croupier("ledger", "audit", "--store", str(store))
    assert "Traceback" not in r.stdout + r.stderr
    return r.returncode, r.stdout + r.stderr


def _api_audit(store: Path) -> dict[str, Any]:
    root = store.parent
    server = start_serve(write_config(root, _settings(store), name="again.toml"))
    try:
        with httpx.Client(base_url=server.url, headers={"origin": server.url}, timeout=30) as c:
            return _ok(c.get("/api/operator/audit", headers=_operator(c)))
    finally:
        server.stop()
        for pipe in (server.proc.stdout, server.proc.stderr):
            if pipe is not None:
                pipe.close()


def _fails_naming(store: Path, *names: str, api: bool = True) -> None:
    code, out = _cli_audit(store)
    assert code == 1, out
    assert "AUDIT FAILED" in out
    for name in names:
        assert name in out, (name, out)
    if api:
        audit = _api_audit(store)
        assert audit["ok"] is False, audit
        for name in names:
            assert name in audit["message"], (name, audit["message"])


def test_a_balanced_edit_with_the_cached_balances_fixed_is_caught(
    store: Path, db: sqlite3.Connection
) -> None:
    """+$100 to a wallet, -$100 from the house, on one of the player's bets."""
    wallet = _wallet(db, "alice")
    tid, rowid, seq = db.execute(
        "SELECT t.id, p.rowid, t.log_seq FROM txns t JOIN postings p ON p.txn = t.id "
        "WHERE t.kind = 'bet' AND p.account = ? ORDER BY t.id LIMIT 1",
        (wallet,),
    ).fetchone()
    db.execute("UPDATE postings SET amount = amount + 10000 WHERE rowid = ?", (rowid,))
    house = db.execute(
        "INSERT INTO postings (txn, account, amount) VALUES (?, 'house', -10000)", (tid,)
    ).lastrowid
    _fix_cached_balances(db)
    _fails_naming(
        store,
        f"ledger transaction {tid} ",
        f"log record {seq} ",
        f"posting {rowid} ",
        f"posting {house} ",
    )


def test_a_new_balanced_transaction_on_a_record_that_moves_no_money_is_caught(
    store: Path, db: sqlite3.Connection
) -> None:
    seq, log_hash = _record(db, "game-start")
    tid = _add_txn(db, "win", seq, log_hash, [(_wallet(db, "alice"), 10_000), ("house", -10_000)])
    _fix_cached_balances(db)
    _fails_naming(store, f"ledger transaction {tid} ", f"log record {seq} ", "moves no money")


def test_a_forged_cash_in_reusing_an_existing_seq_is_caught(
    store: Path, db: sqlite3.Connection
) -> None:
    """$5,000 cash-in naming the operator's real $250 cash-in record (seq and hash)."""
    seq, log_hash = _record(db, "cash-in", amount=25_000)
    wallet = _wallet(db, "alice")
    tid = _add_txn(db, "cash-in", seq, log_hash, [("cash", -500_000), (wallet, 500_000)])
    _fix_cached_balances(db)
    _fails_naming(store, f"ledger transaction {tid} ", f"log record {seq} ", "again")


def test_a_transaction_paying_a_different_amount_than_its_record_is_caught(
    store: Path, db: sqlite3.Connection
) -> None:
    """The real cash-in's row says $5,000 where its log record says $250."""
    seq, _ = _record(db, "cash-in", amount=25_000)
    tid = _txn(db, seq)
    db.execute("UPDATE postings SET amount = amount * 20 WHERE txn = ?", (tid,))
    _fix_cached_balances(db)
    _fails_naming(store, f"ledger transaction {tid} ", f"log record {seq} ", "differs")


def test_the_same_record_paying_twice_is_caught(store: Path, db: sqlite3.Connection) -> None:
    """A copy of the void's return of Bob's stake (same record, amounts and hash)."""
    tid, seq, log_hash = db.execute(
        "SELECT t.id, t.log_seq, l.hash FROM txns t JOIN log l ON l.seq = t.log_seq "
        "WHERE t.kind = 'void-return' ORDER BY t.id LIMIT 1"
    ).fetchone()
    postings = db.execute("SELECT account, amount FROM postings WHERE txn = ?", (tid,)).fetchall()
    copy = _add_txn(db, "void-return", seq, log_hash, postings)
    _fix_cached_balances(db)
    _fails_naming(store, f"ledger transaction {copy} ", f"log record {seq} ", "again")


def test_a_reused_seq_naming_another_record_is_caught(store: Path, db: sqlite3.Connection) -> None:
    """Bob's demo credit row renamed onto Alice's demo credit record: same seq shape,
    same amount, but not that record's hash (and not its wallet)."""
    alice_seq, _ = _record(db, "cash-in", player=_wallet(db, "alice").split(":")[1])
    bob_seq, _ = _record(db, "cash-in", player=_wallet(db, "bob").split(":")[1])
    tid = _txn(db, bob_seq)
    db.execute("UPDATE txns SET log_seq = ? WHERE id = ?", (alice_seq, tid))
    _fails_naming(store, f"ledger transaction {tid} ", f"log record {alice_seq} ", "hash")


def test_a_deleted_ledger_transaction_is_caught(store: Path, db: sqlite3.Connection) -> None:
    """Bob's $20 bet never left his wallet: its rows are deleted, the caches fixed."""
    wallet = _wallet(db, "bob")
    (tid,) = db.execute(
        "SELECT t.id FROM txns t JOIN postings p ON p.txn = t.id "
        "WHERE t.kind = 'bet' AND p.account = ? ORDER BY t.id LIMIT 1",
        (wallet,),
    ).fetchone()
    (seq,) = db.execute("SELECT log_seq FROM txns WHERE id = ?", (tid,)).fetchone()
    db.execute("DELETE FROM postings WHERE txn = ?", (tid,))
    db.execute("DELETE FROM txns WHERE id = ?", (tid,))
    _fix_cached_balances(db)
    _fails_naming(store, f"log record {seq} ", "lacks", f"account {wallet}")


def test_a_ledger_row_whose_log_record_was_deleted_is_caught(
    store: Path, db: sqlite3.Connection
) -> None:
    """Bob's cash-out record is deleted from the log; its ledger row stays. (The log's
    own check refuses to serve such a store, so only the CLI audit is asked.) A
    regression guard: the audit before issue 12 caught this one too."""
    seq, _ = _record(db, "cash-out")
    tid = _txn(db, seq)
    db.execute("DELETE FROM log WHERE seq = ?", (seq,))
    _fails_naming(store, f"ledger transaction {tid} ", f"log record {seq}", "not in the log",
                  api=False)  # fmt: skip
