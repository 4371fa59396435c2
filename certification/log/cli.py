"""``croupier log``: verify, export, show the public key, and recall a game.

A regulator runs ``verify`` alone, with a key obtained out of band; it reads the
store read-only (or an exported file) and changes nothing.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from certification.log.commitments import StoredShoe


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="log_command", metavar="ACTION", required=True)

    v = sub.add_parser("verify", help="check every link and signature of a log")
    src = v.add_mutually_exclusive_group(required=True)
    src.add_argument("--store", type=Path, help="store directory (reads croupier.db)")
    src.add_argument("file", nargs="?", type=Path, help="an exported JSON-lines log")
    v.add_argument(
        "--pubkey",
        required=True,
        action="append",
        help="trusted public key: a PEM file, or 64 hex digits (repeat for rotated keys)",
    )
    v.set_defaults(handler=_verify)

    p = sub.add_parser("pubkey", help="print the store's signing public key (PEM)")
    p.add_argument("--store", type=Path, required=True)
    p.set_defaults(handler=_pubkey)

    e = sub.add_parser("export", help="write the log as JSON lines (accepted by verify)")
    e.add_argument("--store", type=Path, required=True)
    e.add_argument("--out", type=Path, help="file to write (default: standard output)")
    e.set_defaults(handler=_export)

    r = sub.add_parser("recall", help="replay a game from the log and show it as played")
    r.add_argument("game", help="game id, e.g. baccarat-1-000042")
    r.add_argument("--store", type=Path, required=True)
    r.set_defaults(handler=_recall)


def _trusted(specs: list[str]) -> list[Ed25519PublicKey]:
    from certification.log.keys import load_public_key

    keys: list[Ed25519PublicKey] = []
    for spec in specs:
        path = Path(spec)
        text = path.read_text() if path.exists() else spec
        keys.append(load_public_key(text))
    return keys


def _verify(args: argparse.Namespace) -> int:
    from certification.log import sqlite_store
    from certification.log.errors import LogFormatError, LogIntegrityError
    from certification.log.verify import verify_lines

    if args.store is not None:
        conn = sqlite_store.open_readonly(args.store)
        try:
            lines = sqlite_store.lines(conn)
            stored = _stored_shoes(conn)
        finally:
            conn.close()
        where = f"store {args.store}"
    else:
        try:
            raw = args.file.read_bytes()
        except OSError as exc:
            raise LogFormatError(f"cannot read {args.file}: {exc.strerror}") from None
        lines = [ln for ln in raw.split(b"\n") if ln.strip()]
        where = str(args.file)
        stored = {}
    keys = _trusted(args.pubkey)
    try:
        report = verify_lines(lines, keys, stored_shoes=stored)
    except LogIntegrityError as exc:
        print(f"FAILED: {where}: {exc}")
        return 1
    print(
        f"OK: {where}: {report.records} records, {report.checkpoints} signed checkpoints, "
        f"signed through seq {report.last_signed_seq}"
        + (f", {report.unsigned_tail} unsigned at the end" if report.unsigned_tail else "")
        + f"; keys {', '.join(report.key_ids)}"
    )
    if report.shoes is not None and report.shoes.games:
        s = report.shoes
        print(
            f"shoes: {s.checked} games' cards match their commitments; "
            f"{s.unrevealed} not revealed yet (open); {s.device} from a physical shoe "
            "(no commitment)"
        )
    return 0


def _stored_shoes(conn: sqlite3.Connection) -> dict[str, StoredShoe]:
    """The store's working copies of every shoe (checked for games not revealed yet)."""
    from certification.log.commitments import StoredShoe

    try:
        rows = conn.execute("SELECT game, salt, cards, next FROM shoes").fetchall()
    except sqlite3.OperationalError:  # a log-only store has no shoes table
        return {}
    return {str(g): StoredShoe(str(s), str(c), int(n)) for g, s, c, n in rows}


def _pubkey(args: argparse.Namespace) -> int:
    from certification.log.errors import LogKeyError
    from certification.log.keys import KeyStore, public_pem

    key = KeyStore(args.store).current()
    if key is None:
        raise LogKeyError(f"no signing key in {args.store}")
    sys.stdout.write(public_pem(key.public))
    return 0


def _export(args: argparse.Namespace) -> int:
    from certification.log import sqlite_store

    conn = sqlite_store.open_readonly(args.store)
    try:
        lines = sqlite_store.lines(conn)
    finally:
        conn.close()
    data = b"".join(line + b"\n" for line in lines)
    if args.out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        args.out.write_bytes(data)
        print(f"wrote {len(lines)} records to {args.out}", file=sys.stderr)
    return 0


def _recall(args: argparse.Namespace) -> int:
    import json

    from certification.log import sqlite_store
    from certification.log.commitments import check_game
    from certification.log.errors import LogFormatError
    from certification.log.replay import render_recall, replay_game

    conn = sqlite_store.open_readonly(args.store)
    try:
        records = [json.loads(line) for line in sqlite_store.game_lines(conn, args.game)]
    finally:
        conn.close()
    rep = replay_game(records)
    if rep is None:
        raise LogFormatError(f"no game {args.game!r} in the log")
    print(render_recall(rep))  # ends with whether the shoe commitment holds
    shoe = check_game(args.game, rep.records)
    return 0 if rep.matches and shoe.holds is not False else 1
