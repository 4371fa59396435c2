"""Log records and the writer that chains and checkpoints them.

A record is canonical JSON of ``{seq, prev, ts, source, type, game, body}``:
``seq`` counts from 1 with no gaps, ``prev`` is the SHA-256 (hex) of the previous
record's bytes (64 zeros for the first), ``ts`` is microseconds since the Unix
epoch (an integer, supplied by the caller's clock so this module stays pure),
``game`` the game id or ``""``. A record's hash is SHA-256 over its bytes.

A store holds one chain per writer (``chain`` names it: an appliance or one of
its ``serve --workers`` processes; ``""`` for a store one process writes alone). A
named chain's records carry ``"chain": NAME`` among their fields, so a record moved
into another chain no longer belongs where it stands and its bytes say so; the
unnamed chain's records have no such field (the format of a one-writer store is
unchanged). Each chain has its own log-start, seq, checkpoints and tree.

Every ``checkpoint_every`` records, and whenever the caller asks (at every game
end), the writer appends a ``checkpoint`` record whose body holds the RFC 6962
Merkle root over the records since the previous checkpoint, the hash of the
last of them, and an Ed25519 signature over both. A ``key-rotation`` record,
signed by the outgoing key, introduces the next key.

The writer also keeps the RFC 6962 tree over every record of the log (checkpoints
included) as a :class:`~certification.log.merkle.Frontier`, so a signed tree head
(:mod:`.treehead`) of the current log costs a few hashes, and remembers the tree at
its recent checkpoints (``snapshots``) so a head can be made for any of them.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from certification.log.canonical import canonical
from certification.log.keys import SigningKey, public_raw_hex
from certification.log.merkle import Frontier, leaf_hash, root_of_leaf_hashes
from certification.log.treehead import TreeHead, sign_tree_head

GENESIS_PREV = "0" * 64
CHECKPOINT = "checkpoint"
KEY_ROTATION = "key-rotation"
LOG_START = "log-start"
FORMAT_VERSION = 1
SNAPSHOTS = 1024  # checkpoints whose tree the writer remembers

#: what ``mark()`` returns and ``reset()`` takes: head seq, head hash, pending leaves, tree
Mark = tuple[int, str, int, tuple[int, tuple[bytes, ...]] | None]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The log as it stood at one checkpoint: enough to sign a tree head for it."""

    seq: int
    hash: str
    tree: Frontier
    key: SigningKey
    leaves: tuple[bytes, ...] = ()  # leaf hashes since the last checkpoint (none at one)
    checkpoint: bool = False  # taken at a checkpoint record


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """A record as stored: its bytes, hash, and the fields a store indexes."""

    seq: int
    hash: str
    data: bytes
    type: str
    game: str
    chain: str = ""


def checkpoint_message(body: Mapping[str, Any]) -> bytes:
    """The exact bytes a checkpoint signature covers."""
    signed = {k: body[k] for k in ("from_seq", "to_seq", "root", "head", "key_id")}
    return b"croupier-log-checkpoint-v1\n" + canonical(signed)


def rotation_message(body: Mapping[str, Any]) -> bytes:
    """The exact bytes the outgoing key signs to introduce the next one."""
    signed = {k: body[k] for k in ("old_key_id", "new_key_id", "new_public_key")}
    return b"croupier-log-key-rotation-v1\n" + canonical(signed)


def make_record(
    seq: int,
    prev: str,
    ts: int,
    source: str,
    type_: str,
    body: Mapping[str, Any],
    game: str = "",
    chain: str = "",
) -> StoredRecord:
    fields: dict[str, Any] = {
        "seq": seq,
        "prev": prev,
        "ts": ts,
        "source": source,
        "type": type_,
        "game": game,
        "body": dict(body),
    }
    if chain:
        fields["chain"] = chain
    data = canonical(fields)
    return StoredRecord(seq, hashlib.sha256(data).hexdigest(), data, type_, game, chain)


