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


def _split(n: int) -> int:
    """The largest power of two strictly below ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def consistency_proof(m: int, hashes: Sequence[bytes]) -> list[bytes]:
    """RFC 6962 section 2.1.2 ``PROOF(m, D[n])`` over already-hashed leaves.

    The proof that the tree of the first ``m`` leaves is a prefix of the tree of all
    ``n = len(hashes)``: the fewest subtree hashes a verifier needs to recompute both
    roots. Empty for ``m == 0`` or ``m == n``.
    """
    n = len(hashes)
    if not 0 <= m <= n:
        raise ValueError(f"no consistency proof from size {m} to size {n}")
    if m in (0, n):
        return []
    return _subproof(m, hashes, complete=True)


def _subproof(m: int, hashes: Sequence[bytes], *, complete: bool) -> list[bytes]:
    n = len(hashes)
    if m == n:
        return [] if complete else [root_of_leaf_hashes(hashes)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, hashes[:k], complete=complete), root_of_leaf_hashes(hashes[k:])]
    return [*_subproof(m - k, hashes[k:], complete=False), root_of_leaf_hashes(hashes[:k])]


def verify_consistency(
    m: int, n: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> bool:
    """Check a consistency proof (the verification of RFC 9162 section 2.1.4.2, which
    is the one RFC 6962's proofs are checked with): True iff the tree of size ``m``
    with root ``old_root`` is a prefix of the tree of size ``n`` with ``new_root``."""
    if not 0 <= m <= n:
        return False
    if m == 0:
        return not proof  # the empty tree is a prefix of every tree
    if m == n:
        return not proof and old_root == new_root
    path = list(proof)
    if m & (m - 1) == 0:  # m is a power of two: its root is a node of the new tree
        path.insert(0, old_root)
    if not path:
        return False
    fn, sn = m - 1, n - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = _node(c, fr)
            sr = _node(c, sr)
            while fn and not fn & 1:
                fn >>= 1
                sn >>= 1
        else:
            sr = _node(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == old_root and sr == new_root


class Frontier:
    """The RFC 6962 tree of a growing log, kept as the roots of its perfect subtrees.

    A log of ``size`` leaves splits into perfect subtrees of decreasing powers of two
    (one per set bit of ``size``); their roots, left to right, are all that appending
    and the root need (``O(log n)`` hashes held, one hash per leaf amortised). The
    writer keeps one for the whole log so a signed tree head costs nothing to make;
    the store keeps it at the last verified checkpoint so start-up need not reread
    every record.
    """

    __slots__ = ("nodes", "size")

    def __init__(self, size: int = 0, nodes: Sequence[bytes] = ()) -> None:
        if len(nodes) != size.bit_count():
            raise ValueError(f"a tree of {size} leaves has {size.bit_count()} subtree roots")
        self.size = size
        self.nodes = list(nodes)

    def append(self, leaf: bytes) -> None:
        nodes = self.nodes
        nodes.append(leaf)
        self.size += 1
        s = self.size
        while not s & 1:
            right = nodes.pop()
            nodes[-1] = _node(nodes[-1], right)
            s >>= 1

    def root(self) -> bytes:
        if not self.nodes:
            return hashlib.sha256(b"").digest()
        r = self.nodes[-1]
        for h in reversed(self.nodes[:-1]):
            r = _node(h, r)
        return r

    def copy(self) -> Frontier:
        return Frontier(self.size, self.nodes)

    def state(self) -> tuple[int, tuple[bytes, ...]]:
        return self.size, tuple(self.nodes)

    def to_json(self) -> list[object]:
        return [self.size, [h.hex() for h in self.nodes]]

    @classmethod
    def from_json(cls, value: object) -> Frontier:
        """Inverse of :meth:`to_json`; ValueError if it is not one."""
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)):
            raise ValueError("not a tree frontier")
        size, nodes = value
        if not isinstance(nodes, list) or not all(isinstance(h, str) for h in nodes):
            raise ValueError("not a tree frontier")
        return cls(size, [bytes.fromhex(h) for h in nodes])
