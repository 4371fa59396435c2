"""The seal: the manifest signed by the appliance's key, kept in the store.

``<store>/software-manifest.json`` holds the manifest's body, its SHA-256, the id
of the store's Ed25519 key that signed it, the signature and when it was sealed.
The signature covers a domain tag and the canonical body, so a checkpoint
signature of the same key can never pass for a seal (or the other way round).

Sealing is an explicit act of whoever installs the software (``croupier store
init`` seals the build a new store is made with; ``croupier verify-install
--seal`` seals again after an update). Checking needs no secret: the key's
public half verifies the seal, then every installed file is hashed again and
compared with it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from certification.install.errors import InstallError
from certification.install.manifest import Difference, Manifest, build_manifest, compare
from certification.log.errors import LogKeyError
from certification.log.keys import KeyStore, verify_signature

SEAL_FILE = "software-manifest.json"
DOMAIN = b"croupier software manifest v1\n"


@dataclass(frozen=True, slots=True)
class InstallCheck:
    """The outcome of checking an installation against its seal."""

    sealed_sha256: str
    installed_sha256: str
    key_id: str
    sealed_at: str
    files: int
    difference: Difference

    @property
    def ok(self) -> bool:
        return self.difference.empty and self.sealed_sha256 == self.installed_sha256

    def as_dict(self) -> dict[str, object]:
        d = self.difference
        return {
            "ok": self.ok,
            "sealed_sha256": self.sealed_sha256,
            "installed_sha256": self.installed_sha256,
            "key_id": self.key_id,
            "sealed_at": self.sealed_at,
            "files": self.files,
            "changed": list(d.changed),
            "added": list(d.added),
            "missing": list(d.missing),
        }


def seal_path(store: Path) -> Path:
    return Path(store) / SEAL_FILE


def seal_install(store: Path, roots: Mapping[str, Path] | None = None) -> InstallCheck:
    """Hash the installation, sign it with the store's current key, write the seal."""
    key = KeyStore(store).current()
    if key is None:
        raise InstallError(f"store {store} has no signing key: make it with `croupier store init`")
    manifest = build_manifest(roots)
    record = {
        "manifest": manifest.body(),
        "sha256": manifest.digest(),
        "key_id": key.key_id,
        "signature": key.sign(DOMAIN + manifest.canonical()),
        "sealed_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    path = seal_path(store)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    with tmp.open("rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return check_install(store, roots)


def _load_seal(store: Path) -> tuple[Manifest, str, str, str]:
    """The sealed manifest, its hash, key id and time; InstallError unless the seal is sound."""
    path = seal_path(store)
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        raise InstallError(
            f"no software seal in {store}: seal this installation with "
            "`croupier verify-install --seal` (store init does it for a new store)"
        ) from None
    except (OSError, ValueError) as exc:
        raise InstallError(f"cannot read the software seal {path}: {exc}") from None
    if not isinstance(record, dict):
        raise InstallError(f"the software seal {path} is not a JSON object")
    manifest = Manifest.from_body(record.get("manifest"))
    key_id, signature, at = (record.get(k) for k in ("key_id", "signature", "sealed_at"))
    if not (isinstance(key_id, str) and isinstance(signature, str) and isinstance(at, str)):
        raise InstallError(f"the software seal {path} has no key id, signature or time")
    if record.get("sha256") != manifest.digest():
        raise InstallError(f"the software seal {path} does not hash to the hash it states")
    try:
        public = KeyStore(store).load(key_id).public
    except LogKeyError as exc:
        raise InstallError(f"the software seal's key {key_id} is not in the store: {exc}") from None
    if not verify_signature(public, signature, DOMAIN + manifest.canonical()):
        raise InstallError(f"the software seal {path} is not signed by key {key_id}")
    return manifest, manifest.digest(), key_id, at


def check_install(store: Path, roots: Mapping[str, Path] | None = None) -> InstallCheck:
    """Verify the seal, hash the installation again and compare (nothing is written)."""
    sealed, digest, key_id, at = _load_seal(store)
    installed = build_manifest(roots)
    return InstallCheck(
        sealed_sha256=digest,
        installed_sha256=installed.digest(),
        key_id=key_id,
        sealed_at=at,
        files=len(installed.files),
        difference=compare(sealed, installed),
    )


def require_sealed(store: Path, roots: Mapping[str, Path] | None = None) -> InstallCheck:
    """:func:`check_install`, raising InstallError (one line) on any difference."""
    check = check_install(store, roots)
    if not check.ok:
        raise InstallError(
            "the installed software does not match its signed manifest: "
            f"{check.difference.summary()}; run `croupier verify-install` for the list"
        )
    return check
