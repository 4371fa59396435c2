"""Signed tree heads and the append-only anchor file that keeps them outside the store.

A signed tree head (RFC 6962 section 3.5 in spirit) says "this log had ``size``
records, their Merkle tree root was ``root`` and the last record's chain hash was
``head``", signed with the log's key. It is one canonical JSON line::

    {"head": ..., "key_id": ..., "root": ..., "signature": ..., "size": N, "ts": ...}

Kept where whoever can write the store cannot (an anchor file on other media, a
witness directory, the regulator's copy), it makes a rollback visible: a store that
later ends before ``size``, or whose first ``size`` records hash differently, is not
the log that head signed. ``croupier log verify --since FILE`` proves with an RFC 6962
consistency proof that today's log extends it; the server refuses to start on a
store that is behind the last head of its configured anchor.

A store of several chains (one per writer: :mod:`.chain`) has a head per chain: a
named chain's head carries ``"chain": NAME`` (signed with the rest), and one anchor
file keeps the heads of every chain of the store, each chain's last head being the
one that counts for it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from certification.log.canonical import canonical
from certification.log.errors import LogFormatError
from certification.log.keys import SigningKey, verify_signature


@dataclass(frozen=True, slots=True)
class TreeHead:
    size: int
    root: str  # hex RFC 6962 root over records 1..size
    head: str  # hex SHA-256 of record ``size`` (the chain head)
    key_id: str
    ts: int  # microseconds since the epoch, when it was signed
    signature: str
    chain: str = ""  # the chain it is the head of ("": a one-writer store's log)

    def message(self) -> bytes:
        return tree_head_message(asdict(self))

    def verify(self, key: Ed25519PublicKey) -> bool:
        return verify_signature(key, self.signature, self.message())

    def line(self) -> bytes:
        body = asdict(self)
        if not self.chain:
            del body["chain"]
        return canonical(body)

    @classmethod
    def parse(cls, line: bytes, where: str = "tree head") -> TreeHead:
        """One JSON line back into a head; LogFormatError naming ``where`` if it is not one."""
        try:
            d = orjson.loads(line)
            head = cls(
                size=d["size"],
                root=d["root"],
                head=d["head"],
                key_id=d["key_id"],
                ts=d["ts"],
                signature=d["signature"],
                chain=d.get("chain", ""),
            )
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
            raise LogFormatError(f"{where}: not a signed tree head") from None
        if (
            not isinstance(head.size, int)
            or head.size < 0
            or not isinstance(head.root, str)
            or not isinstance(head.chain, str)
        ):
            raise LogFormatError(f"{where}: not a signed tree head")
        return head


def tree_head_message(body: Mapping[str, Any]) -> bytes:
    """The exact bytes a tree head's signature covers."""
    signed = {k: body[k] for k in ("size", "root", "head", "key_id", "ts")}
    if body.get("chain"):
        signed["chain"] = body["chain"]
    return b"croupier-log-tree-head-v1\n" + canonical(signed)


def sign_tree_head(
    key: SigningKey, size: int, root: bytes, head: str, ts: int, chain: str = ""
) -> TreeHead:
    body = {"size": size, "root": root.hex(), "head": head, "key_id": key.key_id, "ts": ts}
    if chain:
        body["chain"] = chain
    return TreeHead(**body, signature=key.sign(tree_head_message(body)))  # type: ignore[arg-type]


def read_heads(path: Path) -> list[TreeHead]:
    """Every complete head of an anchor file (or a file holding one head), oldest first.

    A last line without its newline is a write cut short by a crash and is skipped;
    any other line that is not a head is an error naming the line.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise LogFormatError(f"cannot read {path}: {exc.strerror}") from None
    lines = raw.split(b"\n")
    complete = lines[:-1] if not raw.endswith(b"\n") and len(lines) > 1 else lines
    heads = []
    for n, line in enumerate(complete, 1):
        if line.strip():
            heads.append(TreeHead.parse(line, f"{path} line {n}"))
    return heads


def last_head(path: Path, chain: str | None = None) -> TreeHead | None:
    """The last head of ``path`` (of ``chain`` only, if given)."""
    heads = [h for h in read_heads(path) if chain is None or h.chain == chain]
    return heads[-1] if heads else None


def last_heads(path: Path) -> dict[str, TreeHead]:
    """The last head of each chain in ``path``."""
    return {h.chain: h for h in read_heads(path)}


def append_head(path: Path, head: TreeHead) -> None:
    """Append one head to an anchor file and make it durable (the file only grows)."""
    new = not path.exists()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, head.line() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        if new:
            dfd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
    except OSError as exc:
        raise LogFormatError(f"cannot append to the anchor {path}: {exc.strerror}") from None
