"""The store conformance suite: every backend keeps the same promises (SQLite, PostgreSQL).

Each test runs once per backend (the ``store_url`` fixture: SQLite in the store
directory, or a fresh schema on the session's real PostgreSQL server). The runtime's
half (play, recall, recovery, group commit) is tests/kiosk_ui/test_runtime.py on
the same fixture; this is the store's half: a unit is kept whole or not at all, the
repositories read back what they wrote, one writer at a time (taken over when it
dies), a damaged store is refused, and tampering is found by the audit and by the
auditor's log verification, read-only.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from certification.log.errors import LogIntegrityError
from certification.log.keys import KeyStore
from certification.log.reader import VerifiedPosition
from certification.log.verify import verify_lines
from kiosk_ui.errors import AuditError, InsufficientFunds, StoreError
from kiosk_ui.store import ledger, open_store
from kiosk_ui.store.audit import audit_store
from kiosk_ui.store.ledger import Posting
from kiosk_ui.store.reader import open_reader
from kiosk_ui.store.sql import Conn, postgres_ddl
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.runtime import Runtime

from .conftest import seeded_outcomes


def raw(store: Path, url: str | None) -> Conn:
    """A writable connection behind the store's back (what an attacker with the
    database's credentials has)."""
    if url is None:
        import sqlite3

        return sqlite3.connect(store / "croupier.db", isolation_level=None)
    import psycopg

    from kiosk_ui.store.pg import PgTx

    return PgTx(psycopg.connect(url, autocommit=True))


def played(store: Path, url: str | None, rounds: int = 6) -> str:
    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=20, create=True, url=url)
    try:
        player = rt.create_player("Ann")
        rt.cash_in(player, 50_000, operator="cage")
        table = rt.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(5))
        table.sit(0, player)
        for _ in range(rounds):
            play_round(table, 0)
    finally:
        rt.close()
    return player


def test_a_unit_is_kept_whole_or_not_at_all(tmp_path: Path, store_url: str | None) -> None:
    rt = Runtime(tmp_path / "s", synchronous="FULL", create=True, url=store_url)
    try:
        pid = rt.create_player("Bo")
        head = rt.log.writer.head_seq

        def overdraw() -> None:  # a record and its rows, the rows refused
            with rt.log.transaction() as tx:
                rec = rt.log.append(tx, "operator:cage", "cash-out", {"player": pid, "amount": 5})
                tx.ledger.post(
                    "cash-out",
                    [Posting(ledger.wallet(pid), -5), Posting(ledger.CASH, 5)],
                    ts=1,
                    log_seq=rec.seq,
                    log_hash=rec.hash,
                )

        with pytest.raises(InsufficientFunds):
            overdraw()
        with rt.db.read() as tx:  # neither the record nor a row of it was kept
            assert tx.log.last_seq() == head
            assert not tx.ledger.exists(ledger.wallet(pid))
        assert rt.cash_in(pid, 700, operator="cage") == 700
        report = rt.audit()
        assert report["player_credits"] == 700
        with rt.db.read() as tx:
            assert tx.log.last_seq() == rt.log.writer.head_seq > head
    finally:
        rt.close()


def test_the_repositories_read_back_what_they_wrote(tmp_path: Path, store_url: str | None) -> None:
    db = open_store(tmp_path / "s", synchronous="NORMAL", create=True, url=store_url)
    try:
        with db.transaction() as tx:
            tx.players.add("p1", "Ann", 10)
            tx.players.add("p1", "Someone else", 11)  # an existing id is left as it is
            tx.games.insert("g-0002", "t1", "baccarat-pinnacle", 5, "rng")
            tx.games.insert("g-0010", "t1", "baccarat-pinnacle", 6, "rng")
            tx.games.end("g-0002", "settled", 7)
            tx.seats.add("g-0002", 0, "p1", 100, -100)
            tx.seats.add("g-0002", 0, "p1", 50, 25)  # added to the seat's row
            tx.shoes.insert("g-0010", "1,2,3", "salt")
            tx.idempotency.keep("k1", '{"ok": true}')
            tx.operators.ensure_disabled_column()
            tx.operators.insert("sam", "hash", "admin")
            for seq in (3, 9):  # the verified position is one row, replaced
                tx.checkpoints.save(VerifiedPosition(seq, f"h{seq}", "tree", "kid", "sig"))
        with db.transaction() as tx:
            assert tx.shoes.take_next("g-0010") == 0
            assert tx.shoes.take_next("g-0010") == 1
            assert tx.shoes.take_next("nope") is None
            assert tx.operators.set_disabled("sam", True)
        with db.read() as tx:
            assert tx.players.name_of("p1") == "Ann"
            assert tx.seats.staked("g-0002", 0) == 150
            assert tx.seats.nets("g-0002") == {"0": -75}
            assert tx.games.last_settled("t1", "p1") == "g-0002"
            assert [g.id for g in tx.games.unfinished()] == ["g-0010"]
            assert tx.games.totals("t1") == (150, -75)
            shoe = tx.shoes.read("g-0010")
            assert shoe is not None and shoe.next == 2
            assert tx.idempotency.answer("k1") == '{"ok": true}'
            assert tx.operators.credentials("sam") == ("hash", "admin", True)
            assert tx.checkpoints.verified_seq() == 9
            assert [h.game for h in tx.games.history("p1", 10)] == ["g-0002"]
    finally:
        db.close()


