"""The store's voucher key: what a validation number's stored digest is keyed with.

The store keeps of a voucher's validation number only its HMAC-SHA256 under this key
(:func:`kiosk_ui.cashier.numbers.digest`), so a copy of the database is no list of
redeemable tickets: the 10**17 numbers cannot be tried offline without the key, which
is not in the database. It lives in ``<store>/keys/voucher-number.key`` (64 hex digits,
mode 0600) beside the log's signing keys and the player-token key, and a floor's
appliances get it with their copies of ``keys/`` (docs/deploy.md): the key is the
store's, not an appliance's, since any appliance of a floor pays the others' vouchers.

``croupier store init`` draws it at random (:meth:`NumberKey.made`). A store made before
the key existed gets it on its first open (:meth:`NumberKey.of`) derived from its
player-token key (:meth:`kiosk_ui.identity.PlayerTokens.derived`), which every appliance
of such a floor already holds: each one arrives at the same key on its own, with no
step for the operator and no appliance's vouchers unpayable at another. The file is
written once, whole (a complete temporary file hard-linked into place), so the workers
of one appliance opening it at once all read the same key. The database keeps a check
of the key (:meth:`NumberKey.check`, nothing of the key itself): an appliance provisioned
with another key is refused at start-up (:meth:`NumberKey.claim`) rather than printing
vouchers no other appliance pays.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk_ui.cashier import numbers
from kiosk_ui.errors import StoreError
from kiosk_ui.identity import PlayerTokens

KEY_NAME = "voucher-number.key"
PURPOSE = "voucher validation numbers"  # the derivation's label, for a store made before
CHECK_LABEL = b"croupier voucher key check"

if TYPE_CHECKING:
    from kiosk_ui.store.protocol import Store


class NumberKey:
    """The key of one store's voucher digests (never logged, never in the database)."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("a voucher key is 32 bytes")
        self._key = key

    @staticmethod
    def path(store_dir: str | Path) -> Path:
        return Path(store_dir) / "keys" / KEY_NAME

    @classmethod
    def made(cls, store_dir: str | Path) -> NumberKey:
        """The key of a new store, drawn at random (kept if a first try already wrote it)."""
        path = cls.path(store_dir)
        if not path.exists():
            _write_once(path, secrets.token_bytes(32))
        return cls._read(path)

    @classmethod
    def of(cls, store_dir: str | Path) -> NumberKey:
        """The store's key; a store made before it gets it from its player-token key."""
        path = cls.path(store_dir)
        if not path.exists():
            seed = PlayerTokens(Path(store_dir)).derived(PURPOSE)
            _write_once(path, bytes.fromhex(seed))
        return cls._read(path)

    @classmethod
    def _read(cls, path: Path) -> NumberKey:
        try:
            return cls(bytes.fromhex(path.read_text().strip()))
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "not 64 hex digits"
            raise StoreError(
                f"the voucher key {path} cannot be read ({why}): restore keys/ from the "
                "backup or copy it from another appliance of the floor"
            ) from None

    def digest(self, number: str) -> str:
        """What the store keeps of ``number`` (:func:`numbers.digest` under this key)."""
        return numbers.digest(number, self._key)

    def check(self) -> str:
        """A value that tells two keys apart and nothing of either (an HMAC of a fixed
        label under the key): kept in the database to catch an appliance whose key is
        not the store's (:meth:`claim`)."""
        return hmac.new(self._key, CHECK_LABEL, hashlib.sha256).hexdigest()

    def claim(self, db: Store) -> NumberKey:
        """This key, once the store says it is its own: the first appliance to open a
        store records its key's :meth:`check`; any other appliance whose key differs is
        refused, since the vouchers it printed would be unpayable at the others and
        theirs at it (each refused as a wrong number)."""
        with db.transaction() as tx:
            stored = tx.vouchers.key_check(self.check())
        if not hmac.compare_digest(stored, self.check()):
            raise StoreError(
                f"the voucher key in {db.directory}/keys ({KEY_NAME}) is not the one "
                "this store's vouchers are printed under: copy keys/ from the appliance "
                "that made the store (docs/deploy.md), then start again"
            )
        return self

    def __repr__(self) -> str:  # never the key itself, in a log line or a traceback
        return "NumberKey(...)"


def _write_once(path: Path, key: bytes) -> None:
    """Write ``key`` to ``path`` unless it exists, never leaving it empty or half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(key.hex())
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(FileExistsError):  # another process wrote it first
            os.link(tmp, path)  # ... and theirs stands: the same key, or store init's
    finally:
        tmp.unlink(missing_ok=True)
