"""``croupier store init``: create a store on purpose.

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
