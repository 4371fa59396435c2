"""``croupier store init``: create a store on purpose; ``croupier store backup``: copy one.

A missing or emptied database must never come back as a fresh one signed with the
same key (issue 12, point 8): ``serve`` refuses such a store, and so does this.
A new store is made here, once, from the same settings ``serve`` reads
(``--config``, ``CROUPIER_STORE``, ``--store``): the database with its schema, the
log's signing key and its first record, the player-token and voucher keys
(:mod:`kiosk_ui.cashier.number_key`), and the seal of the installed software
(``certification.install``), which ``serve`` checks at every start. The first
record, the log-start of the store's chain ``""``, is sealed by a checkpoint at once, so
a ``serve --workers`` store (whose workers write chains of their own) holds no
unsigned record.
``--if-missing`` makes it a no-op on a store that exists (``make run`` uses it); a
damaged store is refused either way.

``store backup DEST [--keys KEYS]`` copies a SQLite store's database while ``serve``
runs (:mod:`kiosk_ui.store.backup`: one commit's state, checked by SQLite) into the new
or empty folder DEST, with the software seal, then proves the copy on the copy itself:
its signed log verified from its own log-start key (every chain, every signature, every
revealed shoe against its commitment) and its ledger audited against the log.
``--keys`` copies ``keys/`` into another folder, apart from DEST: a database copy kept
with the voucher key could be searched for unpaid vouchers' numbers (docs/security.md).
A PostgreSQL store is backed up by the database's own tools (docs/deploy.md). Nothing
is written before every argument is checked; a copy that fails its checks is kept for
the technician with exit status 1, since it shows the live store's state.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    a = sub.add_parser("init", help="create a new store (database, signing key, first record)")
    a.add_argument("--config", type=Path, help="settings TOML (default: packaged demo)")
    a.add_argument("--store", type=Path, help="store directory (overrides the config)")
    a.add_argument(
        "--url", help="the store's database: sqlite:///PATH or postgresql://... (overrides)"
    )
    a.add_argument(
        "--if-missing", action="store_true", help="do nothing if the store already exists"
    )
    a.set_defaults(handler=_init)
    b = sub.add_parser(
        "backup", help="copy a running SQLite store's database, verified, and its keys apart"
    )
    b.add_argument("dest", type=Path, help="a new or empty folder for the database's copy")
    b.add_argument(
        "--keys", type=Path, help="a new or empty folder, apart from DEST, for a copy of keys/"
    )
    b.add_argument("--config", type=Path, help="settings TOML (default: packaged demo)")
    b.add_argument("--store", type=Path, help="store directory (overrides the config)")
    b.set_defaults(handler=_backup)


def _init(args: argparse.Namespace) -> int:
    from certification.install.seal import seal_install
    from certification.log.keys import KeyStore
    from kiosk_ui.cashier.number_key import NumberKey
    from kiosk_ui.errors import StoreError
    from kiosk_ui.identity import PlayerTokens
    from kiosk_ui.settings import load
    from kiosk_ui.store import open_store
    from kiosk_ui.store.db import UnfinishedStore, store_exists
    from kiosk_ui.store.location import URL_FILE, resolve
    from kiosk_ui.table.runtime import Runtime

    settings = load(args.config)
    store = args.store if args.store is not None else settings.store
    url = args.url if args.url is not None else settings.store_url
    store = resolve(store, url).directory
    if store_exists(store) or (store / URL_FILE).exists():
        try:  # opened as serve would: a damaged or held store is refused, naming why
            open_store(store, synchronous=settings.synchronous, url=url).close()
        except UnfinishedStore:
            pass  # its first start died before anything was logged: finish it below
        else:
            if args.if_missing:
                print(f"store {store} exists")
                return 0
            raise StoreError(f"store {store} already exists: nothing created")
    made = Runtime(store, synchronous=settings.synchronous, create=True, url=url)
    try:  # the log-start signed at once: a workers' store never writes its chain "" again
        made.log.seal()
        # the voucher numbers' digest key (the store's, not one appliance's), its check
        # in the database at once: an appliance given another key is refused at start
        NumberKey.made(store).claim(made.db)
    finally:
        made.close()  # records the seal as the chain's verified checkpoint
    PlayerTokens(store)  # every key at once: a floor's appliances get copies of keys/
    key = KeyStore(store).current()
    print(f"created store {store} (log signing key {key.key_id if key else '?'} in {store}/keys)")
    sealed = seal_install(store)  # the build this store is made with: serve checks it
    print(f"sealed the installed software: {sealed.files} files, sha256 {sealed.installed_sha256}")
    return 0


def _fresh(folder: Path, what: str) -> Path:
    """``folder`` resolved, if it is new or an empty folder (else StoreError)."""
    from kiosk_ui.errors import StoreError

    folder = folder.resolve()
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise StoreError(f"{what} {folder} is not a new or empty folder: nothing copied")
    return folder


def _backup(args: argparse.Namespace) -> int:
    import shutil

    from certification.install.seal import SEAL_FILE
    from kiosk_ui.errors import StoreError
    from kiosk_ui.settings import load
    from kiosk_ui.store.backup import copy_database, durable
    from kiosk_ui.store.db import store_exists
    from kiosk_ui.store.location import resolve

    settings = load(args.config)
    where = resolve(args.store if args.store is not None else settings.store, settings.store_url)
    store = where.directory.resolve()
    if where.url is not None:
        raise StoreError(
            f"store {store} is on PostgreSQL: back it up with the database's own tools "
            "(pg_basebackup and WAL archiving, docs/deploy.md) and copy its keys/ apart"
        )
    if not store_exists(store):
        raise StoreError(f"no Croupier store at {store}: nothing copied")
    dest = _fresh(args.dest, "backup folder")
    keys = _fresh(args.keys, "keys folder") if args.keys is not None else None
    for folder in (dest, keys):
        if folder is not None and folder.is_relative_to(store):
            raise StoreError(f"{folder} is inside the store {store}: back up elsewhere")
    if keys is not None and (keys.is_relative_to(dest) or dest.is_relative_to(keys)):
        raise StoreError(
            f"the keys folder {keys} and the backup folder {dest} must be apart "
            "(a database copy kept with its voucher key can be searched for voucher numbers)"
        )
    dest.mkdir(mode=0o700, parents=True, exist_ok=True)
    copied = copy_database(store, dest)
    print(
        f"copied the database of store {store} to {copied} ({copied.stat().st_size:,} bytes, "
        "as of one commit; SQLite's integrity check: ok)"
    )
    seal = store / SEAL_FILE  # the installed software's seal: a restored store starts
    if seal.exists():
        shutil.copy2(seal, dest / SEAL_FILE)
        durable(dest / SEAL_FILE)
    status = _prove_copy(dest)
    if keys is not None:
        keys.mkdir(mode=0o700, parents=True, exist_ok=True)
        files = sorted(f for f in (store / "keys").iterdir() if f.is_file())
        for f in files:
            shutil.copy2(f, keys / f.name)
            durable(keys / f.name)
        print(f"copied {len(files)} key files to {keys} (keep them apart from the database)")
    else:
        print(
            f"keys not copied: back up {store / 'keys'} apart with --keys (once, and at a rotation)"
        )
    return status


def _prove_copy(dest: Path) -> int:
    """Verify the copy's signed log and audit its ledger, on the copy: 0, or 1 if not."""
    import orjson

    from certification.log.chains import ChainsVerifier
    from certification.log.errors import LogIntegrityError
    from certification.log.keys import load_public_key
    from kiosk_ui.errors import AuditError
    from kiosk_ui.store.audit import audit_store
    from kiosk_ui.store.reader import open_reader

    log = open_reader(dest)
    try:
        history = [line for chain in log.chains() for line in log.of(chain).key_records()]
        if not history:
            print(f"FAILED: the copy in {dest} has no log-start record (kept for inspection)")
            return 1
        root = load_public_key(str(orjson.loads(history[0])["body"]["public_key"]))
        verifier = ChainsVerifier([root])
        try:
            for rows in log.rows():
                verifier.feed(rows)
            report = verifier.finish(log.stored_shoes())
        except LogIntegrityError as exc:
            print(f"FAILED: the copy's log in {dest}: {exc} (kept for inspection)")
            return 1
    finally:
        log.close()
    tail = sum(r.unsigned_tail for r in report.chains.values())
    print(
        f"OK: the copy's log verifies: {report.records:,} records in {len(report.chains)} "
        f"chain(s), {report.checkpoints:,} signed checkpoints, {tail} records after the last "
        "(signed at the next checkpoint of the live store)"
    )
    try:
        audit = audit_store(dest)
    except AuditError as exc:
        print(f"AUDIT FAILED: the copy in {dest}: {exc} (kept for inspection)")
        return 1
    print(
        f"AUDIT OK: the copy's {audit['transactions']:,} ledger transactions each the one "
        f"its log record implies; {audit['games_settled']:,} finished games, "
        f"{audit['open_games']} open"
    )
    return 0
