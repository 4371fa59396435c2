"""The start-up integrity check of a store's log, incremental from the last verified checkpoint.

Before the appliance serves a store it proves, in this order:

1. **The key chain.** Record 1 is the ``log-start`` naming the first key; every
   ``key-rotation`` is signed by the key it replaces. These few records are found
   through an index (``log_keys``), so this costs nothing on a large log.
2. **The verified position.** ``log_verified`` names the last checkpoint that an
   earlier start-up (or this appliance at a clean stop) vouched for, with the RFC
   6962 tree at it, signed by a key of the chain over a message that names the chain
   (``croupier-log-verified-v2``). The record it names must still be there and hash
   as it did; a store that now ends before it was rolled back. A row of the older v1
   format (no chain named) counts as none: that chain is checked in full once and a
   v2 row signed at its last checkpoint.
3. **Every record after it**, exactly as ``croupier log verify`` checks them (seq,
   links, checkpoint roots and signatures, rotations), read in chunks. A store with
   no verified position (an old one, or one whose row was deleted) is checked in full.
4. **The anchor** (``[store] anchor``), if configured: the last signed tree head
   kept outside the store. A store that ends before it, or whose record at its size
   hashes differently, is refused.

What someone who can write the database file but does not hold the signing key can
still do, and what finds it:

- edit, delete or insert records after the verified position: found here, at start-up;
- edit records before it (their chain links are not re-read at start-up): found by a
  full ``croupier log verify``, which the auditor runs (and ``--full`` at start-up);
- advance the verified position: impossible, the row is signed; replacing it with an
  older signed row, or deleting it, only makes the check longer;
- copy one chain's verified row onto another chain, or rename a chain (its records and
  row): refused as forged, the signature names the chain it was made for (the record
  hash alone did not tell a renamed chain whose last record is the checkpoint); an
  old v1 row, which names no chain, is never trusted, only makes the check longer;
- remove the tail of the log together with the rows that match it (a rollback), and
  the verified row with it: only a tree head kept outside the store shows it (step 4,
  ``croupier log verify --since``); keep the anchor where the store's writer cannot
  rewrite it (other media, a witness host, the regulator);
- replace the whole log with one signed by a key of their own: refused by the
  appliance, whose key store does not hold the new log's key, and by any verifier
  holding the real first key (``croupier log pubkey``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from certification.log.canonical import canonical
from certification.log.chain import CHECKPOINT, KEY_ROTATION, LOG_START, rotation_message
from certification.log.errors import LogIntegrityError
from certification.log.keys import SigningKey, key_id_of, load_public_key, verify_signature
from certification.log.merkle import Frontier
from certification.log.reader import LogReader, VerifiedPosition
from certification.log.treehead import TreeHead, last_head
from certification.log.verify import ChainState, Verifier, chain_label


@dataclass(frozen=True)
class KeyChain:
    """The log's signing keys in the order the log admitted them."""

    ids: tuple[str, ...]
    keys: dict[str, Ed25519PublicKey]
    #: ``(seq of the rotation record, new key id)`` for each rotation, in order
    rotations: tuple[tuple[int, str], ...]

    @property
    def root(self) -> Ed25519PublicKey:
        return self.keys[self.ids[0]]

    def in_use_after(self, seq: int) -> str:
        """The key that signs checkpoints after record ``seq``."""
        kid = self.ids[0]
        for at, new in self.rotations:
            if at <= seq:
                kid = new
        return kid


@dataclass(frozen=True)
class CheckedLog:
    """What the check proved: the head, and the state the writer continues from."""

    head_seq: int
    head_hash: str
    leaves: list[bytes]  # leaf hashes since the last checkpoint
    tree: Frontier  # the RFC 6962 tree over every record
    #: ``(seq, hash, tree)`` at the last checkpoint, or None if the log has none
    checkpoint: tuple[int, str, Frontier] | None
    chain: KeyChain
    resumed_after: int  # the verified position the check started from (0: full check)

    @property
    def checked(self) -> int:
        return self.head_seq - self.resumed_after


