"""The LogBook keeps the whole-log tree in step with the store, anchors it, and checks at open."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

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
