"""The runtime's handle on the game log: appends records inside store transactions.

Every write goes through :meth:`LogBook.transaction`, which opens one store
transaction for log records and ledger rows together and rolls the in-memory
chain head back if the transaction fails, so the head never runs ahead of disk.

Opening a LogBook is the start-up integrity check (:mod:`certification.log.integrity`):
the log is verified from its last verified checkpoint to the head, the key chain is
followed, and with an anchor file configured the store must not be behind the last
signed tree head in it. A store that fails is refused with one line naming the first
bad record (:class:`StoreError`); ``croupier log verify`` still reads it, read-only.
With an anchor, the LogBook appends a signed tree head of the committed log to it at
start, every ``ANCHOR_EVERY`` seconds while the log grows, and at a clean stop, when
it also records the last checkpoint as verified so the next start checks only what
came after it.

A LogBook appends one chain (:mod:`certification.log.chains`): on a store several
processes write (``Store.shared``: the workers of ``serve --workers``, a floor's
appliances) the chain named for this writer (``Store.appliance``, the name its
table leases carry), else the store's one chain ``""``. It checks, follows and
anchors only its own chain: no writer re-reads another's records, so the writers
never wait for each other's hashing.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import orjson

from certification.log import integrity
from certification.log.chain import CHECKPOINT, JournalWriter, Snapshot, StoredRecord
from certification.log.errors import LogError
from certification.log.keys import KeyStore, SigningKey, public_pem
from certification.log.merkle import Frontier, leaf_hash
from certification.log.treehead import append_head, last_head
from kiosk_ui.errors import StoreError
from kiosk_ui.store.protocol import Store, Tx

ANCHOR_EVERY = 5.0  # seconds between signed tree heads appended to the anchor


def orjson_type(data: bytes) -> str:
    rec = orjson.loads(data)
    return str(rec.get("type", "")) if isinstance(rec, dict) else ""


def wall_clock_us() -> int:
    return time.time_ns() // 1000


class LogBook:
    def __init__(
        self,
        db: Store,
        *,
        checkpoint_every: int = 1000,
        clock: Callable[[], int] = wall_clock_us,
        anchor: Path | None = None,
        full_check: bool = False,
    ) -> None:
        self.db = db
        self.clock = clock
        self.anchor = anchor
        self._pending: list[StoredRecord] = []  # the current unit's records, written at its end
        self._depth = 0
        self.keys = KeyStore(db.directory)
        self.chain = db.appliance if db.shared else ""
        with db.read() as tx:
            log = tx.log.of(self.chain)
            try:
                checked = integrity.check_log(log, full=full_check, name=self.chain)
                if anchor is not None:
                    integrity.check_anchor(log, checked, anchor, self.chain)
            except LogError as exc:
                raise StoreError(
                    f"store {db.directory} refused: the game log fails its integrity check: "
                    f"{exc} (inspect it read-only with `croupier log verify --store "
                    f"{db.directory} --pubkey ROOT`)"
                ) from None
        self.checked = checked
        if checked is None:
            key = self.keys.current()
            if key is None:
                key = SigningKey.generate()
                self.keys.save(key)
            self.writer = JournalWriter(key, checkpoint_every=checkpoint_every, chain=self.chain)
            with self.transaction() as tx:
                tx.log.insert(self.writer.start(self.clock()))
                if self.chain:  # a shared store's writer: its log-start signed at once
                    self.checkpoint(tx)  # (a worker may stop before its first game)
        else:
            kid = checked.chain.ids[-1]
            try:
                key = self.keys.load(kid)
            except LogError:
                raise StoreError(
                    f"store {db.directory} refused: its log is signed by key {kid}, which is "
                    f"not in {self.keys.directory}"
                ) from None
            self.writer = JournalWriter(
                key,
                head_seq=checked.head_seq,
                head_hash=checked.head_hash,
                pending_leaves=checked.leaves,
                checkpoint_every=checkpoint_every,
                tree=checked.tree,
                chain=self.chain,
            )
            if checked.checkpoint is not None:  # a row the check did not start from (none,
                # one of the old v1 format, or --full) is replaced even at the same seq
                resumed = checked.resumed_after == checked.checkpoint[0]
                self._save_verified(*checked.checkpoint, key, replace=not resumed)
        # The state as opened: where a resync finds the tree if no checkpoint of this run
        # is old enough.
        assert self.writer.tree is not None
        self._base = Snapshot(
            self.writer.head_seq,
            self.writer.head_hash,
            self.writer.tree.copy(),
            self.writer.key,
            tuple(checked.leaves) if checked is not None else (),
        )
        self._anchored = 0
        self._stop = threading.Event()
        self._anchor_thread: threading.Thread | None = None
        if anchor is not None:
            last = last_head(anchor, self.chain)  # this chain's: the file holds every chain's
            self._anchored = last.size if last is not None else 0
            self.anchor_head()
            self._anchor_thread = threading.Thread(
                target=self._anchor_loop, name="croupier-anchor", daemon=True
            )
            self._anchor_thread.start()

    def _save_verified(
        self, seq: int, hash_: str, tree: Frontier, key: SigningKey, *, replace: bool = False
    ) -> None:
        """Sign checkpoint ``seq`` of this chain as verified, if the stored row is older
        (``replace``: whatever the stored row says, the check just proved ``seq``)."""
        with self.db.transaction() as tx:
            stored = tx.checkpoints.verified_seq(self.chain)
            if replace or stored is None or stored < seq:
                position = integrity.signed_position(key, seq, hash_, tree, self.chain)
                tx.checkpoints.save(position, self.chain)

    def anchor_head(self) -> bool:
        """Append a signed tree head of the committed log to the anchor, if it grew.

        Only a head the database already holds is anchored (no group open, and the
        stored head is the writer's), so the anchor never runs ahead of the store.
        """
        if self.anchor is None:
            return False
        with self.db.read() as tx:
            if self.db.open_group() is not None or self._depth:
                return False
            w = self.writer
            if w.head_seq <= self._anchored:
                return False
            data = tx.log.of(self.chain).record(w.head_seq)
            if data is None or hashlib.sha256(data).hexdigest() != w.head_hash:
                return False
            head = w.tree_head(self.clock())
        append_head(self.anchor, head)
        self._anchored = head.size
        return True

    def _anchor_loop(self) -> None:
        failures: tuple[type[Exception], ...] = (LogError, StoreError, *self.db.errors)
        while not self._stop.wait(ANCHOR_EVERY):
            try:
                self.anchor_head()
            except failures:
                continue  # tried again at the next tick, and at the stop

    def close(self) -> None:
        """At a clean stop: anchor the final head, and record the last checkpoint as
        verified (everything after the start-up check was written by this process)."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self._anchor_thread is not None:
            self._anchor_thread.join(timeout=5)
        if self.anchor is not None:
            self.anchor_head()
        with self.db.read() as tx:
            if self.db.open_group() is not None:
                return
            snaps = [s for s in self.writer.snapshots if s.checkpoint]
            last = snaps[-1] if snaps else None
            if last is not None:  # only a checkpoint the store holds as it was written
                data = tx.log.of(self.chain).record(last.seq)
                if data is None or hashlib.sha256(data).hexdigest() != last.hash:
                    return
        if last is not None:
            # On failure the next start checks from the older verified position instead.
            with suppress(StoreError, *self.db.errors):
                self._save_verified(last.seq, last.hash, last.tree, last.key)

    @contextmanager
    def transaction(self, *, defer: bool = False) -> Iterator[Tx]:
        """One unit of work for log and ledger. The unit's log records are written with
        one statement when it ends (nothing reads the log inside a unit). ``defer``: see
        :meth:`Store.transaction`; whoever commits a deferred group that fails must
        call :meth:`resync`."""
        try:
            with self.db.transaction(defer=defer) as tx:
                mark = self.writer.mark()
                start = len(self._pending)
                self._depth += 1
                try:
                    yield tx
                    if self._depth == 1 and self._pending:
                        tx.log.insert(self._pending)
                        self._pending.clear()
                except BaseException:
                    self.writer.reset(mark)
                    del self._pending[start:]
                    raise
                finally:
                    self._depth -= 1
        except StoreError:
            # The group commit holding this work failed: the chain head on disk is the
            # truth (the other units of the group were rolled back too).
            self.resync()
            raise

    def resync(self) -> None:
        """Take this chain's head, pending leaves and tree from what the database holds
        (after a failed commit: the records of the lost group are not there)."""
        with self.db.read() as tx:
            log = tx.log.of(self.chain)
            disk = log.last_seq()
            base = self._base
            for snap in self.writer.snapshots:
                if snap.seq <= disk and snap.seq >= base.seq:
                    base = snap
            if base.seq > disk:  # the store lost what it held at start: nothing to build on
                raise StoreError(f"the log ends at {disk}, before {base.seq} it held at start")
            tree = base.tree.copy()
            leaves = list(base.leaves)
            head = base.hash
            for lines in log.chunks(base.seq, disk):
                for data in lines:
                    h = leaf_hash(data)
                    tree.append(h)
                    if orjson_type(data) == CHECKPOINT:
                        leaves.clear()
                    else:
                        leaves.append(h)
                    head = hashlib.sha256(data).hexdigest()
            self.writer.restore(disk, head, leaves, tree)

    def append(
        self,
        conn: Tx,
        source: str,
        type_: str,
        body: Mapping[str, Any],
        game: str = "",
    ) -> StoredRecord:
        """Append one record (and a checkpoint if due); return it (its seq and hash name it
        in the ledger rows it causes)."""
        records = self.writer.append(self.clock(), source, type_, body, game)
        self._write(conn, records)
        return records[0]

    def checkpoint(self, conn: Tx) -> None:
        if self.writer.unsigned:
            self._write(conn, [self.writer.checkpoint(self.clock())])

    def seal(self) -> None:
        """Sign what this chain holds unsigned with a checkpoint of its own unit.

        ``croupier store init`` seals its log-start: a ``serve --workers`` store never
        appends to that chain ``""`` again (each worker writes its own), and an unsigned
        record left at a chain's end reads, to a regulator, like a crash's torn tail.
        """
        with self.transaction() as tx:
            self.checkpoint(tx)

    def _write(self, conn: Tx, records: list[StoredRecord]) -> None:
        if self._depth:
            self._pending.extend(records)
        else:  # outside a unit (first start): write at once
            conn.log.insert(records)

    def rotate_key(self, operator: str) -> str:
        """Make a new signing key, recorded in the log and signed by the old one."""
        new_key = SigningKey.generate()
        with self.transaction() as conn:
            self._write(conn, self.writer.rotate(new_key, self.clock(), f"operator:{operator}"))
            self.keys.save(new_key)
        return new_key.key_id

    def public_key_pem(self) -> str:
        return public_pem(self.writer.key.public)
