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
``seq``; a reordered or inserted record repeats or skips one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
from certification.log.merkle import leaf_hash, root_of_leaf_hashes


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
    trusted_ids = {key_id_of(k): k for k in trusted}
    if not trusted_ids:
        raise LogIntegrityError("no trusted public key given")
    keys: dict[str, Ed25519PublicKey] = {}
    hashes = [hashlib.sha256(line).hexdigest() for line in lines]
    all_leaves = [leaf_hash(line) for line in lines]
    loads = orjson.loads
    try:
        records = [loads(line) for line in lines]
    except orjson.JSONDecodeError:
        for pos, line in enumerate(lines, 1):
            _parse(line, pos)  # raises at the first record that is not JSON
        raise
    leaves: list[bytes] = []
    checkpoints = 0
    last_signed = 0
    current_key: str | None = None
    vouched: set[str] = set()
    expected_prev = GENESIS_PREV
    for i, rec in enumerate(records):
        pos = i + 1
        try:
            seq, prev, typ = rec["seq"], rec["prev"], rec["type"]
        except (TypeError, KeyError):
            _parse(lines[i], pos)  # raises with the reason
            raise
        if seq != pos:
            if isinstance(seq, int) and seq > pos:
                missing = f"{pos}" if seq == pos + 1 else f"{pos}..{seq - 1}"
                raise LogIntegrityError(
                    f"record {missing} missing before seq {seq} (deleted)", seq=pos, position=pos
                )
            raise LogIntegrityError(
                f"record at position {pos} has seq {seq}: inserted or reordered",
                seq=seq if isinstance(seq, int) else None,
                position=pos,
            )
        if prev != expected_prev:
            # Which record changed? If the link after this one is broken too, this
            # record itself was altered (its prev field); otherwise the one before.
            nxt = records[i + 1] if i + 1 < len(records) else None
            nxt_broken = nxt is not None and (
                not isinstance(nxt, dict) or nxt.get("prev") != hashes[i]
            )
            bad = seq if nxt_broken or i == 0 else seq - 1
            raise LogIntegrityError(
                f"record {bad} altered: its hash does not match the chain", seq=bad, position=bad
            )
        expected_prev = hashes[i]
        if i == 0:
            key = _start_key(rec, trusted_ids)
            keys[key[0]] = key[1]
            current_key = key[0]
            if key[0] in trusted_ids:
                vouched.add(key[0])
        if typ == CHECKPOINT:
            body = rec["body"]
            checkpoints += 1
            _check_checkpoint(body, seq, hashes, leaves, keys, current_key)
            if body["key_id"] not in vouched:
                raise LogIntegrityError(
                    f"record {seq}: checkpoint signed by key {body['key_id']}, which is not "
                    "a trusted key nor introduced by one",
                    seq=seq,
                )
            leaves.clear()
            last_signed = seq
        else:
            leaves.append(all_leaves[i])
            if typ == KEY_ROTATION:
                previous = current_key
                current_key = _check_rotation(rec["body"], seq, keys, current_key)
                if previous in vouched or current_key in trusted_ids:
                    vouched.add(current_key)
    if trusted_ids.keys().isdisjoint(keys):
        raise LogIntegrityError(
            "none of the trusted keys signed this log (key ids in the log: "
            + ", ".join(sorted(keys))
            + ")"
        )
    shoes = check_records(records, stored_shoes)  # certification/log/commitments.py
    if shoes.findings:
        raise shoe_error(shoes)
    return VerifyReport(
        records=len(lines),
        checkpoints=checkpoints,
        last_signed_seq=last_signed,
        unsigned_tail=len(lines) - last_signed,
        key_ids=tuple(keys),
        shoes=shoes,
    )


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
    hashes: list[str],
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
    if to_seq != seq - 1 or from_seq != seq - len(leaves) or head != hashes[seq - 2]:
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
