"""``croupier log``: verify, export, show the public key, and recall a game.

A regulator runs ``verify`` alone, with the log's first key (the trust root,
``log pubkey``) obtained out of band, following the signed key rotations from it; it
reads the store read-only (or an exported file) and changes nothing, so it also runs
on a store the server refused. ``verify --since HEAD_FILE`` also proves with an RFC
6962 consistency proof that the log extends a signed tree head kept outside the store
(``log anchor --to FILE`` appends one).

This module opens no database: the commands that read a store (``--store DIR``) get
it from the opener passed to :func:`register` (``kiosk_ui.log_cli`` passes the
appliance store's read-only reader, a :class:`~certification.log.reader.StoredLog`);
``verify FILE`` reads an exported log with nothing but this package.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from certification.log.chains import ChainsReport, ChainsVerifier
    from certification.log.commitments import StoredShoe
    from certification.log.reader import StoredLog
    from certification.log.treehead import TreeHead
    from certification.log.verify import VerifyReport

#: opens a store directory read-only as a log (raises LogFormatError if there is none)
StoreOpener = Callable[[Path], "StoredLog"]


def register(parser: argparse.ArgumentParser, open_store: StoreOpener) -> None:
    """Add ``verify|pubkey|anchor|export|outcomes|recall``; ``open_store`` reads ``--store``."""
    parser.set_defaults(open_store=open_store)
    sub = parser.add_subparsers(dest="log_command", metavar="ACTION", required=True)

    v = sub.add_parser("verify", help="check every link and signature of a log")
    src = v.add_mutually_exclusive_group(required=True)
    src.add_argument("--store", type=Path, help="store directory (reads croupier.db)")
    src.add_argument("file", nargs="?", type=Path, help="an exported JSON-lines log")
    v.add_argument(
        "--pubkey",
        required=True,
        action="append",
        help="trusted key: the log's first key as a PEM file or 64 hex digits, or a key "
        "history file from `log pubkey --history` (rotations are followed from it)",
    )
    v.add_argument(
        "--since",
        type=Path,
        metavar="HEAD_FILE",
        help="a signed tree head (or an anchor file: its last head) the log must extend",
    )
    v.set_defaults(handler=_verify)

    p = sub.add_parser("pubkey", help="print the log's trust root: its first public key (PEM)")
    p.add_argument("--store", type=Path, required=True)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--current", action="store_true", help="the key signing now instead")
    which.add_argument(
        "--history",
        action="store_true",
        help="the signed key history: the log-start and key-rotation records (JSON lines)",
    )
    p.set_defaults(handler=_pubkey)

    a = sub.add_parser("anchor", help="append a signed tree head of the log to an anchor file")
    a.add_argument("--store", type=Path, required=True)
    a.add_argument("--to", type=Path, required=True, metavar="FILE", help="anchor file")
    a.set_defaults(handler=_anchor)

    e = sub.add_parser("export", help="write the log as JSON lines (accepted by verify)")
    e.add_argument("--store", type=Path, required=True)
    e.add_argument("--out", type=Path, help="file to write (default: standard output)")
    e.set_defaults(handler=_export)

    o = sub.add_parser(
        "outcomes",
        help="write the log's outcomes (revealed shoes, rolls, wheel numbers) as collection "
        "files for `croupier certify outcomes`",
    )
    o.add_argument("--store", type=Path, required=True)
    o.add_argument("--out", type=Path, required=True, help="directory to write")
    o.set_defaults(handler=_outcomes)

    r = sub.add_parser("recall", help="replay a game from the log and show it as played")
    r.add_argument("game", help="game id, e.g. baccarat-1-000042")
    r.add_argument("--store", type=Path, required=True)
    r.set_defaults(handler=_recall)


def _trusted(specs: list[str]) -> list[Ed25519PublicKey]:
    import orjson

    from certification.log.errors import LogKeyError
    from certification.log.keys import load_public_key

    keys: list[Ed25519PublicKey] = []
    for spec in specs:
        path = Path(spec)
        text = path.read_text() if path.exists() else spec
        if text.lstrip().startswith("{"):  # a key history: its first record holds the root
            try:
                first = orjson.loads(text.strip().splitlines()[0])
                text = str(first["body"]["public_key"])
            except (orjson.JSONDecodeError, KeyError, TypeError):
                raise LogKeyError(
                    f"{spec}: not a key history from `log pubkey --history`"
                ) from None
        keys.append(load_public_key(text))
    return keys


def _verify(args: argparse.Namespace) -> int:
    import hashlib

    from certification.log.chains import ChainsVerifier
    from certification.log.errors import LogFormatError, LogIntegrityError
    from certification.log.merkle import leaf_hash

    stored: Mapping[str, StoredShoe] = {}
    if args.store is not None:
        log = args.open_store(args.store)
        try:
            stored = log.stored_shoes()
        finally:
            log.close()
    else:
        try:
            args.file.open("rb").close()
        except OSError as exc:
            raise LogFormatError(f"cannot read {args.file}: {exc.strerror}") from None
    keys = _trusted(args.pubkey)
    since = _since_heads(args.since) if args.since is not None else None
    verifier = ChainsVerifier(keys, keep_tree=since is not None)
    leaves: dict[str, list[bytes]] = {}  # each chain's leaf hashes, for the consistency proofs
    at_size: dict[str, str] = {}  # each chain's hash of record ``since[chain].size``
    try:
        for rows in _read_rows(args):
            if since is not None:
                for chain, line in rows:
                    got = leaves.setdefault(chain, [])
                    got.append(leaf_hash(line))
                    head = since.get(chain)
                    if head is not None and len(got) == head.size:
                        at_size[chain] = hashlib.sha256(line).hexdigest()
            verifier.feed(rows)
        report = verifier.finish(stored)
        proofs = {
            chain: _check_since(head, verifier, chain, leaves.get(chain, []), at_size.get(chain))
            for chain, head in (since or {}).items()
        }
    except LogIntegrityError as exc:
        print(f"FAILED: {_where(args)}: {exc}")
        return 1
    _print_report(_where(args), report)
    if report.shoes is not None and report.shoes.games:
        s = report.shoes
        print(
            f"shoes: {s.checked} games' cards match their commitments; "
            f"{s.unrevealed} not revealed yet (open); {s.device} from a physical shoe "
            "(no commitment)"
        )
    for chain, proof in proofs.items():
        assert since is not None
        print(
            f"OK: {_chain_name(chain)}extends the signed tree head of size "
            f"{since[chain].size} in {args.since} (RFC 6962 consistency proof, {proof} hashes)"
        )
    return 0


def _chain_name(chain: str) -> str:
    return f"chain {chain} " if chain else ""


def _print_report(where: str, report: ChainsReport) -> None:
    """``OK: ...`` for a one-chain log; a store of several chains also gets a line each."""

    def signed(r: VerifyReport) -> str:
        return f"signed through seq {r.last_signed_seq}" + (
            f", {r.unsigned_tail} unsigned at the end" if r.unsigned_tail else ""
        )

    chains = report.chains
    key_ids = sorted({k for r in chains.values() for k in r.key_ids})
    if list(chains) == [""]:
        r = chains[""]
        print(
            f"OK: {where}: {r.records} records, {r.checkpoints} signed checkpoints, "
            f"{signed(r)}; keys {', '.join(r.key_ids)}"
        )
        return
    print(
        f"OK: {where}: {report.records} records in {len(chains)} chains, "
        f"{report.checkpoints} signed checkpoints; keys {', '.join(key_ids)}"
    )
    for chain, r in chains.items():
        print(f"  chain {chain or '(unnamed)'}: {r.records} records, {signed(r)}")


def _where(args: argparse.Namespace) -> str:
    return f"store {args.store}" if args.store is not None else str(args.file)


def _read_rows(args: argparse.Namespace) -> Iterator[list[tuple[str, bytes]]]:
    """The log's records as ``(chain, bytes)`` in stored order: a store's by the chain
    each is stored in, an exported file's by the chain each record names."""
    from certification.log.chains import chain_of
    from certification.log.errors import LogFormatError

    if args.store is not None:
        log = args.open_store(args.store)
        try:
            yield from log.rows()
        finally:
            log.close()
        return
    try:
        raw = args.file.read_bytes()
    except OSError as exc:
        raise LogFormatError(f"cannot read {args.file}: {exc.strerror}") from None
    yield [(chain_of(ln), ln) for ln in raw.split(b"\n") if ln.strip()]