def key_chain(log: LogReader) -> KeyChain:
    """Read and check the log-start record and every key rotation."""
    records = log.key_records()
    if not records:
        raise LogIntegrityError("record 1: the log-start record is missing", seq=1)
    ids: list[str] = []
    keys: dict[str, Ed25519PublicKey] = {}
    rotations: list[tuple[int, str]] = []
    for n, data in enumerate(records):
        try:
            rec = orjson.loads(data)
            seq, typ, body = int(rec["seq"]), rec["type"], rec["body"]
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            raise LogIntegrityError("a key record of the log is not a record (altered)") from None
        if n == 0:
            if seq != 1 or typ != LOG_START:
                raise LogIntegrityError("record 1: the log-start record is missing", seq=1)
            try:
                key = load_public_key(str(body["public_key"]))
            except Exception:
                raise LogIntegrityError(
                    "record 1: the log-start record has no valid key", seq=1
                ) from None
            if key_id_of(key) != body.get("key_id"):
                raise LogIntegrityError("record 1: key id does not match its key (altered)", seq=1)
            kid = key_id_of(key)
        else:
            if typ != KEY_ROTATION:
                raise LogIntegrityError(f"record {seq}: not a key rotation (altered)", seq=seq)
            try:
                old, kid = str(body["old_key_id"]), str(body["new_key_id"])
                key = load_public_key(str(body["new_public_key"]))
                sig = str(body["signature"])
            except Exception:
                raise LogIntegrityError(f"record {seq}: malformed key rotation", seq=seq) from None
            if old != ids[-1] or key_id_of(key) != kid:
                raise LogIntegrityError(
                    f"record {seq}: key rotation does not follow the key chain", seq=seq
                )
            if not verify_signature(keys[old], sig, rotation_message(body)):
                raise LogIntegrityError(f"record {seq}: key rotation signature is invalid", seq=seq)
            rotations.append((seq, kid))
        ids.append(kid)
        keys[kid] = key
    return KeyChain(tuple(ids), keys, tuple(rotations))


#: the domain of a verified position's signature: v2 names the chain, v1 (before chains
#: were named in it) does not
VERIFIED_V1 = b"croupier-log-verified-v1\n"
VERIFIED_V2 = b"croupier-log-verified-v2\n"


def verified_message(seq: int, hash_: str, tree: Frontier, key_id: str, chain: str) -> bytes:
    """The exact bytes a verified position's signature covers: the checkpoint ``seq`` of
    chain ``chain`` (``""``: a one-writer store's), its hash and the tree at it.

    The chain is named so that a row copied onto another chain, or a chain renamed, no
    longer verifies (before, only the record hash tied a row to its chain).
    """
    body = {"seq": seq, "hash": hash_, "tree": tree.to_json(), "key_id": key_id, "chain": chain}
    return VERIFIED_V2 + canonical(body)


def verified_message_v1(seq: int, hash_: str, tree: Frontier, key_id: str) -> bytes:
    """What a store written before v2 signed (no chain): recognised, never trusted."""
    body = {"seq": seq, "hash": hash_, "tree": tree.to_json(), "key_id": key_id}
    return VERIFIED_V1 + canonical(body)


def signed_position(
    key: SigningKey, seq: int, hash_: str, tree: Frontier, chain: str = ""
) -> VerifiedPosition:
    """The signed statement that chain ``chain`` through checkpoint ``seq`` was verified
    (the store keeps it: :meth:`kiosk_ui.store.protocol.Checkpoints.save`)."""
    sig = key.sign(verified_message(seq, hash_, tree, key.key_id, chain))
    return VerifiedPosition(seq, hash_, orjson.dumps(tree.to_json()).decode(), key.key_id, sig)


