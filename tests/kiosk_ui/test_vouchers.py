"""Vouchers (issue 17 point 10): issued from a wallet, paid exactly once, expiring, audited.

Attacker tests: the same voucher redeemed from two threads at once pays once; a
forged or guessed number pays nothing and locks the address out after a few; an
expired voucher is refused and closes to the house; a voucher printed at one kiosk
and paid at another cannot be paid again at the first. After each, the ledger audit
(derived from the signed log) balances and the vouchers account equals the unpaid sum.

A copy of the database without ``keys/``: a number's stored form is its HMAC under the
store's voucher key, matching neither its plain SHA-256 nor any hash computable from the
database alone, and the key is nowhere in it. A voucher printed before the key (its row
under the plain SHA-256, as the older build wrote it) still pays once and only once,
also when redeemed from several threads at once; an older floor's appliances derive the
same key from the keys/ they share, and a new store's key is drawn at random. On a
floor, one appliance pays another's voucher once, and an appliance with a key not the
store's is refused before it prints one.
"""

from __future__ import annotations

import hashlib
import hmac
import shutil
import threading
from pathlib import Path

import pytest

from kiosk_ui.cashier import numbers
from kiosk_ui.cashier.number_key import NumberKey
from kiosk_ui.cashier.vouchers import DAY_US, GUESS_LIMIT, Cashier
from kiosk_ui.errors import (
    AuditError,
    NoSuchVoucher,
    StoreError,
    VoucherError,
    VoucherExpired,
    VoucherNumberInvalid,
    VoucherRedeemed,
    VoucherThrottled,
)
from kiosk_ui.identity import PlayerTokens
from kiosk_ui.store import ledger
from kiosk_ui.store.schema import ADDED_TABLES, TABLES
from kiosk_ui.table.runtime import Runtime
from tests.kiosk_ui.pg_cluster import Cluster


class Clock:
    """The cashier's clock, moved by the test (log-clock microseconds)."""

    def __init__(self, start: int) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def cashier(runtime: Runtime) -> tuple[Cashier, Clock]:
    clock = Clock(runtime.log.clock())
    return Cashier(runtime, voucher_days=30, clock=clock), clock


def _player(rt: Runtime, cents: int) -> str:
    pid = rt.create_player("p")
    if cents:
        rt.cash_in(pid, cents, "cage")
    return pid


def _vouchers_balance(rt: Runtime) -> int:
    return rt.audit()["vouchers"]


def test_ticket_out_then_ticket_in_at_another_kiosk(cashier: tuple[Cashier, Clock]) -> None:
    c, _ = cashier
    rt = c.rt
    alice, bob = _player(rt, 12_345), _player(rt, 100)
    v = c.issue(alice, "kiosk-1")
    assert (v.amount, rt.balance(alice)) == (12_345, 0)
    assert numbers.valid(v.number) and len(v.number) == 18
    assert _vouchers_balance(rt) == 12_345
    paid, balance = c.redeem(numbers.grouped(v.number), player=bob, kiosk="kiosk-2", address="b")
    assert (paid.serial, paid.amount, balance) == (v.serial, 12_345, 12_445)
    # the first kiosk cannot pay it again, nor the cage
    with pytest.raises(VoucherRedeemed):
        c.redeem(v.number, player=alice, kiosk="kiosk-1", address="a")
    with pytest.raises(VoucherRedeemed):
        c.redeem(v.number, operator="olga", address="cage")
    report = rt.audit()
    assert report["vouchers"] == 0 and rt.balance(alice) == 0
    with rt.db.read() as tx:
        types = [r["type"] for r in map(_decode, tx.log.lines())]
    assert types.count("voucher-issued") == 1 and types.count("voucher-redeemed") == 1
    assert types.count("voucher-refused") == 2
    # the log holds the last four digits of the number, never the whole number
    with rt.db.read() as tx:
        blob = b"".join(tx.log.lines())
    assert v.number.encode() not in blob and v.number[-4:].encode() in blob