def _since_heads(path: Path) -> dict[str, TreeHead]:
    """The last signed tree head of each chain in ``path`` (a head file or an anchor)."""
    from certification.log.errors import LogFormatError
    from certification.log.treehead import last_heads

    if not path.exists():
        raise LogFormatError(f"cannot read {path}: no such file")
    heads = last_heads(path)
    if not heads:
        raise LogFormatError(f"{path} holds no signed tree head")
    return heads


def _check_since(
    head: TreeHead, verifier: ChainsVerifier, chain: str, leaves: list[bytes], at: str | None
) -> int:
    """Prove the verified chain ``chain`` extends ``head``; return the proof's length."""
    from certification.log.errors import LogIntegrityError
    from certification.log.merkle import consistency_proof, verify_consistency

    v = verifier.verifiers.get(chain)
    label = _chain_name(chain)
    if v is None:
        raise LogIntegrityError(
            f"the log has no chain {chain}, which the signed tree head of size {head.size} "
            "names: records were removed (rollback)"
        )
    st = v.state
    n = st.seq
    if head.size > n:
        raise LogIntegrityError(
            f"the log {label}ends at record {n}, behind the signed tree head of size "
            f"{head.size}: records were removed (rollback)"
        )
    key = st.keys.get(head.key_id)
    if key is None or head.key_id not in st.vouched or not head.verify(key):
        raise LogIntegrityError(
            f"the signed tree head {label}of size {head.size} is not signed by a key of this "
            "log's chain (a different log, or a forged head)"
        )
    assert st.tree is not None
    proof = consistency_proof(head.size, leaves)
    ok = verify_consistency(head.size, n, bytes.fromhex(head.root), st.tree.root(), proof) and (
        head.size == 0 or at == head.head
    )
    if not ok:
        raise LogIntegrityError(
            f"the log {label}does not extend the signed tree head of size {head.size}: its "
            f"first {head.size} records differ (fork or rewrite)"
        )
    return len(proof)


