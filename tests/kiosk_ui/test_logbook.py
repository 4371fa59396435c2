"""The LogBook keeps the whole-log tree in step with the store, anchors it, and checks at open."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from certification.log.canonical import canonical
from certification.log.keys import KeyStore
from certification.log.merkle import merkle_root
from certification.log.treehead import read_heads
from kiosk_ui.errors import StoreError
from kiosk_ui.store import log_records
from kiosk_ui.table.runtime import Runtime


def _disk(rt: Runtime) -> list[bytes]:
    with rt.db.lock:
        return log_records.lines(rt.db.conn)


def test_tree_follows_the_log_and_resync_rebuilds_it(tmp_path: Path) -> None:
    rt = Runtime(tmp_path / "s", synchronous="NORMAL", checkpoint_every=3, create=True)
    pid = rt.create_player("p")
    for _ in range(5):
        rt.cash_in(pid, 100, operator="op")
    w = rt.log.writer
    assert w.tree is not None and w.tree.root() == merkle_root(_disk(rt))
    # Records the store never got (a group commit that failed): resync drops them.
    w.append(1, "engine", "event", {"lost": True})
    w.append(2, "engine", "event", {"lost": True})
    rt.log.resync()
    lines = _disk(rt)
    assert w.head_seq == len(lines)
    assert w.tree is not None and w.tree.root() == merkle_root(lines)
    rt.cash_in(pid, 100, operator="op")
    assert w.tree.root() == merkle_root(_disk(rt))
    rt.close()


def test_anchor_gets_the_committed_head_at_start_and_at_stop(tmp_path: Path) -> None:
    anchor = tmp_path / "anchor.jsonl"
    rt = Runtime(tmp_path / "s", synchronous="NORMAL", anchor=anchor, create=True)
    pid = rt.create_player("p")
    rt.cash_in(pid, 100, operator="op")
    rt.close()
    rt = Runtime(tmp_path / "s", synchronous="NORMAL", anchor=anchor)
    lines = _disk(rt)
    heads = read_heads(anchor)
    assert heads[-1].size == len(lines)
    assert heads[-1].root == merkle_root(lines).hex()
    assert heads[-1].verify(rt.log.writer.key.public)
    rt.close()


def test_a_store_whose_signing_key_is_gone_is_refused(tmp_path: Path) -> None:
    rt = Runtime(tmp_path / "s", synchronous="NORMAL", create=True)
    kid = rt.log.writer.key.key_id
    rt.close()
    (tmp_path / "s" / "keys" / f"log-signing-{kid}.pem").unlink()
    with pytest.raises(StoreError, match=f"signed by key {kid}"):
        Runtime(tmp_path / "s", synchronous="NORMAL")


def test_two_workers_anchor_their_own_chains_and_a_rolled_back_chain_is_refused(
    tmp_path: Path,
) -> None:
    """Two workers of one SQLite store each append and anchor their own chain (one
    anchor file, a head per chain); cutting one chain's tail back behind its head in the
    anchor gets that worker's store refused at its next start, and only that chain is
    named."""
    anchor, store = tmp_path / "anchor.jsonl", tmp_path / "s"
    Runtime(store, synchronous="NORMAL", create=True).close()
    workers = [
        Runtime(store, synchronous="NORMAL", anchor=anchor, shared=True, worker=i) for i in range(2)
    ]
    for i, rt in enumerate(workers):
        pid = rt.create_player(f"p{i}")
        rt.cash_in(pid, 100 * (i + 1), operator="op")
    names = [rt.db.appliance for rt in workers]
    for rt in workers:
        rt.close()
    heads = {h.chain: h for h in read_heads(anchor)}
    assert set(names) <= set(heads)
    conn = log_records.open_readonly(store)
    try:
        sizes = {c: log_records.last_seq(conn, c) for c in names}
    finally:
        conn.close()
    assert all(heads[c].size == sizes[c] for c in names)  # each head is its chain's
    victim = names[1]
    with sqlite3.connect(log_records.db_path(store)) as db:  # its last record cut away
        db.execute("DELETE FROM log WHERE chain = ? AND seq = ?", (victim, sizes[victim]))
        db.execute("DELETE FROM log_verified WHERE chain = ?", (victim,))
    again = Runtime(store, synchronous="NORMAL", anchor=anchor, shared=True, worker=0)
    again.close()  # worker 0's chain is whole: it starts
    with pytest.raises(StoreError, match="behind the signed tree head"):
        Runtime(store, synchronous="NORMAL", anchor=anchor, shared=True, worker=1)


def test_one_process_per_chain(tmp_path: Path) -> None:
    """The same worker started twice would append one chain from two heads: refused."""
    store = tmp_path / "s"
    Runtime(store, synchronous="NORMAL", create=True).close()
    first = Runtime(store, synchronous="NORMAL", shared=True, worker=0)
    try:
        with pytest.raises(StoreError, match="one writer per chain"):
            Runtime(store, synchronous="NORMAL", shared=True, worker=0)
        Runtime(store, synchronous="NORMAL", shared=True, worker=1).close()  # its own chain
    finally:
        first.close()


def _croupier(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "kiosk_ui.cli", *args], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _log_verify(store: Path) -> str:
    """``croupier log verify`` of ``store``, trusting the key ``log pubkey`` exports."""
    key = store.parent / "root.pem"
    key.write_text(_croupier("log", "pubkey", "--store", str(store)))
    return _croupier("log", "verify", "--store", str(store), "--pubkey", str(key))


def test_a_fresh_store_holds_no_unsigned_record(tmp_path: Path) -> None:
    """`store init` seals its log-start, and a worker's chain is signed from its start:
    a fresh one-process store, and a `serve --workers 2` store whose workers stopped
    before any game (chain "" never written again), verify with nothing unsigned."""
    one = tmp_path / "one" / "store"
    _croupier("store", "init", "--store", str(one))
    out = _log_verify(one)
    assert out.startswith("OK: ") and "unsigned" not in out, out
    Runtime(one, synchronous="NORMAL").close()  # a start-up check accepts the seal
    workers = tmp_path / "workers" / "store"
    _croupier("store", "init", "--store", str(workers))
    for rt in [Runtime(workers, synchronous="NORMAL", shared=True, worker=i) for i in range(2)]:
        rt.close()
    out = _log_verify(workers)
    assert out.startswith("OK: ") and "in 3 chains" in out and "unsigned" not in out, out


# --- the verified position names its chain --------------------------------------------


def _two_worker_store(tmp_path: Path, anchor: Path | None = None) -> tuple[Path, list[str]]:
    """A SQLite store two workers wrote, signed and stopped cleanly: each chain (the
    second longer) ends at the checkpoint its verified row names."""
    store = tmp_path / "s"
    Runtime(store, synchronous="NORMAL", create=True).close()
    names = []
    for i in range(2):
        rt = Runtime(store, synchronous="NORMAL", shared=True, worker=i, anchor=anchor)
        pid = rt.create_player(f"p{i}")
        for n in range(1 + 4 * i):
            rt.cash_in(pid, 100 * (n + 1), operator="op")
        rt.log.seal()
        names.append(rt.db.appliance)
        rt.close()
        assert _verified_row(store, names[-1])[0] == _last_seq(store, names[-1])
    return store, names


def _worker(store: Path, i: int, anchor: Path | None = None) -> Runtime:
    return Runtime(store, synchronous="NORMAL", shared=True, worker=i, anchor=anchor)


def _verified_row(store: Path, chain: str) -> tuple[int, str, str, str, str]:
    with sqlite3.connect(log_records.db_path(store)) as db:
        row = db.execute(
            "SELECT seq, hash, tree, key_id, signature FROM log_verified WHERE chain = ?",
            (chain,),
        ).fetchone()
    assert row is not None
    return row


def _last_seq(store: Path, chain: str) -> int:
    conn = log_records.open_readonly(store)
    try:
        return log_records.last_seq(conn, chain)
    finally:
        conn.close()


def _put_verified(store: Path, chain: str, row: tuple[int, str, str, str, str]) -> None:
    """The attacker writes ``chain``'s verified row (the store's file is all it holds)."""
    with sqlite3.connect(log_records.db_path(store)) as db:
        db.execute("INSERT OR REPLACE INTO log_verified VALUES (?, ?, ?, ?, ?, ?)", (chain, *row))


def test_a_verified_row_copied_onto_another_chain_is_refused_as_forged(tmp_path: Path) -> None:
    """Chain A's signed row stored as chain B's: the signature names chain A, so B's
    start-up refuses it as forged and names B, with one line; A still resumes from its
    own row (the check incremental, not from record 1)."""
    store, (a, b) = _two_worker_store(tmp_path)
    _put_verified(store, b, _verified_row(store, a))
    with pytest.raises(StoreError) as refused:
        _worker(store, 1)
    line = str(refused.value)
    assert f"of chain {b} is not signed for this chain" in line and "forged" in line, line
    assert "\n" not in line and "Traceback" not in line
    rt = _worker(store, 0)
    try:
        assert rt.log.checked is not None
        assert rt.log.checked.resumed_after == _verified_row(store, a)[0] > 0
    finally:
        rt.close()


def test_a_renamed_chain_is_refused_at_start(tmp_path: Path) -> None:
    """Chain A's records and verified row renamed to chain B (B's own deleted first): every
    record the incremental check reads still hashes as it did, so only the signature,
    which names chain A, tells (nothing follows the verified checkpoint: no record is read
    that could name its chain); before it did, B's worker started on A's records."""
    store, (a, b) = _two_worker_store(tmp_path)
    with sqlite3.connect(log_records.db_path(store)) as db:
        db.execute("DELETE FROM log WHERE chain = ?", (b,))
        db.execute("DELETE FROM log_verified WHERE chain = ?", (b,))
        db.execute("UPDATE log SET chain = ? WHERE chain = ?", (b, a))
        db.execute("UPDATE log_verified SET chain = ? WHERE chain = ?", (b, a))
    with pytest.raises(StoreError, match=f"of chain {b} is not signed for this chain.*forged"):
        _worker(store, 1)


def _v1_row(store: Path, chain: str) -> tuple[int, str, str, str, str]:
    """``chain``'s verified row re-signed in the format of a store written before rows
    named their chain (``croupier-log-verified-v1``: seq, hash, tree, key id)."""
    seq, hash_, tree, kid, _ = _verified_row(store, chain)
    body = {"seq": seq, "hash": hash_, "tree": orjson.loads(tree), "key_id": kid}
    sig = KeyStore(store).load(kid).sign(b"croupier-log-verified-v1\n" + canonical(body))
    return seq, hash_, tree, kid, sig


@pytest.mark.parametrize("source", ["own", "other"])
def test_an_old_v1_row_counts_as_no_verified_position_and_is_re_signed(
    tmp_path: Path, source: str
) -> None:
    """A v1 row (its own chain's, or one copied from the other chain: v1 cannot tell)
    is never trusted: the start-up check runs from record 1, starts the store, and signs
    a v2 row at the checkpoint it reached, so the next start resumes from it."""
    store, (a, b) = _two_worker_store(tmp_path)
    own = _verified_row(store, b)
    _put_verified(store, b, _v1_row(store, b if source == "own" else a))
    rt = _worker(store, 1)
    try:
        assert rt.log.checked is not None and rt.log.checked.resumed_after == 0
    finally:
        rt.close()
    assert _verified_row(store, b)[0] == own[0]
    rt = _worker(store, 1)
    try:
        assert rt.log.checked is not None and rt.log.checked.resumed_after == own[0] > 0
    finally:
        rt.close()


def test_a_one_process_store_resumes_from_its_verified_row(tmp_path: Path) -> None:
    """The unnamed chain "" of a one-process store: the row is signed for it, a restart
    checks only what follows it, and the same row on a named chain is refused."""
    store = tmp_path / "s"
    rt = Runtime(store, synchronous="NORMAL", checkpoint_every=3, create=True)
    pid = rt.create_player("p")
    for _ in range(4):
        rt.cash_in(pid, 100, operator="op")
    rt.close()
    rt = Runtime(store, synchronous="NORMAL")
    try:
        assert rt.log.checked is not None
        assert rt.log.checked.resumed_after == _verified_row(store, "")[0] > 0
    finally:
        rt.close()
    worker = _worker(store, 0)  # its chain, then the unnamed chain's row moved onto it
    name = worker.db.appliance
    worker.close()
    _put_verified(store, name, _verified_row(store, ""))
    with pytest.raises(StoreError, match=f"of chain {name} is not signed for this chain"):
        _worker(store, 0)


def test_each_worker_anchors_its_own_chain_from_its_own_last_head(tmp_path: Path) -> None:
    """One anchor file holds every chain's heads; a worker restarting must compare with
    its own chain's last head, not the file's last line (the other chain's, longer): a
    worker that took the other chain's size for its own anchored nothing while it grew
    to that size, and that stretch could be rolled back unseen."""
    anchor = tmp_path / "anchor.jsonl"
    store, (a, b) = _two_worker_store(tmp_path, anchor)
    rt = _worker(store, 1, anchor)
    rt.close()
    rt = _worker(store, 0, anchor)  # the shorter chain, restarting after the longer one
    try:
        assert read_heads(anchor)[-1].chain == b
        pid = rt.create_player("q")
        rt.cash_in(pid, 100, operator="op")
        assert rt.log.writer.head_seq < read_heads(anchor)[-1].size  # still shorter than b
        assert rt.log.anchor_head()
        last = read_heads(anchor)[-1]
        assert last.chain == a and last.size == rt.log.writer.head_seq
    finally:
        rt.close()


def test_a_renamed_chain_with_an_old_v1_row_is_refused_by_the_full_check(tmp_path: Path) -> None:
    """Why a v1 row is not accepted even once (to be re-signed): it names no chain, so
    chain A renamed B with its v1 row would pass as B's and be re-signed as B's. Counted
    as no position, B is checked from record 1, and A's records name chain A."""
    store, (a, b) = _two_worker_store(tmp_path)
    old = _v1_row(store, a)
    with sqlite3.connect(log_records.db_path(store)) as db:
        db.execute("DELETE FROM log WHERE chain = ?", (b,))
        db.execute("DELETE FROM log_verified WHERE chain IN (?, ?)", (a, b))
        db.execute("UPDATE log SET chain = ? WHERE chain = ?", (b, a))
    _put_verified(store, b, old)
    with pytest.raises(StoreError, match=f"record at position 1 of chain {b} names chain "):
        _worker(store, 1)
