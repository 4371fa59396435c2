"""HMAC_DRBG, SP 800-90A Rev. 1 section 10.1.2, on ``cryptography``'s HMAC.

Deterministic: no ``os``, no ``time``. The appliance uses SHA-256; the other
approved hash functions are accepted so that a lab can run every HMAC_DRBG group
of a CAVP file through ``croupier rng kat``.
"""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes, hmac

from rng.drbg import (
    MAX_RESEED_INTERVAL,
    check_alive,
    check_input,
    check_request,
    check_reseed_interval,
)
from rng.errors import DrbgInputError, ReseedRequired

#: CAVP group name -> (hash algorithm, security strength in bits) (SP 800-57 Part 1).
HASHES: dict[str, tuple[type[hashes.HashAlgorithm], int]] = {
    "SHA-1": (hashes.SHA1, 128),
    "SHA-224": (hashes.SHA224, 192),
    "SHA-256": (hashes.SHA256, 256),
    "SHA-384": (hashes.SHA384, 256),
    "SHA-512": (hashes.SHA512, 256),
    "SHA-512/224": (hashes.SHA512_224, 192),
    "SHA-512/256": (hashes.SHA512_256, 256),
}


class HmacDrbg:
    """HMAC_DRBG: instantiate on construction, then reseed / generate / uninstantiate.

    >>> d = HmacDrbg(bytes(32), bytes(16))
    >>> len(d.generate(40)), d.reseed_counter
    (40, 2)
    """

    def __init__(
        self,
        entropy: bytes,
        nonce: bytes,
        personalization: bytes = b"",
        *,
        hash_name: str = "SHA-256",
        reseed_interval: int = MAX_RESEED_INTERVAL,
    ) -> None:
        if hash_name not in HASHES:
            raise DrbgInputError(f"HMAC_DRBG: unsupported hash {hash_name!r}")
        algorithm, strength = HASHES[hash_name]
        self._algorithm = algorithm()
        self.name = f"HMAC_DRBG({hash_name})"
        self.security_strength = strength
        check_reseed_interval(reseed_interval)
        self._interval = reseed_interval
        check_input("entropy input", entropy, min_bytes=strength // 8)
        check_input("nonce", nonce)
        check_input("personalization string", personalization)
        outlen = self._algorithm.digest_size
        # 10.1.2.3: Key = 0x00 00...00, V = 0x01 01...01, then update with the seed material.
        self._key = bytes(outlen)
        self._v = b"\x01" * outlen
        self._update(entropy + nonce + personalization)
        self._counter = 1
        self._alive = True

    @property
    def reseed_counter(self) -> int:
        """Generate requests since the last (re)seed, plus one (the standard's counter)."""
        return self._counter

    def _hmac(self, key: bytes, data: bytes) -> bytes:
        h = hmac.HMAC(key, self._algorithm)
        h.update(data)
        return h.finalize()

    def _update(self, provided: bytes) -> None:
        """HMAC_DRBG_Update (10.1.2.2)."""
        self._key = self._hmac(self._key, self._v + b"\x00" + provided)
        self._v = self._hmac(self._key, self._v)
        if not provided:
            return
        self._key = self._hmac(self._key, self._v + b"\x01" + provided)
        self._v = self._hmac(self._key, self._v)

    def reseed(self, entropy: bytes, additional: bytes = b"") -> None:
        """HMAC_DRBG_Reseed (10.1.2.4)."""
        check_alive(self.name, self._alive)
        check_input("entropy input", entropy, min_bytes=self.security_strength // 8)
        check_input("additional input", additional)
        self._update(entropy + additional)
        self._counter = 1

    def generate(
        self,
        n_bytes: int,
        additional: bytes = b"",
        *,
        prediction_resistance_entropy: bytes | None = None,
    ) -> bytes:
        """HMAC_DRBG_Generate (10.1.2.5), with 9.3.1's prediction-resistance step."""
        check_alive(self.name, self._alive)
        check_request(n_bytes)
        check_input("additional input", additional)
        if prediction_resistance_entropy is not None:
            # 9.3.1 step 7: reseed with fresh entropy and the additional input, then
            # generate with additional_input = Null.
            self.reseed(prediction_resistance_entropy, additional)
            additional = b""
        if self._counter > self._interval:
            raise ReseedRequired(f"{self.name}: reseed counter reached {self._interval}")
        if additional:
            self._update(additional)
        out = bytearray()
        while len(out) < n_bytes:
            self._v = self._hmac(self._key, self._v)
            out += self._v
        self._update(additional)
        self._counter += 1
        return bytes(out[:n_bytes])

    def uninstantiate(self) -> None:
        """Zeroise the working state (9.4); any later use raises DrbgUninstantiated."""
        self._key = bytes(len(self._key))
        self._v = bytes(len(self._v))
        self._counter = 0
        self._alive = False
