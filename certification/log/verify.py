"""Verify a log end to end, the way a regulator does it alone.

Checks, record by record in order: the line is canonical JSON, ``seq`` runs
1, 2, 3, ... with no gap or repeat, each ``prev`` is the SHA-256 of the record
before, every checkpoint's Merkle root, head and Ed25519 signature hold under a
trusted key, and every key rotation is signed by the key it replaces. Then every
game's dealt cards are checked against its shoe commitment
(:mod:`certification.log.commitments`).

The first failure raises :class:`LogIntegrityError` naming the record: a changed
record breaks the link to the one after it (and a changed ``prev`` breaks two
links, which tells the two cases apart); a deleted record leaves a gap in
``seq``; a reordered or inserted record repeats or skips one. A :class:`Verifier`
checks one chain (a store of several writers has one each: :mod:`.chains`); a
record that names another chain than the one it is read in was moved there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from certification.log.chain import (
    CHECKPOINT,
    GENESIS_PREV,
    KEY_ROTATION,
    checkpoint_message,
    rotation_message,
)
from certification.log.commitments import ShoeReport, StoredShoe, check_records, shoe_error
from certification.log.errors import LogIntegrityError
from certification.log.keys import key_id_of, load_public_key, verify_signature
from certification.log.merkle import Frontier, leaf_hash, root_of_leaf_hashes


@dataclass(frozen=True, slots=True)
class VerifyReport:
    records: int
    checkpoints: int
    last_signed_seq: int  # every record up to here is covered by a valid signature
    unsigned_tail: int  # records after the last checkpoint (a crash can leave some)
    key_ids: tuple[str, ...]
    shoes: ShoeReport | None = None  # every game's dealt cards against its shoe commitment


def _parse(line: bytes, position: int) -> dict[str, Any]:
    """Decode one record. Its bytes are what the chain hashes, so any change to them,
    canonical or not, breaks a link; the decoded fields only locate and explain it."""
    try:
        rec = orjson.loads(line)
    except orjson.JSONDecodeError:
        raise LogIntegrityError(
            f"record at position {position}: not valid JSON (altered)", position=position
        ) from None
    if not isinstance(rec, dict) or not rec.keys() >= _FIELDS:
        raise LogIntegrityError(
            f"record at position {position}: not a log record (altered)", position=position
        )
    return rec


_FIELDS = frozenset(("seq", "prev", "type", "body"))


def verify_lines(
    lines: Sequence[bytes],
    trusted: Iterable[Ed25519PublicKey],
    *,
    stored_shoes: Mapping[str, StoredShoe] | None = None,
) -> VerifyReport:
    """Verify records given as their exact bytes, in stored order (position 1 = first).

    ``trusted`` holds the key(s) obtained out of band. A checkpoint counts only if
    signed by a trusted key or by a key that a trusted key introduced through a
    signed rotation (trust flows forward only: a rotation *to* a trusted key from
    an unknown key vouches for nothing before it). ``stored_shoes`` (the store's
    working copies, when verifying a store) are checked for games not yet revealed.
    """
    v = Verifier(trusted, shoes=True)
    v.feed(lines)
    return v.finish(stored_shoes)


@dataclass
class ChainState:
    """Where a verification stands after its last record: enough to resume from there.

    ``keys`` are the keys met so far (the log-start key and every rotation's new key),
    ``vouched`` those a trusted key stands behind, ``leaves`` the leaf hashes since the
    last checkpoint, ``tree`` (if kept) the RFC 6962 tree over every record so far.
    """

    seq: int = 0
    prev: str = GENESIS_PREV
    keys: dict[str, Ed25519PublicKey] = field(default_factory=dict)
    current_key: str | None = None
    vouched: set[str] = field(default_factory=set)
    leaves: list[bytes] = field(default_factory=list)
    checkpoints: int = 0
    last_signed: int = 0
    tree: Frontier | None = None
    #: ``(seq, hash, tree)`` at the last checkpoint met (tree only if kept)
    at_checkpoint: tuple[int, str, Frontier | None] | None = None


class Verifier:
    """Verify a log fed in order, in pieces of any size (a store is read in chunks).

    ``state`` resumes after a checkpoint verified earlier (the start-up check);
    without it verification starts at record 1. ``keep_tree`` also builds the
    RFC 6962 tree over every record, which tree heads are made of. ``shoes`` also
    checks every game's dealt cards against its shoe commitment at :meth:`finish`
    (keeping only the records that check reads: game-start, deal-card, game-end).
    """

    def __init__(
        self,
        trusted: Iterable[Ed25519PublicKey],
        state: ChainState | None = None,
        *,
        keep_tree: bool = False,
        shoes: bool = False,
        chain: str = "",
    ) -> None:
        self.chain = chain  # the chain verified: each record must name it (or none for "")
        self.trusted_ids = {key_id_of(k): k for k in trusted}
        if not self.trusted_ids:
            raise LogIntegrityError("no trusted public key given")
        self.state = state or ChainState(tree=Frontier() if keep_tree else None)
        self._held: bytes | None = None  # the last line fed, checked once its successor is known
        self._games: list[Mapping[str, Any]] | None = [] if shoes else None

    def feed(self, lines: Sequence[bytes]) -> None:
        """Verify the next records (their exact bytes, in order)."""
        if not lines:
            return
        if self._held is not None:
            lines = [self._held, *lines]
        # Hold the last line back: a broken link is blamed on one record or the one
        # before by looking at the link after it, which the next piece may hold.
        self._held = lines[-1]
        self._check(lines[:-1], lines[-1])

    def finish(self, stored_shoes: Mapping[str, StoredShoe] | None = None) -> VerifyReport:
        """End of the log: the last record, the trust check, and (``shoes``) every game's
        dealt cards against its commitment."""
        if self._held is not None:
            self._check([self._held], None)
            self._held = None
        st = self.state
        if self.trusted_ids.keys().isdisjoint(st.keys):
            raise LogIntegrityError(
                "none of the trusted keys signed this log (key ids in the log: "
                + ", ".join(sorted(st.keys))
                + ")"
            )
        shoes = None
        if self._games is not None:
            shoes = check_records(self._games, stored_shoes)  # certification/log/commitments.py
            if shoes.findings:
                raise shoe_error(shoes)
        return VerifyReport(
            records=st.seq,
            checkpoints=st.checkpoints,
            last_signed_seq=st.last_signed,
            unsigned_tail=st.seq - st.last_signed,
            key_ids=tuple(st.keys),
            shoes=shoes,
        )

    def _check(self, lines: Sequence[bytes], after: bytes | None) -> None:
        """Verify ``lines`` (the records after ``state.seq``) and advance the state.

        ``after`` is the line that follows them (None at the end of the log): a broken
        link is blamed by looking at the link after it. The per-record path stays in
        this loop (locals hoisted: it runs once per record); what happens once, rarely
        or only on failure is in the helpers below.
        """
        st = self.state
        base = st.seq  # lines[i] is the record at position base + i + 1
        hashes = [hashlib.sha256(line).hexdigest() for line in lines]
        all_leaves = [leaf_hash(line) for line in lines]
        records = _decode(lines, base)
        tree = st.tree
        leaves = st.leaves
        expected_prev = st.prev
        games = self._games
        chain = self.chain
        for i, rec in enumerate(records):
            pos = base + i + 1
            try:
                seq, prev, typ = rec["seq"], rec["prev"], rec["type"]
            except (TypeError, KeyError):
                _parse(lines[i], pos)  # raises with the reason
                raise
            if rec.get("chain", "") != chain:
                raise _chain_error(rec.get("chain", ""), chain, pos)
            if seq != pos:
                raise _seq_error(seq, pos)
            if prev != expected_prev:
                raise _link_error(records, i, after, hashes[i], seq, pos)
            expected_prev = hashes[i]
            st.seq, st.prev = pos, expected_prev
            if games is not None and rec.get("game") and _shoe_relevant(rec):
                games.append(rec)
            if tree is not None:
                tree.append(all_leaves[i])
            if pos == 1:
                self._start(rec)
            if typ == CHECKPOINT:
                self._checkpoint(rec["body"], seq, prev)
            else:
                leaves.append(all_leaves[i])
                if typ == KEY_ROTATION:
                    self._rotation(rec["body"], seq)

    def _start(self, rec: dict[str, Any]) -> None:
        """Record 1: its key is the first key in use (vouched for if trusted)."""
        st = self.state
        kid, key = _start_key(rec, self.trusted_ids)
        st.keys[kid] = key
        st.current_key = kid
        if kid in self.trusted_ids:
            st.vouched.add(kid)

    def _checkpoint(self, body: dict[str, Any], seq: int, prev: str) -> None:
        """A checkpoint: it covers the leaves since the last one, signed by a vouched key.

        Called once ``state.prev`` is the checkpoint's own hash (kept as the resume point).
        """
        st = self.state
        st.checkpoints += 1
        _check_checkpoint(body, seq, prev, st.leaves, st.keys, st.current_key)
        if body["key_id"] not in st.vouched:
            raise LogIntegrityError(
                f"record {seq}: checkpoint signed by key {body['key_id']}, which is "
                "not a trusted key nor introduced by one (trust the log's first key: "
                "`croupier log pubkey` exports it)",
                seq=seq,
            )
        st.leaves.clear()
        st.last_signed = seq
        tree = st.tree
        st.at_checkpoint = (seq, st.prev, tree.copy() if tree is not None else None)

    def _rotation(self, body: dict[str, Any], seq: int) -> None:
        """A key rotation signed by the key in use; trust follows it forward only."""
        st = self.state
        previous = st.current_key
        st.current_key = _check_rotation(body, seq, st.keys, st.current_key)
        if previous in st.vouched or st.current_key in self.trusted_ids:
            st.vouched.add(st.current_key)


def _decode(lines: Sequence[bytes], base: int) -> list[Any]:
    """Every line decoded; the first that is not JSON is named (position ``base + i + 1``)."""
    loads = orjson.loads
    try:
        return [loads(line) for line in lines]
    except orjson.JSONDecodeError:
        for i, line in enumerate(lines):
            _parse(line, base + i + 1)  # raises at the first record that is not JSON
        raise


def _chain_error(named: Any, chain: str, pos: int) -> LogIntegrityError:
    """The record at ``pos`` of ``chain`` says it belongs to chain ``named``."""
    return LogIntegrityError(
        f"record at position {pos}{chain_label(chain)} names "
        f"{'chain ' + repr(named) if named else 'no chain'}: moved between chains",
        seq=pos,
        position=pos,
    )


def chain_label(chain: str) -> str:
    """`` of chain NAME`` for a named chain, nothing for a one-writer store's log."""
    return f" of chain {chain}" if chain else ""


def _seq_error(seq: Any, pos: int) -> LogIntegrityError:
    """The record at ``pos`` says ``seq``: records before it deleted, or it is out of place."""
    if isinstance(seq, int) and seq > pos:
        missing = f"{pos}" if seq == pos + 1 else f"{pos}..{seq - 1}"
        return LogIntegrityError(
            f"record {missing} missing before seq {seq} (deleted)",
            seq=pos,
            position=pos,
        )
    return LogIntegrityError(
        f"record at position {pos} has seq {seq}: inserted or reordered",
        seq=seq if isinstance(seq, int) else None,
        position=pos,
    )


def _link_error(
    records: Sequence[Any], i: int, after: bytes | None, own_hash: str, seq: int, pos: int
) -> LogIntegrityError:
    """Record ``i``'s ``prev`` breaks the chain: which record changed?

    If the link after this one is broken too, this record itself was altered (its prev
    field); otherwise the one before.
    """
    if i + 1 < len(records):
        nxt: Any = records[i + 1]
    elif after is not None:
        try:
            nxt = orjson.loads(after)
        except orjson.JSONDecodeError:
            nxt = None
    else:
        nxt = False
    nxt_broken = nxt is not False and (not isinstance(nxt, dict) or nxt.get("prev") != own_hash)
    bad = seq if nxt_broken or pos == 1 else seq - 1
    return LogIntegrityError(
        f"record {bad} altered: its hash does not match the chain",
        seq=bad,
        position=bad,
    )


_SHOE_TYPES = frozenset(("game-start", "game-end"))


def _shoe_relevant(rec: dict[str, Any]) -> bool:
    """Records the shoe-commitment check reads (commitments.check_game)."""
    typ = rec.get("type")
    if typ in _SHOE_TYPES:
        return True
    body = rec.get("body")
    return typ == "action" and isinstance(body, dict) and body.get("kind") == "deal-card"


def _start_key(
    rec: dict[str, Any], trusted_ids: dict[str, Ed25519PublicKey]
) -> tuple[str, Ed25519PublicKey]:
    body = rec["body"]
    try:
        key = load_public_key(str(body["public_key"]))
    except Exception:
        raise LogIntegrityError("record 1: the log-start record has no valid key", seq=1) from None
    kid = key_id_of(key)
    if kid != body.get("key_id"):
        raise LogIntegrityError("record 1: key id does not match its key (altered)", seq=1)
    return kid, key


def _check_checkpoint(
    body: dict[str, Any],
    seq: int,
    before: str,
    leaves: list[bytes],
    keys: dict[str, Ed25519PublicKey],
    current_key: str | None,
) -> None:
    try:
        from_seq, to_seq = int(body["from_seq"]), int(body["to_seq"])
        kid, sig = str(body["key_id"]), str(body["signature"])
        root, head = body["root"], body["head"]
    except (KeyError, TypeError, ValueError):
        raise LogIntegrityError(f"record {seq}: malformed checkpoint", seq=seq) from None
    key = keys.get(kid)
    if key is None or kid != current_key:
        raise LogIntegrityError(
            f"record {seq}: checkpoint signed by key {kid}, which is not the key in use",
            seq=seq,
        )
    if not verify_signature(key, sig, checkpoint_message(body)):
        raise LogIntegrityError(
            f"record {seq}: checkpoint signature is invalid (signature swapped or record altered)",
            seq=seq,
        )
    if to_seq != seq - 1 or from_seq != seq - len(leaves) or head != before:
        raise LogIntegrityError(
            f"record {seq}: checkpoint does not cover the records before it "
            f"(signed {from_seq}..{to_seq})",
            seq=seq,
        )
    if root != root_of_leaf_hashes(leaves).hex():
        raise LogIntegrityError(
            f"record {seq}: records {from_seq}..{to_seq} do not match the signed Merkle root",
            seq=seq,
        )


def _check_rotation(
    body: dict[str, Any], seq: int, keys: dict[str, Ed25519PublicKey], current_key: str | None
) -> str:
    try:
        old, new_id = str(body["old_key_id"]), str(body["new_key_id"])
        new_key = load_public_key(str(body["new_public_key"]))
        sig = str(body["signature"])
    except Exception:
        raise LogIntegrityError(f"record {seq}: malformed key rotation", seq=seq) from None
    if old != current_key or key_id_of(new_key) != new_id:
        raise LogIntegrityError(
            f"record {seq}: key rotation does not follow the key chain", seq=seq
        )
    if not verify_signature(keys[old], sig, rotation_message(body)):
        raise LogIntegrityError(f"record {seq}: key rotation signature is invalid", seq=seq)
    keys[new_id] = new_key
    return new_id
