"""The LogBook keeps the whole-log tree in step with the store, anchors it, and checks at open."""

from __future__ import annotations

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
