"""Ed25519 signing keys for log checkpoints: generated on first start, kept private.

The private key lives in ``<store>/keys/log-signing-<key_id>.pem`` (PKCS#8, mode
0600, directory 0700); ``current`` names the key in use. The public key is
exportable as PEM so a regulator can verify with a key obtained out of band.
``key_id`` is the first 16 hex digits of SHA-256 over the raw public key.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from certification.log.errors import LogKeyError


def key_id_of(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def public_pem(public: Ed25519PublicKey) -> str:
    return public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


def public_raw_hex(public: Ed25519PublicKey) -> str:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def load_public_key(data: str | bytes) -> Ed25519PublicKey:
    """Load an Ed25519 public key from PEM text or 64 hex digits (raw)."""
    text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
    text = text.strip()
    try:
        if "BEGIN" in text:
            key = serialization.load_pem_public_key(text.encode("ascii"))
        else:
            key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    except ValueError as exc:
        raise LogKeyError(f"not an Ed25519 public key: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise LogKeyError("the public key is not an Ed25519 key")
    return key


def verify_signature(public: Ed25519PublicKey, signature_hex: str, message: bytes) -> bool:
    try:
        public.verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class SigningKey:
    """A private key with its id; signs checkpoint messages."""

    private: Ed25519PrivateKey
    key_id: str

    @property
    def public(self) -> Ed25519PublicKey:
        return self.private.public_key()

    def sign(self, message: bytes) -> str:
        return self.private.sign(message).hex()

    @classmethod
    def generate(cls) -> SigningKey:
        private = Ed25519PrivateKey.generate()
        return cls(private, key_id_of(private.public_key()))


class KeyStore:
    """The signing keys of one store directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory) / "keys"

    def _path(self, key_id: str) -> Path:
        return self.directory / f"log-signing-{key_id}.pem"

    def current(self) -> SigningKey | None:
        marker = self.directory / "current"
        if not marker.exists():
            return None
        key_id = marker.read_text().strip()
        return self.load(key_id)

    def load(self, key_id: str) -> SigningKey:
        path = self._path(key_id)
        try:
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError) as exc:
            raise LogKeyError(f"cannot read signing key {path}: {exc}") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise LogKeyError(f"{path} is not an Ed25519 private key")
        return SigningKey(private, key_id)

    def save(self, key: SigningKey) -> None:
        """Write the key with owner-only permissions and make it current."""
        self.directory.mkdir(parents=True, exist_ok=True)
        os.chmod(self.directory, 0o700)
        pem = key.private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        path = self._path(key.key_id)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(pem)
            fh.flush()
            os.fsync(fh.fileno())
        tmp = self.directory / "current.tmp"
        tmp.write_text(key.key_id + "\n")
        os.replace(tmp, self.directory / "current")
