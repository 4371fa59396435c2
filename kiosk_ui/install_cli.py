"""``croupier verify-install``: check (or seal) the installed software against its manifest.

The seal lives in the store named by the same settings ``serve`` reads
(``--config``, ``CROUPIER_STORE``, ``--store``). Without ``--seal`` nothing is
written: the seal's signature is verified, every installed file hashed again and
compared; exit status 0 when they match, 1 when they differ (each changed, added
or missing file listed), 2 when there is no sound seal to compare with.
``--seal`` signs what is installed now with the store's key: the act of an
installer after a software update, never of ``serve``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="settings TOML (default: packaged demo)")
    parser.add_argument("--store", type=Path, help="store directory (overrides the config)")
    parser.add_argument(
        "--seal", action="store_true", help="sign the installed files into the store's seal"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    from certification.install.seal import check_install, seal_install
    from kiosk_ui.settings import load

    store = args.store if args.store is not None else load(args.config).store
    check = seal_install(store) if args.seal else check_install(store)
    if args.json:
        print(json.dumps(check.as_dict(), indent=1))
        return 0 if check.ok else 1
    verb = "matches its seal" if check.ok else "DOES NOT match its seal"
    verb = "sealed" if args.seal else verb
    print(f"installed software ({check.files} files) {verb}")
    print(f"  manifest sha256 {check.installed_sha256}")
    print(f"  sealed {check.sealed_at} by key {check.key_id}: sha256 {check.sealed_sha256}")
    d = check.difference
    for word, paths in (("changed", d.changed), ("added", d.added), ("missing", d.missing)):
        for path in paths:
            print(f"  {word}: {path}")
    return 0 if check.ok else 1