def test_one_writer_at_a_time_and_a_dead_ones_store_is_taken_over(
    tmp_path: Path, store_url: str | None
) -> None:
    store = tmp_path / "s"
    Runtime(store, create=True, url=store_url).close()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\nfrom kiosk_ui.store import open_store\n"
         f"db = open_store({str(store)!r})\nprint('open', flush=True)\ntime.sleep(600)"],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"open\n"
        with pytest.raises(StoreError, match=r"in use by .*pid"):
            open_store(store)
        if store_url is not None:  # another appliance's directory, the same database
            with pytest.raises(StoreError, match=r"in use by croupier pid \d+"):
                open_store(tmp_path / "other", create=True, url=store_url)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        holder.stdout.close()  # type: ignore[union-attr]
    for _ in range(100):  # the server notices the dead session's socket close at once
        try:
            open_store(store).close()
            break
        except StoreError:
            time.sleep(0.05)
    else:
        pytest.fail("the killed writer's store was never free again")


def test_a_store_emptied_beside_its_keys_is_refused(tmp_path: Path, store_url: str | None) -> None:
    store = tmp_path / "s"
    played(store, store_url, rounds=1)
    conn = raw(store, store_url)
    for table in ("postings", "txns", "log"):
        conn.execute(f"DROP TABLE {table}")
    conn.close()
    with pytest.raises(StoreError, match="missing its tables"):
        open_store(store)


def test_tampering_is_found_by_the_audit_and_by_log_verify_read_only(
    tmp_path: Path, store_url: str | None
) -> None:
    store = tmp_path / "s"
    player = played(store, store_url)
    assert audit_store(store)["games_settled"] == 6  # read-only, no lock
    reader = open_reader(store)
    try:
        keys = KeyStore(store)
        key = keys.current()
        assert key is not None
        verify_lines(reader.lines(), [key.public])
    finally:
        reader.close()

    conn = raw(store, store_url)  # a wallet quietly topped up
    conn.execute(
        "UPDATE postings SET amount = amount + 100 WHERE account = ?", (ledger.wallet(player),)
    )
    conn.execute("UPDATE accounts SET balance = balance + 100 WHERE name = ?", ("house",))
    conn.close()
    with pytest.raises(AuditError, match=r"wallet:"):
        audit_store(store)

    conn = raw(store, store_url)  # a settled round's record rewritten
    (seq,) = conn.execute("SELECT MAX(seq) FROM log WHERE type = 'game-end'").fetchone()
    data = bytes(conn.execute("SELECT data FROM log WHERE seq = ?", (seq,)).fetchone()[0])
    forged = data.replace(b'"status":"settled"', b'"status":"voided"')
    assert forged != data
    conn.execute("UPDATE log SET data = ? WHERE seq = ?", (forged, seq))
    conn.close()
    reader = open_reader(store)  # the auditor's read-only verification names the record
    try:
        with pytest.raises(LogIntegrityError, match=f"record {seq}"):
            verify_lines(reader.lines(), [key.public])
    finally:
        reader.close()


def test_the_schema_is_declared_once_for_both_engines() -> None:
    from kiosk_ui.store.schema import SCHEMA

    pg = postgres_ddl(SCHEMA)
    assert "BLOB" not in pg and " INTEGER" not in pg
    assert "data BYTEA NOT NULL" in pg
    assert "id      BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in pg  # txns
    assert "rowid BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in pg  # postings
    assert 'name    TEXT COLLATE "C" PRIMARY KEY' in pg  # byte order, as SQLite sorts