def _decode(line: bytes) -> dict[str, object]:
    import orjson

    rec: dict[str, object] = orjson.loads(line)
    return rec


def test_the_cage_pays_in_cash(cashier: tuple[Cashier, Clock]) -> None:
    c, _ = cashier
    alice = _player(c.rt, 5_000)
    v = c.issue(alice, "kiosk-1", amount=2_000)
    assert c.rt.balance(alice) == 3_000
    paid, balance = c.redeem(v.number, operator="olga", address="cage")
    assert balance is None and paid.closed_by == "cage:olga"
    with c.rt.db.read() as tx:
        assert tx.ledger.balance(ledger.VOUCHERS) == 0
    assert c.rt.audit()["vouchers"] == 0


def _race(c: Cashier, number: str, takers: list[str]) -> list[str]:
    """Every taker redeems ``number`` at once (each from its own thread and address)."""
    barrier = threading.Barrier(len(takers))
    outcomes: list[str] = []

    def take(pid: str) -> None:
        barrier.wait()
        try:
            c.redeem(number, player=pid, kiosk=f"k-{pid}", address=pid)
            outcomes.append("paid")
        except VoucherRedeemed:
            outcomes.append("refused")

    threads = [threading.Thread(target=take, args=(p,)) for p in takers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(outcomes)


def test_concurrent_redemptions_pay_exactly_once(cashier: tuple[Cashier, Clock]) -> None:
    c, _ = cashier
    alice = _player(c.rt, 7_700)
    v = c.issue(alice, "kiosk-1")
    takers = [_player(c.rt, 0) for _ in range(6)]
    assert _race(c, v.number, takers) == ["paid"] + ["refused"] * 5
    assert sum(c.rt.balance(p) for p in takers) == 7_700
    assert c.rt.audit()["vouchers"] == 0


def _stored_digest(rt: Runtime, serial: str) -> str:
    with rt.db.read() as tx:
        sql = "SELECT digest FROM vouchers WHERE serial = ?"
        return str(tx.execute(sql, (serial,)).fetchone()[0])  # type: ignore[attr-defined]


def _database_copy(rt: Runtime) -> list[bytes]:
    """Every value of every table: what a copy of the database holds (not keys/)."""
    values: list[bytes] = []
    with rt.db.read() as tx:
        for table in (*TABLES, *ADDED_TABLES):
            for row in tx.execute(f"SELECT * FROM {table}").fetchall():  # type: ignore[attr-defined]
                for v in row:
                    raw = bytes(v) if isinstance(v, (bytes, memoryview)) else str(v).encode()
                    values.append(raw)
    return values


def _unkeyed_hashes(text: str, secrets_in_db: list[bytes]) -> set[str]:
    """The hashes of ``text`` an attacker computes from the database alone: every
    hashlib digest, and HMAC-SHA256 keyed with nothing or with any value it holds."""
    data = text.encode()
    out = set()
    for name in hashlib.algorithms_guaranteed - {"shake_128", "shake_256"}:
        out.add(hashlib.new(name, data).hexdigest())
    for key in [b"", *secrets_in_db]:
        out.add(hmac.new(key, data, hashlib.sha256).hexdigest())
    return out


def test_a_copy_of_the_database_without_the_key_cannot_search_the_numbers(
    cashier: tuple[Cashier, Clock],
) -> None:
    """Attack: the database is copied (a backup, a replica) but not keys/. Each stored
    digest is keyed: the plain SHA-256 of the number (of any number near it, sharing
    the last digits) matches none, nor any other hash or HMAC the copy
    lets one compute; the key that does match is in keys/ only."""
    c, _ = cashier
    rt = c.rt
    v = c.issue(_player(rt, 4_200), "kiosk-1")
    stored = _stored_digest(rt, v.serial)
    key = bytes.fromhex(NumberKey.path(rt.db.directory).read_text())
    assert stored == "hmac:" + hmac.new(key, v.number.encode(), hashlib.sha256).hexdigest()
    copy = _database_copy(rt)
    blob = b"\0".join(copy)
    assert stored.encode() in blob  # the copy holds the digest ...
    assert key.hex().encode() not in blob and key not in blob  # ... never the key
    # the offline search: the true number and 40 neighbours (its body's last four
    # digits kept), each as printed, as typed and without its check digit, under every
    # unkeyed hash and every HMAC keyed with a value of the copy
    found = set()
    for k in range(-20, 21):
        body = f"{(int(v.number[:-1]) + k * 10**4) % 10**17:017d}"
        number = body + numbers.check_digit(body)
        for text in (number, numbers.grouped(number), body):
            found |= _unkeyed_hashes(text, copy)
    assert stored not in found and stored.removeprefix("hmac:") not in found
    assert numbers.legacy_digest(v.number) not in blob.decode(errors="replace")
    # and the number still pays, once
    c.redeem(v.number, operator="olga", address="cage")
    with pytest.raises(VoucherRedeemed):
        c.redeem(v.number, operator="olga", address="cage")


def test_a_voucher_printed_before_the_key_pays_once_and_only_once(
    cashier: tuple[Cashier, Clock],
) -> None:
    """A store made before the voucher key holds its unpaid vouchers under the plain
    SHA-256 (no rehash is possible: the numbers are not kept). Two such rows, made
    through the store's SQL as the older build wrote them: each pays once, at a kiosk
    or from six threads at once, and is then refused everywhere; the audit balances."""
    c, _ = cashier
    rt = c.rt
    alice = _player(rt, 9_000)
    old, raced = c.issue(alice, "kiosk-1", amount=3_000), c.issue(alice, "kiosk-1", amount=6_000)
    with rt.db.transaction() as tx:
        for v in (old, raced):
            tx.execute(  # type: ignore[attr-defined]
                "UPDATE vouchers SET digest = ? WHERE serial = ?",
                (hashlib.sha256(v.number.encode()).hexdigest(), v.serial),
            )
    assert _stored_digest(rt, old.serial) == hashlib.sha256(old.number.encode()).hexdigest()
    bob = _player(rt, 0)
    paid, balance = c.redeem(old.number, player=bob, kiosk="kiosk-2", address="b")
    assert (paid.serial, balance) == (old.serial, 3_000)
    with pytest.raises(VoucherRedeemed):
        c.redeem(old.number, player=alice, kiosk="kiosk-1", address="a")
    with pytest.raises(VoucherRedeemed):
        c.redeem(old.number, operator="olga", address="cage")
    takers = [_player(rt, 0) for _ in range(6)]
    assert _race(c, raced.number, takers) == ["paid"] + ["refused"] * 5
    assert sum(rt.balance(p) for p in takers) == 6_000
    assert rt.audit()["vouchers"] == 0 and rt.balance(bob) == 3_000
    # a new voucher of the same store is keyed: the legacy lookup never finds it
    new = c.issue(bob, "kiosk-2", amount=1_000)
    assert _stored_digest(rt, new.serial).startswith("hmac:")
    with rt.db.read() as tx:
        assert tx.vouchers.find(numbers.legacy_digest(new.number)) is None


def test_an_older_floor_derives_one_key_and_a_new_store_draws_its_own(tmp_path: Path) -> None:
    """A store made before the voucher key gets it on first open from the keys/ every
    appliance of its floor holds a copy of: two appliances arrive at the same key on
    their own (each pays the other's vouchers), written 0600 and kept. A new store's
    key (store init) is random, not derived from anything beside it."""
    a, b, new = tmp_path / "a", tmp_path / "b", tmp_path / "new"
    PlayerTokens(a)  # an older store's keys/: the token key, no voucher key
    for d in (b, new):
        (d / "keys").mkdir(parents=True)
        shutil.copy(a / "keys" / "player-token.key", d / "keys")
    n = numbers.new_number()
    first = NumberKey.of(a).digest(n)
    assert NumberKey.of(b).digest(n) == first and NumberKey.of(a).digest(n) == first
    assert NumberKey.path(a).stat().st_mode & 0o777 == 0o600
    assert not list((a / "keys").glob(".*"))  # no temporary file left behind
    made = NumberKey.made(new).digest(n)
    assert made != first and NumberKey.made(new).digest(n) == made == NumberKey.of(new).digest(n)
    NumberKey.path(b).write_text("not a key")
    with pytest.raises(StoreError, match=r"voucher key .* cannot be read"):
        NumberKey.of(b)


def test_forged_and_guessed_numbers_pay_nothing_and_lock_the_address(
    cashier: tuple[Cashier, Clock],
) -> None:
    c, _ = cashier
    alice, mallory = _player(c.rt, 1_000), _player(c.rt, 0)
    v = c.issue(alice, "kiosk-1")
    wrong_check = v.number[:-1] + str((int(v.number[-1]) + 1) % 10)
    with pytest.raises(VoucherNumberInvalid, match="mistyped"):
        c.redeem(wrong_check, player=mallory, address="m")
    with pytest.raises(VoucherNumberInvalid, match="18 digits"):
        c.redeem("1234", player=mallory, address="m")
    # neighbours of the real number with a valid check digit: unknown, each a guess
    for i in range(GUESS_LIMIT):
        body = f"{(int(v.number[:-1]) + i + 1) % 10**17:017d}"
        with pytest.raises(NoSuchVoucher):
            c.redeem(body + numbers.check_digit(body), player=mallory, address="m")
    # locked out now, even with the right number; another address still may
    with pytest.raises(VoucherThrottled):
        c.redeem(v.number, player=mallory, address="m")
    assert c.rt.balance(mallory) == 0
    c.redeem(v.number, player=alice, address="a")
    assert c.rt.balance(alice) == 1_000 and c.rt.audit()["vouchers"] == 0


def test_an_expired_voucher_is_refused_then_closed_to_the_house(
    cashier: tuple[Cashier, Clock],
) -> None:
    c, clock = cashier
    alice = _player(c.rt, 900)
    v = c.issue(alice, "kiosk-1")
    keep = c.issue(_player(c.rt, 50), "kiosk-1")
    clock.now = v.expires - 1
    assert c.expire_due("cage:olga") == []
    clock.now = v.expires + DAY_US
    with pytest.raises(VoucherExpired, match="expired on"):
        c.redeem(v.number, player=alice, address="a")
    house = c.rt.audit()["house"]
    closed = c.expire_due("operator:olga")
    assert {x.serial for x in closed} == {v.serial, keep.serial}
    report = c.rt.audit()
    assert report["vouchers"] == 0 and report["house"] == house + 950
    with pytest.raises(VoucherExpired):
        c.redeem(v.number, operator="olga", address="cage")


def test_nothing_to_cash_out_is_refused(cashier: tuple[Cashier, Clock]) -> None:
    c, _ = cashier
    with pytest.raises(VoucherError, match="nothing to cash out"):
        c.issue(_player(c.rt, 0), "kiosk-1")


def test_the_audit_catches_a_voucher_paid_twice_behind_its_back(
    cashier: tuple[Cashier, Clock], tmp_path: Path
) -> None:
    """A second voucher-redeemed record for one voucher (a replayed or forged payment)
    is reported by the audit even when its ledger rows balance."""
    c, _ = cashier
    rt = c.rt
    alice, bob = _player(rt, 400), _player(rt, 0)
    v = c.issue(alice, "kiosk-1")
    c.redeem(v.number, player=bob, address="b")
    from kiosk_ui.cashier.entries import REDEEMED, redeemed_entry
    from kiosk_ui.table.money import post_entries

    body = {"voucher": v.serial, "amount": 400, "at": "kiosk", "player": bob, "kiosk": "x"}
    with rt.log.transaction() as tx:
        # money put back on the vouchers account so the forged payment's rows can post
        refill = [ledger.Posting(ledger.CASH, -400), ledger.Posting(ledger.VOUCHERS, 400)]
        tx.ledger.post("voucher-out", refill, ts=1, log_seq=1, log_hash="x" * 64)
        rec = rt.log.append(tx, f"player:{bob}", REDEEMED, body)
        again = [redeemed_entry(v.serial, 400, bob)]
        post_entries(tx, again, ts=1, log_seq=rec.seq, log_hash=rec.hash)
    with pytest.raises(AuditError, match=f"voucher {v.serial} is already closed"):
        rt.audit()


def test_a_store_made_before_vouchers_opens_and_gets_the_table(tmp_path: Path) -> None:
    """An older SQLite store has no vouchers table: it still opens, audits, and the
    cashier makes the table."""
    rt = Runtime(tmp_path / "old", synchronous="NORMAL", create=True)
    _player(rt, 500)
    with rt.db.transaction() as tx:
        tx.execute("DROP TABLE vouchers")  # type: ignore[attr-defined]
    rt.close()
    from kiosk_ui.store.audit import audit_store

    assert audit_store(tmp_path / "old")["vouchers"] == 0  # read-only, no table: fine
    rt = Runtime(tmp_path / "old", synchronous="NORMAL")
    try:
        c = Cashier(rt, voucher_days=1)
        with rt.db.read() as tx:
            assert tx.vouchers.exists_table()
        pid = rt.create_player("q")
        rt.cash_in(pid, 300, "cage")
        v = c.issue(pid, "k")
        assert rt.audit()["vouchers"] == v.amount == 300
    finally:
        rt.close()


def test_a_floor_pays_each_others_vouchers_and_refuses_a_foreign_key(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    """Two appliances on one PostgreSQL store with copies of one keys/: a voucher printed
    at one pays once at the other and is then refused at both. Attack/mistake: a third
    appliance whose voucher key is not the store's (keys/ copied before the key was made:
    it derives its own) is refused at start-up, naming what to do, before it prints a
    voucher nobody else could pay; nothing of the key is in the database's check."""
    url = pg_cluster.fresh_url()
    first, second, stray = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    Runtime(first, create=True, url=url, shared=True).close()
    shutil.copytree(first / "keys", stray / "keys")  # before the voucher key existed
    PlayerTokens(stray)  # ... so its own token key, and its own voucher key from it
    NumberKey.made(first)  # as store init does
    shutil.copytree(first / "keys", second / "keys")
    rts = [Runtime(d, url=url, shared=True, synchronous="NORMAL") for d in (first, second)]
    try:
        ca, cb = (Cashier(rt, voucher_days=1) for rt in rts)
        ann = _player(rts[0], 2_500)
        v = ca.issue(ann, "kiosk-a")
        bob = _player(rts[1], 0)
        assert cb.redeem(v.number, player=bob, kiosk="kiosk-b", address="b")[1] == 2_500
        for c in (ca, cb):
            with pytest.raises(VoucherRedeemed):
                c.redeem(v.number, operator="olga", address="cage")
        rc = Runtime(stray, url=url, shared=True, synchronous="NORMAL")
        try:
            with pytest.raises(StoreError, match="not the one this store's vouchers"):
                Cashier(rc, voucher_days=1)
        finally:
            rc.close()
        with rts[0].db.read() as tx:
            sql = "SELECT value FROM meta WHERE key = 'voucher_key_check'"
            check = str(tx.execute(sql).fetchone()[0])  # type: ignore[attr-defined]
        key = NumberKey.path(first).read_text()
        assert check == ca.key.check() and key not in check
        assert rts[0].audit()["vouchers"] == 0
    finally:
        for rt in rts:
            rt.close()
