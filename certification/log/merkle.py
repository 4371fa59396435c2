"""RFC 6962 Merkle tree hash over a list of leaves (section 2.1).

``MTH({}) = SHA-256()``, ``MTH({d0}) = SHA-256(0x00 || d0)``, and for n > 1 with
k the largest power of two below n, ``MTH(D) = SHA-256(0x01 || MTH(D[0:k]) ||
MTH(D[k:n]))``. A checkpoint signs the root over the records since the last one,
so one signature covers them all and a single record can later be proven with
an audit path.

>>> merkle_root([]).hex()[:16]
'e3b0c44298fc1c14'
>>> merkle_root([b""]).hex()[:16]
'6e340b9cffb37a98'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_of_leaf_hashes(hashes: Sequence[bytes]) -> bytes:
    """MTH given already-hashed leaves (iterative; equals the recursive definition)."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    level = list(hashes)
    # RFC 6962 splits at the largest power of two; pairing left to right and
    # promoting an odd last node unchanged builds exactly that tree.
    while len(level) > 1:
        nxt = [_node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """MTH over raw leaf data."""
    return root_of_leaf_hashes([leaf_hash(d) for d in leaves])