class JournalWriter:
    """Builds chained, checkpointed records; the caller stores them.

    The writer keeps the chain head and the leaf hashes since the last
    checkpoint. ``mark()``/``reset(mark)`` let a caller undo appends whose
    storage transaction rolled back, so the in-memory head never runs ahead of
    what is durable.
    """

    def __init__(
        self,
        key: SigningKey,
        *,
        head_seq: int = 0,
        head_hash: str = GENESIS_PREV,
        pending_leaves: list[bytes] | None = None,
        checkpoint_every: int = 1000,
        tree: Frontier | None = None,
        chain: str = "",
    ) -> None:
        """``tree``: the RFC 6962 tree over records 1..head_seq; without it a writer
        that starts on an existing log (head_seq > 0) makes no tree heads. ``chain``:
        the chain this writer appends (see the module docstring)."""
        if checkpoint_every < 1:
            raise ValueError("checkpoint_every must be at least 1")
        self.key = key
        self.chain = chain
        self.head_seq = head_seq
        self.head_hash = head_hash
        self._leaves: list[bytes] = list(pending_leaves or [])
        self.checkpoint_every = checkpoint_every
        if tree is None and head_seq == 0:
            tree = Frontier()
        if tree is not None and tree.size != head_seq:
            raise ValueError(f"the tree has {tree.size} leaves, the log {head_seq} records")
        self.tree = tree
        self.snapshots: deque[Snapshot] = deque(maxlen=SNAPSHOTS)

    @property
    def unsigned(self) -> int:
        """Records appended since the last checkpoint."""
        return len(self._leaves)

    def mark(self) -> Mark:
        tree = self.tree.state() if self.tree is not None else None
        return (self.head_seq, self.head_hash, len(self._leaves), tree)

    def reset(self, mark: Mark) -> None:
        self.head_seq, self.head_hash, n, tree = mark
        del self._leaves[n:]
        if tree is not None:
            self.tree = Frontier(tree[0], tree[1])
        while self.snapshots and self.snapshots[-1].seq > self.head_seq:
            self.snapshots.pop()

    def restore(self, head_seq: int, head_hash: str, leaves: list[bytes], tree: Frontier) -> None:
        """Take the head, pending leaves and tree re-read from storage."""
        self.head_seq, self.head_hash = head_seq, head_hash
        self._leaves = list(leaves)
        self.tree = tree
        while self.snapshots and self.snapshots[-1].seq > head_seq:
            self.snapshots.pop()

    def _push(self, rec: StoredRecord, *, leaf: bool = True) -> StoredRecord:
        self.head_seq, self.head_hash = rec.seq, rec.hash
        if leaf:
            h = leaf_hash(rec.data)
            self._leaves.append(h)
            if self.tree is not None:
                self.tree.append(h)
        else:
            if self.tree is not None:
                self.tree.append(leaf_hash(rec.data))
                self.snapshots.append(
                    Snapshot(rec.seq, rec.hash, self.tree.copy(), self.key, checkpoint=True)
                )
        return rec

    def tree_head(self, ts: int) -> TreeHead:
        """A signed tree head of the log as it stands (RFC 6962 root over every record)."""
        if self.tree is None:
            raise ValueError("this writer keeps no tree")
        return sign_tree_head(
            self.key, self.head_seq, self.tree.root(), self.head_hash, ts, self.chain
        )

    def append(
        self, ts: int, source: str, type_: str, body: Mapping[str, Any], game: str = ""
    ) -> list[StoredRecord]:
        """Append one record; a checkpoint follows it when one is due."""
        rec = make_record(
            self.head_seq + 1, self.head_hash, ts, source, type_, body, game, self.chain
        )
        out = [self._push(rec)]
        if len(self._leaves) >= self.checkpoint_every:
            out.append(self.checkpoint(ts))
        return out

    def start(self, ts: int, source: str = "croupier") -> list[StoredRecord]:
        """The first record of a new log: names the format and the first key."""
        body = {
            "format": FORMAT_VERSION,
            "key_id": self.key.key_id,
            "public_key": public_raw_hex(self.key.public),
        }
        return self.append(ts, source, LOG_START, body)

    def checkpoint(self, ts: int, source: str = "croupier") -> StoredRecord:
        """Sign the records since the last checkpoint (a no-op body if there are none)."""
        body: dict[str, Any] = {
            "from_seq": self.head_seq - len(self._leaves) + 1,
            "to_seq": self.head_seq,
            "root": root_of_leaf_hashes(self._leaves).hex(),
            "head": self.head_hash,
            "key_id": self.key.key_id,
        }
        body["signature"] = self.key.sign(checkpoint_message(body))
        rec = make_record(
            self.head_seq + 1, self.head_hash, ts, source, CHECKPOINT, body, "", self.chain
        )
        self._leaves.clear()
        return self._push(rec, leaf=False)

    def rotate(self, new_key: SigningKey, ts: int, source: str = "operator") -> list[StoredRecord]:
        """Checkpoint with the old key, then record the new key signed by the old one."""
        out = [self.checkpoint(ts, source)]
        body: dict[str, Any] = {
            "old_key_id": self.key.key_id,
            "new_key_id": new_key.key_id,
            "new_public_key": public_raw_hex(new_key.public),
        }
        body["signature"] = self.key.sign(rotation_message(body))
        rec = make_record(
            self.head_seq + 1, self.head_hash, ts, source, KEY_ROTATION, body, "", self.chain
        )
        out.append(self._push(rec))
        self.key = new_key
        out.append(self.checkpoint(ts, source))
        return out