def _verified_position(
    log: LogReader, chain: KeyChain, head: int, name: str = ""
) -> tuple[int, str, Frontier] | None:
    """The verified position of chain ``name``, checked; None if there is none to use.

    A row signed in the v1 format (a store written before positions named their chain)
    counts as no position at all: the check runs in full from record 1 and the caller
    signs a v2 row at the checkpoint it reaches. A v1 row does not say which chain it was
    made for: accepting one, even once before re-signing it, would let a chain renamed
    together with its row, or a row copied from another chain or a backup, choose where
    the check starts. Ignoring it costs one full check of that chain after the upgrade.
    """
    row = log.verified()
    if row is None:
        return None
    seq, hash_, tree_text, kid, sig = row.seq, row.hash, row.tree, row.key_id, row.signature
    try:
        tree = Frontier.from_json(orjson.loads(tree_text))
    except (orjson.JSONDecodeError, ValueError, TypeError):
        tree = None
    key = chain.keys.get(kid)
    if tree is None or tree.size != seq or key is None:
        raise _forged(seq, name)
    if not verify_signature(key, sig, verified_message(seq, hash_, tree, kid, name)):
        if verify_signature(key, sig, verified_message_v1(seq, hash_, tree, kid)):
            return None  # the old format: checked in full, then re-signed as v2
        raise _forged(seq, name)
    if seq > head:
        raise LogIntegrityError(
            f"the store ends at record {head}, but record {seq} was verified at an earlier "
            "start: records were removed (rolled back)",
            seq=head + 1,
        )
    data = log.record(seq)
    if data is None or hashlib.sha256(data).hexdigest() != hash_:
        raise LogIntegrityError(
            f"record {seq} altered since it was verified (its hash differs)", seq=seq
        )
    if orjson.loads(data).get("type") != CHECKPOINT:
        raise LogIntegrityError(f"record {seq} altered since it was verified", seq=seq)
    return seq, hash_, tree


def _forged(seq: int, name: str) -> LogIntegrityError:
    """The verified position of chain ``name`` is not one this log signed for it."""
    return LogIntegrityError(
        f"the verified position (record {seq}){chain_label(name)} is not signed for this "
        "chain by a key of this log (forged, or copied from another chain)",
        seq=seq,
    )


def check_log(log: LogReader, *, full: bool = False, name: str = "") -> CheckedLog | None:
    """Verify the log from the last verified checkpoint (``full``: from record 1).

    ``log`` reads one chain of the store, the chain ``name`` (a store of several
    writers has one each: :mod:`.chains`; ``""``: a one-writer store's). Returns None
    for an empty chain; raises :class:`LogIntegrityError` naming the first bad record.
    """
    head = log.last_seq()
    if head == 0:
        return None
    chain = key_chain(log)
    start = None if full else _verified_position(log, chain, head, name)
    if start is None:
        verifier = Verifier([chain.root], keep_tree=True, chain=name)
        after = 0
    else:
        after, hash_, tree = start
        state = ChainState(
            seq=after,
            prev=hash_,
            keys=dict(chain.keys),
            current_key=chain.in_use_after(after),
            vouched=set(chain.ids),
            last_signed=after,
            tree=tree.copy(),
            at_checkpoint=(after, hash_, tree.copy()),
        )
        verifier = Verifier([chain.root], state, chain=name)
    for lines in log.chunks(after):
        verifier.feed(lines)
    verifier.finish()
    st = verifier.state
    if st.seq != head:  # rows whose seq column disagrees with their record
        raise LogIntegrityError(f"record {st.seq + 1} altered (its seq differs)", seq=st.seq + 1)
    assert st.tree is not None
    cp = st.at_checkpoint
    checkpoint = (cp[0], cp[1], cp[2]) if cp is not None and cp[2] is not None else None
    return CheckedLog(
        head_seq=st.seq,
        head_hash=st.prev,
        leaves=list(st.leaves),
        tree=st.tree,
        checkpoint=checkpoint,
        chain=chain,
        resumed_after=after,
    )


def check_anchor(
    reader: LogReader, log: CheckedLog | None, anchor: Path, name: str = ""
) -> TreeHead | None:
    """Refuse a store whose chain ``name`` is behind (or forks from) its last signed head
    in ``anchor``."""
    last = last_head(anchor, name)
    if last is None or last.size == 0:
        return last
    size = log.head_seq if log is not None else 0
    if last.size > size:
        raise LogIntegrityError(
            f"the store ends at record {size}, behind the signed tree head of size "
            f"{last.size} in the anchor {anchor}: records were removed (rolled back)",
            seq=size + 1,
        )
    assert log is not None
    key = log.chain.keys.get(last.key_id)
    if key is None or not last.verify(key):
        raise LogIntegrityError(
            f"the signed tree head of size {last.size} in the anchor {anchor} is not signed "
            "by a key of this log (a different log, or a forged head)",
            seq=last.size,
        )
    data = reader.record(last.size)
    if data is None or hashlib.sha256(data).hexdigest() != last.head:
        raise LogIntegrityError(
            f"record {last.size} differs from the signed tree head of size {last.size} in "
            f"the anchor {anchor}: the log was rewritten (fork)",
            seq=last.size,
        )
    return last
