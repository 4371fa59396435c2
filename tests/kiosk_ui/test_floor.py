"""Several appliances on one PostgreSQL store (a floor): a chain each, shared wallets, leases.

Each appliance is a Runtime of its own (its own store directory, the floor's signing
keys copied into it) on one real PostgreSQL database with ``shared=True``. Each
appends a signed chain of its own (no lock of the store's between them), serving the
tables it leases; a player's wallet is the same row for all of them, guarded by its
row lock. The attacks: a second appliance opening a leased table, a frozen
appliance writing after its lease was taken over, and one player's bets on two
appliances at once trying to spend the same money twice.
"""

from __future__ import annotations

import queue
import shutil
import threading
import time
from pathlib import Path

import orjson
import psycopg
import pytest

from games.core.records import Deal, PlaceBet
from kiosk_ui.errors import AuditError, InsufficientFunds, StoreConflict, TableError
from kiosk_ui.store import log_records
from kiosk_ui.store.audit import audit_store
from kiosk_ui.table.autoplay import play_round
from kiosk_ui.table.leasing import LeaseLost
from kiosk_ui.table.runtime import Runtime
from kiosk_ui.web.errors import status_and_code
from tests.kiosk_ui.pg_cluster import Cluster

from .conftest import seeded_outcomes, verified_chains


def floor(tmp_path: Path, url: str, n: int, lease: float = 15.0) -> list[Runtime]:
    """``n`` appliances on one new database: the first makes the store, the others get
    its signing keys (provisioned as an IT department copies a certificate)."""
    first = tmp_path / "a0"
    Runtime(first, create=True, url=url, shared=True).close()
    out = []
    for i in range(n):
        d = tmp_path / f"a{i}"
        if i:
            shutil.copytree(first / "keys", d / "keys")
        out.append(Runtime(d, url=url, shared=True, synchronous="NORMAL", lease_seconds=lease))
    return out


def funded(rt: Runtime, name: str, cents: int) -> str:
    """A new player ``name`` with ``cents`` cashed in at the cage: the floor's one wallet."""
    player = rt.create_player(name)
    rt.cash_in(player, cents, operator="cage")
    return player


def verify_floor(store: Path) -> dict[str, int]:
    report = audit_store(store)
    verified_chains(store)
    return report


def test_two_appliances_share_one_chain_and_one_wallet(tmp_path: Path, pg_cluster: Cluster) -> None:
    a, b = floor(tmp_path, pg_cluster.fresh_url(), 2)
    try:
        ann = funded(a, "Ann", 100_000)
        assert b.balance(ann) == 100_000  # the same wallet, seen from the other appliance
        ta = a.open_table("bac-a", "baccarat-pinnacle", seeded_outcomes(1))
        tb = b.open_table("bac-b", "baccarat-pinnacle", seeded_outcomes(2))
        with pytest.raises(TableError, match="served by appliance"):
            b.open_table("bac-a", "baccarat-pinnacle", seeded_outcomes(3))
        ta.sit(0, ann)
        tb.sit(0, ann)
        for _ in range(5):  # interleaved: each appliance appends its own chain
            play_round(ta, 0)
            play_round(tb, 0)
        assert a.balance(ann) == b.balance(ann)
        seen = {row["table"]: (row["holder"], row["here"]) for row in b.floor()}
        assert seen == {  # the console's floor view: every appliance's tables
            "bac-a": (a.db.appliance, False),
            "bac-b": (b.db.appliance, True),
        }
        report = verify_floor(tmp_path / "a1")
        assert report["games_settled"] == 10
        assert report["player_credits"] == a.balance(ann)
        chains = verified_chains(tmp_path / "a1").chains
        assert set(chains) == {a.db.appliance, b.db.appliance}  # one chain per appliance
        assert all(r.checkpoints >= 5 for r in chains.values())
        conn = log_records.open_readonly(tmp_path / "a1")
        try:  # the house's cached balance: a row per appliance, no one row to queue on
            shards = dict(conn.execute("SELECT name, balance FROM accounts WHERE kind = 'shard'"))
        finally:
            conn.close()
        assert {f"house@{a.db.appliance}", f"house@{b.db.appliance}"} <= set(shards)
        assert report["house"] == sum(v for n, v in shards.items() if n.startswith("house@"))
    finally:
        b.close()
        a.close()
    assert verify_floor(tmp_path / "a0")["open_games"] == 0


