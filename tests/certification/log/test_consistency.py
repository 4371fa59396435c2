"""RFC 6962 consistency proofs, the incremental tree, tree heads and resumable verification.

Known answers: the Certificate Transparency reference corpus (eight leaves whose roots
and consistency proofs are published with the CT and Trillian implementations); and
for every pair of sizes up to 40, proofs checked against both roots recomputed from
scratch with the recursive definition of test_merkle.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certification.log.chain import JournalWriter
from certification.log.errors import LogIntegrityError
from certification.log.keys import SigningKey
from certification.log.merkle import (
    Frontier,
    consistency_proof,
    leaf_hash,
    verify_consistency,
)
from certification.log.treehead import TreeHead, append_head, last_head, read_heads
from certification.log.verify import Verifier, verify_lines

from .conftest import build_log
from .test_merkle import rfc6962_mth

CT_LEAVES = [
    bytes.fromhex(h)
    for h in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
CT_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
CT_PROOFS = {
    (1, 1): [],
    (1, 8): [
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
    (6, 8): [
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
    (2, 5): [
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
}
CT_HASHES = [leaf_hash(d) for d in CT_LEAVES]


def test_frontier_roots_match_the_ct_corpus() -> None:
    tree = Frontier()
    for n, leaf in enumerate(CT_HASHES, 1):
        tree.append(leaf)
        assert tree.root().hex() == CT_ROOTS[n - 1]


@pytest.mark.parametrize(("m", "n"), sorted(CT_PROOFS))
def test_consistency_proofs_match_the_ct_corpus(m: int, n: int) -> None:
    proof = consistency_proof(m, CT_HASHES[:n])
    assert [p.hex() for p in proof] == CT_PROOFS[(m, n)]
    old, new = bytes.fromhex(CT_ROOTS[m - 1]), bytes.fromhex(CT_ROOTS[n - 1])
    assert verify_consistency(m, n, old, new, proof)


def test_every_proof_up_to_40_checks_against_both_recomputed_roots() -> None:
    data = [f"record {i}".encode() for i in range(40)]
    hashes = [leaf_hash(d) for d in data]
    for n in range(41):
        new = rfc6962_mth(data[:n])
        for m in range(n + 1):
            old = rfc6962_mth(data[:m])
            proof = consistency_proof(m, hashes[:n])
            assert verify_consistency(m, n, old, new, proof), (m, n)
            if 0 < m < n:
                # A different prefix (one record changed) or a different tail fails.
                changed = rfc6962_mth([b"forged", *data[1:m]])
                assert not verify_consistency(m, n, changed, new, proof)
                assert not verify_consistency(m, n, old, rfc6962_mth(data[1 : n + 1]), proof)
                if proof:
                    bad = [*proof[:-1], bytes(32)]
                    assert not verify_consistency(m, n, old, new, bad)


@given(st.lists(st.binary(max_size=6), min_size=1, max_size=60), st.data())
def test_frontier_equals_the_recursive_root(leaves: list[bytes], data: st.DataObject) -> None:
    tree = Frontier()
    for d in leaves:
        tree.append(leaf_hash(d))
    assert tree.root() == rfc6962_mth(leaves)
    assert Frontier.from_json(json.loads(json.dumps(tree.to_json()))).root() == tree.root()


def test_writer_tree_head_covers_every_record() -> None:
    key, writer, lines = build_log(23, checkpoint_every=4)
    head = writer.tree_head(1)
    assert head.size == len(lines)
    assert head.root == rfc6962_mth(lines).hex()
    assert head.verify(key.public)
    assert not head.verify(SigningKey.generate().public)


def test_anchor_file_appends_and_skips_a_torn_last_line(tmp_path) -> None:
    _, writer, _ = build_log(5)
    path = tmp_path / "anchor.jsonl"
    assert last_head(path) is None
    append_head(path, writer.tree_head(1))
    h2 = writer.tree_head(2)
    append_head(path, h2)
    with path.open("ab") as fh:
        fh.write(b'{"size": 99')  # a write cut short by a crash
    assert last_head(path) == h2
    assert len(read_heads(path)) == 2
    assert TreeHead.parse(h2.line()) == h2


def _feed_in_pieces(v: Verifier, lines: list[bytes], piece: int) -> None:
    for i in range(0, len(lines), piece):
        v.feed(lines[i : i + piece])
    v.finish()


@pytest.mark.parametrize("piece", [1, 3, 10, 1000])
def test_verification_in_pieces_equals_the_whole(piece: int) -> None:
    key, _, lines = build_log(57)
    whole = verify_lines(lines, [key.public])
    v = Verifier([key.public], shoes=True)
    for i in range(0, len(lines), piece):
        v.feed(lines[i : i + piece])
    assert v.finish() == whole
    # The same record is blamed whichever piece boundary falls next to it.
    bad = list(lines)
    rec = json.loads(bad[20])
    rec["ts"] += 1
    from certification.log.canonical import canonical

    bad[20] = canonical(rec)
    with pytest.raises(LogIntegrityError, match="record 21 altered") as whole_err:
        verify_lines(bad, [key.public])
    with pytest.raises(LogIntegrityError) as piece_err:
        _feed_in_pieces(Verifier([key.public], shoes=True), bad, piece)
    assert str(piece_err.value) == str(whole_err.value)


def test_rotation_chain_is_followed_from_the_root_only() -> None:
    k1, k2 = SigningKey.generate(), SigningKey.generate()
    writer = JournalWriter(k1, checkpoint_every=5)
    clock = itertools.count(1)
    lines = [r.data for r in writer.start(next(clock))]
    for i in range(7):
        lines += [r.data for r in writer.append(next(clock), "engine", "event", {"i": i})]
    lines += [r.data for r in writer.rotate(k2, next(clock))]
    for i in range(7):
        lines += [r.data for r in writer.append(next(clock), "engine", "event", {"i": i})]
    lines.append(writer.checkpoint(next(clock)).data)
    assert verify_lines(lines, [k1.public]).key_ids == (k1.key_id, k2.key_id)
    with pytest.raises(LogIntegrityError, match="not a trusted key nor introduced by one"):
        verify_lines(lines, [k2.public])
