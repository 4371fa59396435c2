"""The Merkle root equals RFC 6962 section 2.1, whose recursion is written here independently."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from certification.log.merkle import merkle_root


def rfc6962_mth(leaves: list[bytes]) -> bytes:
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < n:
        k *= 2
    return hashlib.sha256(b"\x01" + rfc6962_mth(leaves[:k]) + rfc6962_mth(leaves[k:])).digest()


@given(st.lists(st.binary(max_size=8), max_size=70))
def test_root_matches_recursive_definition(leaves: list[bytes]) -> None:
    assert merkle_root(leaves) == rfc6962_mth(leaves)


def test_root_depends_on_order() -> None:
    assert merkle_root([b"a", b"b", b"c"]) != merkle_root([b"b", b"a", b"c"])