def test_a_forged_house_row_of_one_appliance_fails_the_audit(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    url = pg_cluster.fresh_url()
    a, b = floor(tmp_path, url, 2)
    try:
        ann = funded(a, "Ann", 10_000)
        for i, rt in enumerate((a, b)):
            table = rt.open_table(f"bac-{i}", "baccarat-pinnacle", seeded_outcomes(7 + i))
            table.sit(0, ann)
            play_round(table, 0)
        assert audit_store(tmp_path / "a0")["games_settled"] == 2
        pg = psycopg.connect(url, autocommit=True)
        try:  # b's row of the house's balance nudged, the ledger left as it was
            pg.execute(
                "UPDATE accounts SET balance = balance + 100 WHERE name = %s",
                (f"house@{b.db.appliance}",),
            )
        finally:
            pg.close()
        with pytest.raises(AuditError, match="account house: cached balance"):
            audit_store(tmp_path / "a0")
    finally:
        b.close()
        a.close()


def test_an_appliance_that_lost_its_lease_writes_nothing_more(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    a, b = floor(tmp_path, pg_cluster.fresh_url(), 2, lease=1.0)
    try:
        ann = funded(a, "Ann", 10_000)
        ta = a.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(4))
        ta.sit(0, ann)
        play_round(ta, 0)
        assert a.leasing is not None
        a.leasing.stopped.set()  # appliance a freezes: it renews nothing from here on
        a.leasing._thread.join()
        time.sleep(1.2)  # past its lease
        tb = b.open_table("bac-1", "baccarat-pinnacle", seeded_outcomes(5))  # taken over
        tb.sit(0, ann)
        with a.db.read() as tx:
            head = tx.log.of(a.db.appliance).last_seq()
        with pytest.raises(LeaseLost):  # a wakes up and tries to play its old table
            ta.act(PlaceBet(seat=0, bet="banker", amount=500))
        with pytest.raises(LeaseLost):
            ta.act(Deal(seat=0))
        with a.db.read() as tx:
            assert tx.log.of(a.db.appliance).last_seq() == head  # not one record from a
        assert play_round(tb, 0) == "bac-1-000002"  # the new holder numbers after a's game
        with b.db.read() as tx:  # the table's first game in a's chain, its second in b's
            first = [orjson.loads(x) for x in tx.log.game_lines("bac-1-000001")]
            second = [orjson.loads(x) for x in tx.log.game_lines("bac-1-000002")]
        assert {r.get("chain") for r in first} == {a.db.appliance}
        assert {r.get("chain") for r in second} == {b.db.appliance}
        report = verify_floor(tmp_path / "a1")
        assert report["games_settled"] == 2
    finally:
        b.close()
        a.close()


def test_one_players_bets_on_two_appliances_at_once_never_overdraw(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    appliances = floor(tmp_path, pg_cluster.fresh_url(), 2)
    a, b = appliances
    try:
        ann = funded(a, "Ann", 20_000)
        tables = [rt.open_table(f"bac-{i}", "baccarat-pinnacle", seeded_outcomes(i))
                  for i, rt in enumerate(appliances)]  # fmt: skip
        accepted: list[int] = []
        refused: list[int] = []
        go = threading.Barrier(2)

        def bettor(i: int) -> None:
            table = tables[i]
            table.sit(0, ann)
            go.wait()
            while True:  # stake $30 a time until the wallet says no
                try:
                    table.act(PlaceBet(seat=0, bet="tie", amount=3_000))
                except InsufficientFunds:
                    refused.append(i)
                    return
                accepted.append(i)

        threads = [threading.Thread(target=bettor, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(accepted) == 6  # $200 holds six $30 stakes, never a seventh
        assert a.balance(ann) == b.balance(ann) == 2_000
        assert sorted(set(refused)) == [0, 1]
        report = verify_floor(tmp_path / "a0")
        assert report["player_credits"] == 2_000
    finally:
        b.close()
        a.close()


def open_shared_at_once(url: str, dirs: list[Path]) -> list[BaseException]:
    """Open a shared Runtime in each of ``dirs`` at the same moment; what they raised."""
    opened: list[Runtime] = []
    errors: list[BaseException] = []
    start = threading.Barrier(len(dirs))

    def open_shared(d: Path) -> None:
        start.wait()
        try:
            opened.append(Runtime(d, url=url, shared=True, synchronous="NORMAL"))
        except BaseException as exc:  # the failure is the finding
            errors.append(exc)

    threads = [threading.Thread(target=open_shared, args=(d,)) for d in dirs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for rt in opened:
        rt.close()
    return errors


def test_shared_openers_at_once_on_a_store_made_alone(tmp_path: Path, pg_cluster: Cluster) -> None:
    """A store made alone before `store init` made the floor's tables too (dropped here);
    `serve --workers 2` then opens it twice at once, shared: both create the leases table
    if missing. PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe against itself (two
    at once failed with a duplicate pg_type key and stopped the server), so shared
    openers take their DDL one at a time."""
    for round_ in range(30):
        url = pg_cluster.fresh_url()
        first = tmp_path / f"r{round_}-a0"
        Runtime(first, create=True, url=url).close()
        with psycopg.connect(url, autocommit=True) as pg:
            pg.execute("DROP TABLE leases, servers")  # an older store: no floor tables
        second = tmp_path / f"r{round_}-a1"
        shutil.copytree(first / "keys", second / "keys")
        assert open_shared_at_once(url, [first, second]) == []


def test_two_appliances_locking_two_wallets_in_opposite_order(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    """The group commit keeps a group's wallet row locks until it commits: appliance a's
    open group holds Ann's row and wants Bob's, b's holds Bob's and wants Ann's. The
    server finds the deadlock (40P01) and ends one unit; that bet answers a specific,
    retryable error (no store fault, no table suspended), nothing of it is kept, the
    other bets all settle, and the same bet asked again is taken."""
    a, b = floor(tmp_path, pg_cluster.fresh_url(), 2)
    try:
        ann, bob = a.create_player("Ann"), a.create_player("Bob")
        for player in (ann, bob):
            a.cash_in(player, 10_000, operator="cage")
        sits = ((a, "a-ann", ann), (a, "a-bob", bob), (b, "b-bob", bob), (b, "b-ann", ann))
        tables = {}
        for i, (rt, name, player) in enumerate(sits):
            tables[name] = rt.open_table(name, "baccarat-pinnacle", seeded_outcomes(20 + i))
            tables[name].sit(0, player)
        bet = [PlaceBet(seat=0, bet="banker", amount=1_000)]
        tables["a-ann"].act_many(bet, defer=True)  # a's open group: Ann's row locked
        tables["b-bob"].act_many(bet, defer=True)  # b's open group: Bob's row locked
        groups = {"a": a.db.open_group(), "b": b.db.open_group()}
        ends: queue.Queue[tuple[str, BaseException | None]] = queue.Queue()
        go = threading.Barrier(2)

        def second(name: str) -> None:  # a: Bob's row, b: Ann's row: each waits for the other
            go.wait()
            try:
                tables[name].act_many(bet, defer=True)
            except BaseException as exc:  # the failure is the finding
                ends.put((name[0], exc))
                return
            ends.put((name[0], None))

        threads = [threading.Thread(target=second, args=(n,)) for n in ("a-bob", "b-ann")]
        for t in threads:
            t.start()
        dbs = {"a": a.db, "b": b.db}
        first, first_error = ends.get()
        if first_error is not None:  # the one the server ended; the other still waits on
            dbs[first].commit_open()  # the row its group's first unit holds: commit it
        # (or a unit of the victim's own lease thread committed that group first, and the
        # other's answer came first)
        later, later_error = ends.get()
        for t in threads:
            t.join()
        for db in dbs.values():
            db.commit_open()
        answers = {first: first_error, later: later_error}
        assert sorted(answers) == ["a", "b"]
        (victim,) = [name for name, e in answers.items() if e is not None]  # one, not both
        error = answers[victim]
        assert isinstance(error, StoreConflict), repr(error)
        assert "retry" in str(error) and "deadlock" in str(error)
        assert status_and_code(error) == (409, "store-conflict")  # the web app's answer
        assert a.db.group_outcome(groups["a"]) is None  # every other unit durable
        assert b.db.group_outcome(groups["b"]) is None
        assert a.db.health.fault is None and b.db.health.fault is None  # not an I/O fault
        assert not any(t.suspended for t in tables.values())
        assert a.balance(ann) + a.balance(bob) == 20_000 - 3_000  # three stakes, not four
        lost = tables["a-bob" if victim == "a" else "b-ann"]
        lost.act_many(bet)  # asked again: taken (the table was rebuilt from the log)
        assert a.balance(ann) == b.balance(bob) == 8_000
        for table in tables.values():
            play_round(table, 0)
        report = verify_floor(tmp_path / "a0")
        assert report["games_settled"] == 4
        assert report["player_credits"] == a.balance(ann) + a.balance(bob)
    finally:
        b.close()
        a.close()
