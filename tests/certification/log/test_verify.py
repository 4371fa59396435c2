"""Tamper tests: every kind of alteration is reported, at the right record."""

from __future__ import annotations

import json

import pytest

from certification.log.chain import JournalWriter
from certification.log.errors import LogIntegrityError
from certification.log.keys import SigningKey
from certification.log.verify import verify_lines


def test_intact_log_verifies(signed_log) -> None:
    key, _, lines = signed_log
    report = verify_lines(lines, [key.public])
    assert report.records == len(lines)
    assert report.unsigned_tail == 0
    assert report.last_signed_seq == len(lines)
    assert report.checkpoints == 6  # after 10, 20, ..., 50 leaves, and the final one


def test_wrong_key_is_refused(signed_log) -> None:
    _, _, lines = signed_log
    with pytest.raises(LogIntegrityError, match="trusted"):
        verify_lines(lines, [SigningKey.generate().public])


@pytest.mark.parametrize("position", [1, 2, 7, 12, 30, 45, 60])
def test_flipped_byte_is_reported_at_that_record(signed_log, position: int) -> None:
    key, _, lines = signed_log
    bad = list(lines)
    rec = json.loads(bad[position - 1])
    # Change a value inside the record (keeps it valid canonical JSON).
    if rec["type"] == "event":
        rec["body"]["amount"] += 1
    else:
        rec["ts"] += 1
    from certification.log.canonical import canonical

    bad[position - 1] = canonical(rec)
    with pytest.raises(LogIntegrityError) as err:
        verify_lines(bad, [key.public])
    assert err.value.seq == position


@pytest.mark.parametrize("offset", range(0, 120, 7))
def test_raw_byte_flip_anywhere_is_caught(signed_log, offset: int) -> None:
    key, _, lines = signed_log
    bad = list(lines)
    target = 23
    data = bytearray(bad[target - 1])
    data[offset % len(data)] ^= 0x01
    bad[target - 1] = bytes(data)
    with pytest.raises(LogIntegrityError) as err:
        verify_lines(bad, [key.public])
    assert err.value.seq in (target, None) or err.value.position == target


def test_deleted_record_is_reported(signed_log) -> None:
    key, _, lines = signed_log
    bad = lines[:19] + lines[20:]
    with pytest.raises(LogIntegrityError, match="record 20 missing") as err:
        verify_lines(bad, [key.public])
    assert err.value.seq == 20


def test_reordered_records_are_reported(signed_log) -> None:
    key, _, lines = signed_log
    bad = list(lines)
    bad[30], bad[31] = bad[31], bad[30]
    with pytest.raises(LogIntegrityError) as err:
        verify_lines(bad, [key.public])
    assert err.value.position == 31


def test_inserted_record_is_reported(signed_log) -> None:
    key, _, lines = signed_log
    bad = [*lines[:40], lines[39], *lines[40:]]
    with pytest.raises(LogIntegrityError, match="inserted or reordered") as err:
        verify_lines(bad, [key.public])
    assert err.value.position == 41


def test_swapped_signature_is_reported_at_the_checkpoint(signed_log) -> None:
    key, _, lines = signed_log
    cps = [i for i, ln in enumerate(lines) if json.loads(ln)["type"] == "checkpoint"]
    i = cps[2]
    rec = json.loads(lines[i])
    rec["body"]["signature"] = json.loads(lines[cps[1]])["body"]["signature"]
    from certification.log.canonical import canonical

    bad = list(lines)
    bad[i] = canonical(rec)
    with pytest.raises(LogIntegrityError) as err:
        verify_lines(bad, [key.public])
    assert err.value.seq == i + 1


def test_rewritten_chain_is_caught_by_the_signature(signed_log) -> None:
    """An attacker who alters a record and recomputes every later hash still fails."""
    key, _, lines = signed_log
    from certification.log.chain import make_record

    recs = [json.loads(ln) for ln in lines]
    recs[10]["body"]["amount"] = 999_999
    out: list[bytes] = []
    prev = "0" * 64
    for r in recs:
        rebuilt = make_record(r["seq"], prev, r["ts"], r["source"], r["type"], r["body"], r["game"])
        out.append(rebuilt.data)
        prev = rebuilt.hash
    with pytest.raises(LogIntegrityError, match=r"signature|Merkle|cover") as err:
        verify_lines(out, [key.public])
    assert err.value.seq is not None
    assert err.value.seq > 11  # the first checkpoint after the altered record


def test_key_rotation_is_followed_and_forged_rotation_refused() -> None:
    key = SigningKey.generate()
    writer = JournalWriter(key, checkpoint_every=5)
    lines = [r.data for r in writer.start(1)]
    for i in range(8):
        lines += [r.data for r in writer.append(2 + i, "engine", "event", {"i": i})]
    new = SigningKey.generate()
    lines += [r.data for r in writer.rotate(new, 20)]
    for i in range(7):
        lines += [r.data for r in writer.append(30 + i, "engine", "event", {"i": i})]
    lines.append(writer.checkpoint(40).data)
    report = verify_lines(lines, [key.public])
    assert report.key_ids == (key.key_id, new.key_id)
    # Only the new key: checkpoints signed by the first key are not vouched for.
    with pytest.raises(LogIntegrityError, match="not a trusted key"):
        verify_lines(lines, [new.public])


def test_unsigned_tail_is_reported_not_hidden() -> None:
    key = SigningKey.generate()
    writer = JournalWriter(key, checkpoint_every=100)
    lines = [r.data for r in writer.start(1)]
    for i in range(4):
        lines += [r.data for r in writer.append(2 + i, "engine", "event", {"i": i})]
    report = verify_lines(lines, [key.public])
    assert report.unsigned_tail == 5
    assert report.last_signed_seq == 0