def _pubkey(args: argparse.Namespace) -> int:
    import orjson

    from certification.log.errors import LogKeyError
    from certification.log.keys import KeyStore, load_public_key, public_pem

    if args.current:
        key = KeyStore(args.store).current()
        if key is None:
            raise LogKeyError(f"no signing key in {args.store}")
        sys.stdout.write(public_pem(key.public))
        return 0
    log = args.open_store(args.store)
    try:  # every chain's key records (the first chain's log-start is the root)
        history = [line for chain in log.chains() for line in log.of(chain).key_records()]
    finally:
        log.close()
    if not history:
        raise LogKeyError(f"the log in {args.store} has no log-start record")
    if args.history:
        sys.stdout.write("".join(line.decode() + "\n" for line in history))
        return 0
    root = load_public_key(str(orjson.loads(history[0])["body"]["public_key"]))
    sys.stdout.write(public_pem(root))
    return 0


def _anchor(args: argparse.Namespace) -> int:
    import time

    from certification.log.errors import LogIntegrityError, LogKeyError
    from certification.log.integrity import check_log
    from certification.log.keys import KeyStore
    from certification.log.treehead import append_head, sign_tree_head

    log = args.open_store(args.store)
    try:
        checked = {}
        for chain in log.chains():
            try:
                checked[chain] = check_log(log.of(chain), full=True, name=chain)
            except LogIntegrityError as exc:
                raise LogIntegrityError(f"not anchored: {_chain_name(chain)}{exc}") from None
    finally:
        log.close()
    if not any(checked.values()):
        raise LogKeyError(f"the log in {args.store} is empty")
    for chain, c in checked.items():
        if c is None:
            continue
        kid = c.chain.ids[-1]
        key = KeyStore(args.store).load(kid)
        ts = time.time_ns() // 1000
        head = sign_tree_head(key, c.head_seq, c.tree.root(), c.head_hash, ts, chain)
        append_head(args.to, head)
        print(
            f"anchored: {_chain_name(chain)}size {head.size}, root {head.root}, key {kid} "
            f"-> {args.to}"
        )
    return 0


def _export(args: argparse.Namespace) -> int:
    log = args.open_store(args.store)
    try:
        lines = log.lines()
    finally:
        log.close()
    data = b"".join(line + b"\n" for line in lines)
    if args.out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        args.out.write_bytes(data)
        print(f"wrote {len(lines)} records to {args.out}", file=sys.stderr)
    return 0


def _outcomes(args: argparse.Namespace) -> int:
    from certification.collect.from_log import write_logged

    log = args.open_store(args.store)
    try:
        lines = log.lines()
    finally:
        log.close()
    doc = write_logged(args.out, lines, str(args.store))
    files = doc["files"]
    assert isinstance(files, dict)
    for name, entry in files.items():
        print(f"wrote {args.out / name}: {entry['records']:,} outcomes, sha256 {entry['sha256']}")
    return 0


def _recall(args: argparse.Namespace) -> int:
    import json

    from certification.log.commitments import check_game
    from certification.log.errors import LogFormatError
    from certification.log.replay import render_recall, replay_game

    log = args.open_store(args.store)
    try:
        records = [json.loads(line) for line in log.game_lines(args.game)]
    finally:
        log.close()
    rep = replay_game(records)
    if rep is None:
        raise LogFormatError(f"no game {args.game!r} in the log")
    print(render_recall(rep))  # ends with whether the shoe commitment holds
    shoe = check_game(args.game, rep.records)
    return 0 if rep.matches and shoe.holds is not False else 1
