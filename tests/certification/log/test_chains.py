"""A store of several chains (one per writer): each verifies alone; tampering is named.

Two writers append chains of their own, interleaved in the store's order as two
``serve --workers`` processes write them. The attacks: a record edited, deleted or
swapped in one chain (named with its chain), a record moved from one chain into the
other (its bytes name the chain it was written in), a record re-written without its
chain name, and a tree head of one chain passed off as the other's.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator

import orjson
import pytest

from certification.log.canonical import canonical
from certification.log.chain import JournalWriter
from certification.log.chains import chain_of, verify_chains
from certification.log.errors import LogIntegrityError
from certification.log.integrity import check_log, signed_position
from certification.log.keys import SigningKey
from certification.log.merkle import Frontier, leaf_hash
from certification.log.reader import VerifiedPosition
from certification.log.treehead import TreeHead
from certification.log.verify import verify_lines

A, B = "host/abc/worker-0", "host/abc/worker-1"


@pytest.fixture
def key() -> SigningKey:
    """A new signing key for each test (the floor's key, which signs every chain)."""
    return SigningKey.generate()


def places(rows: list[tuple[str, bytes]], chain: str) -> list[int]:
    """Where ``chain``'s records stand among the store's ``rows``, in order."""
    return [n for n, (c, _) in enumerate(rows) if c == chain]


def two_chains(key: SigningKey, n: int = 30) -> list[tuple[str, bytes]]:
    """Chains A and B interleaved (each: start, events, checkpoints), as a store holds them."""
    clock = itertools.count(1_700_000_000_000_000, 1000)
    writers = {c: JournalWriter(key, checkpoint_every=7, chain=c) for c in (A, B)}
    rows = [(c, r.data) for c, w in writers.items() for r in w.start(next(clock))]
    for i in range(n):
        c = (A, B)[i % 2]
        body = {"kind": "bet-placed", "seat": 1, "bet": "banker", "amount": 100 + i}
        rows += [(c, r.data) for r in writers[c].append(next(clock), "engine", "event", body)]
    rows += [(c, w.checkpoint(next(clock)).data) for c, w in writers.items()]
    return rows


def test_two_interleaved_chains_verify_each_on_its_own(key: SigningKey) -> None:
    rows = two_chains(key)
    report = verify_chains(rows, [key.public])
    assert set(report.chains) == {A, B}
    assert report.records == len(rows)
    assert all(r.unsigned_tail == 0 and r.checkpoints >= 3 for r in report.chains.values())
    # An export is the same records as JSON lines: each names its own chain.
    assert verify_chains([(chain_of(d), d) for _, d in rows], [key.public]).records == len(rows)


def test_a_chains_record_names_that_chain_and_the_unnamed_chain_is_the_old_format(
    key: SigningKey,
) -> None:
    named = JournalWriter(key, chain=A).start(1)[0]
    plain = JournalWriter(key).start(1)[0]
    assert orjson.loads(named.data)["chain"] == A and named.chain == A
    assert b'"chain"' not in plain.data  # a one-writer store's records are unchanged
    assert verify_lines([plain.data], [key.public]).records == 1


@pytest.mark.parametrize("victim", [A, B])
def test_an_edited_record_is_named_with_its_chain(victim: str, key: SigningKey) -> None:
    rows = two_chains(key)
    i = next(n for n, (c, d) in enumerate(rows) if c == victim and b'"type":"event"' in d)
    rec = orjson.loads(rows[i][1])
    seq = rec["seq"]
    rec["body"]["amount"] += 1000
    rows[i] = (victim, canonical(rec))
    with pytest.raises(LogIntegrityError, match=f"chain {victim}: record {seq} altered"):
        verify_chains(rows, [key.public])


def test_a_deleted_record_in_one_chain_is_named(key: SigningKey) -> None:
    rows = two_chains(key)
    i = places(rows, B)[5]
    seq = orjson.loads(rows[i][1])["seq"]
    del rows[i]
    with pytest.raises(LogIntegrityError, match=f"chain {B}: record {seq} missing"):
        verify_chains(rows, [key.public])


def test_two_swapped_records_of_one_chain_are_named(key: SigningKey) -> None:
    rows = two_chains(key)
    i, j = places(rows, A)[4:6]
    rows[i], rows[j] = rows[j], rows[i]
    with pytest.raises(LogIntegrityError, match=f"chain {A}: record 5 missing before seq 6"):
        verify_chains(rows, [key.public])


def test_a_record_moved_into_the_other_chain_fails(key: SigningKey) -> None:
    """Chain B's record stored as chain A's, in A's place: its bytes name chain B."""
    rows = two_chains(key)
    a_rows = places(rows, A)
    b_rows = places(rows, B)
    rows[a_rows[6]] = (A, rows[b_rows[6]][1])  # same seq, other chain's record
    with pytest.raises(LogIntegrityError, match=f"chain {A}: .*names chain .*moved between"):
        verify_chains(rows, [key.public])


def test_a_record_rewritten_without_its_chain_name_fails(key: SigningKey) -> None:
    """Dropping the chain field to pass a record off as the unnamed chain's breaks it."""
    rows = two_chains(key)
    i = places(rows, A)[3]
    rec = orjson.loads(rows[i][1])
    del rec["chain"]
    rows[i] = (A, canonical(rec))
    with pytest.raises(LogIntegrityError, match="moved between chains"):
        verify_chains(rows, [key.public])
    # Both chains relabelled as one unnamed chain: every record names its real chain.
    with pytest.raises(LogIntegrityError, match="moved between chains"):
        verify_chains([("", d) for _, d in two_chains(key)], [key.public])


def test_a_tree_head_is_signed_for_its_chain_only(key: SigningKey) -> None:
    w = JournalWriter(key, chain=A)
    w.start(1)
    head = w.tree_head(2)
    assert head.chain == A and head.verify(key.public)
    again = TreeHead.parse(head.line())
    assert again == head
    fields = orjson.loads(head.line())
    fields["chain"] = B  # the same signature claimed for chain B
    assert not TreeHead.parse(canonical(fields)).verify(key.public)
    del fields["chain"]  # ... or for a one-writer store's log
    assert not TreeHead.parse(canonical(fields)).verify(key.public)


class ChainReader:
    """One chain of ``rows`` as the start-up check reads it (:class:`LogReader`), with a
    verified position the test sets as an attacker would."""

    def __init__(self, rows: list[tuple[str, bytes]], chain: str) -> None:
        self.lines = [d for c, d in rows if c == chain]
        self.position: VerifiedPosition | None = None

    def last_seq(self) -> int:
        return len(self.lines)

    def record(self, seq: int) -> bytes | None:
        return self.lines[seq - 1] if 0 < seq <= len(self.lines) else None

    def chunks(
        self, after: int = 0, upto: int | None = None, size: int = 20_000
    ) -> Iterator[list[bytes]]:
        yield self.lines[after:upto]

    def key_records(self) -> list[bytes]:
        return [
            d for d in self.lines if b'"type":"log-start"' in d or b'"type":"key-rotation"' in d
        ]

    def verified(self) -> VerifiedPosition | None:
        return self.position


def last_checkpoint(log: ChainReader, key: SigningKey, chain: str) -> VerifiedPosition:
    """The signed verified position at ``log``'s last record (a checkpoint)."""
    tree = Frontier()
    for d in log.lines:
        tree.append(leaf_hash(d))
    seq = len(log.lines)
    return signed_position(key, seq, hashlib.sha256(log.lines[-1]).hexdigest(), tree, chain)


def test_a_verified_position_is_signed_for_its_chain_only(key: SigningKey) -> None:
    rows = two_chains(key)
    a, b = ChainReader(rows, A), ChainReader(rows, B)
    a.position = last_checkpoint(a, key, A)
    checked = check_log(a, name=A)
    assert checked is not None and checked.resumed_after == len(a.lines) > 0
    b.position = a.position  # A's row on chain B
    with pytest.raises(LogIntegrityError, match=f"of chain {B} is not signed for this chain"):
        check_log(b, name=B)
    b.lines = a.lines  # ... or chain A renamed B, records and row
    with pytest.raises(LogIntegrityError, match=f"of chain {B} is not signed .*forged"):
        check_log(b, name=B)
    with pytest.raises(LogIntegrityError, match="is not signed for this chain"):
        check_log(a, name="")  # a named chain's row passed off as a one-writer store's
