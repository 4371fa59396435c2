"""CTR_DRBG with a derivation function, SP 800-90A Rev. 1 section 10.2.1, on AES.

Deterministic: no ``os``, no ``time``. The appliance uses AES-256; AES-128 and
AES-192 are accepted so a lab can run every "use df" group of a CAVP file.

Speed: with ctr_len = blocklen (128), the generate loop "V = (V + 1) mod 2**128;
output E(Key, V)" is exactly AES in counter mode with the initial counter block
V + 1 (OpenSSL increments the whole 128-bit block, big-endian, mod 2**128). One
``Cipher(AES(key), CTR(V + 1))`` call over zero bytes therefore produces a whole
request of up to 2**19 bits; V then advances by the number of blocks used. The
update step (10.2.1.2) is the same keystream over seedlen bytes. Likewise BCC
(10.3.3) is CBC-MAC (CBC with a zero IV, last block), and the output loop of
Block_Cipher_df is CBC over zero blocks with IV = X. The CAVP vectors check all of it.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from rng.drbg import (
    MAX_REQUEST_BYTES,
    MAX_RESEED_INTERVAL,
    check_alive,
    check_input,
    check_request,
    check_reseed_interval,
)
from rng.errors import DrbgInputError, ReseedRequired

BLOCK = 16  # AES block length, bytes
_MOD = 1 << 128

#: CAVP group name -> key length in bytes (security strength = 8 * key length).
KEY_BYTES: dict[str, int] = {"AES-128": 16, "AES-192": 24, "AES-256": 32}


_ZEROS = bytes(MAX_REQUEST_BYTES + 4 * BLOCK)  # plaintext for keystream: never written


def _ctr_keystream(key: bytes, v: int, n_blocks: int) -> bytes:
    """E(Key, V+1) || E(Key, V+2) || ... for ``n_blocks`` blocks."""
    start = ((v + 1) % _MOD).to_bytes(BLOCK, "big")
    enc = Cipher(algorithms.AES(key), modes.CTR(start)).encryptor()
    return enc.update(memoryview(_ZEROS)[: n_blocks * BLOCK])


def _cbc(key: bytes, iv: bytes, data: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return enc.update(data)


def block_cipher_df(key_bytes: int, data: bytes, n_bytes: int) -> bytes:
    """Block_Cipher_df (10.3.2): derive ``n_bytes`` from ``data`` with AES-(8*key_bytes)."""
    s = len(data).to_bytes(4, "big") + n_bytes.to_bytes(4, "big") + data + b"\x80"
    s += bytes(-len(s) % BLOCK)
    k = bytes(range(key_bytes))
    temp = b""
    i = 0
    while len(temp) < key_bytes + BLOCK:
        iv = i.to_bytes(4, "big") + bytes(BLOCK - 4)
        temp += _cbc(k, bytes(BLOCK), iv + s)[-BLOCK:]  # BCC(K, IV || S)
        i += 1
    k, x = temp[:key_bytes], temp[key_bytes : key_bytes + BLOCK]
    blocks = -(-n_bytes // BLOCK)
    return _cbc(k, x, bytes(blocks * BLOCK))[:n_bytes]


class CtrDrbg:
    """CTR_DRBG (AES, derivation function): instantiate on construction.

    >>> d = CtrDrbg(bytes(32), bytes(16))
    >>> len(d.generate(40)), d.reseed_counter
    (40, 2)
    """

    def __init__(
        self,
        entropy: bytes,
        nonce: bytes,
        personalization: bytes = b"",
        *,
        cipher: str = "AES-256",
        reseed_interval: int = MAX_RESEED_INTERVAL,
    ) -> None:
        if cipher not in KEY_BYTES:
            raise DrbgInputError(f"CTR_DRBG: unsupported block cipher {cipher!r}")
        self._keylen = KEY_BYTES[cipher]
        self._seedlen = self._keylen + BLOCK
        self.name = f"CTR_DRBG({cipher} use df)"
        self.security_strength = self._keylen * 8
        check_reseed_interval(reseed_interval)
        self._interval = reseed_interval
        check_input("entropy input", entropy, min_bytes=self._keylen)
        check_input("nonce", nonce)
        check_input("personalization string", personalization)
        # 10.2.1.3.2: Key = 0^keylen, V = 0^blocklen, update with df(seed material).
        self._key = bytes(self._keylen)
        self._v = 0
        self._update(self._df(entropy + nonce + personalization))
        self._counter = 1
        self._alive = True

    @property
    def reseed_counter(self) -> int:
        """Generate requests since the last (re)seed, plus one (the standard's counter)."""
        return self._counter

    def _df(self, data: bytes) -> bytes:
        return block_cipher_df(self._keylen, data, self._seedlen)

    def _update(self, provided: bytes) -> None:
        """CTR_DRBG_Update (10.2.1.2); ``provided`` is exactly seedlen bytes."""
        blocks = -(-self._seedlen // BLOCK)
        temp = _ctr_keystream(self._key, self._v, blocks)[: self._seedlen]
        if any(provided):
            mixed = int.from_bytes(temp, "big") ^ int.from_bytes(provided, "big")
            temp = mixed.to_bytes(self._seedlen, "big")
        self._key = temp[: self._keylen]
        self._v = int.from_bytes(temp[self._keylen :], "big")

    def reseed(self, entropy: bytes, additional: bytes = b"") -> None:
        """CTR_DRBG_Reseed with df (10.2.1.4.2)."""
        check_alive(self.name, self._alive)
        check_input("entropy input", entropy, min_bytes=self._keylen)
        check_input("additional input", additional)
        self._update(self._df(entropy + additional))
        self._counter = 1

    def generate(
        self,
        n_bytes: int,
        additional: bytes = b"",
        *,
        prediction_resistance_entropy: bytes | None = None,
    ) -> bytes:
        """CTR_DRBG_Generate with df (10.2.1.5.2), with 9.3.1's prediction-resistance step."""
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
            provided = self._df(additional)
            self._update(provided)
        else:
            provided = bytes(self._seedlen)
        blocks = -(-n_bytes // BLOCK)
        out = _ctr_keystream(self._key, self._v, blocks)[:n_bytes]
        self._v = (self._v + blocks) % _MOD
        self._update(provided)
        self._counter += 1
        return out

    def uninstantiate(self) -> None:
        """Zeroise the working state (9.4); any later use raises DrbgUninstantiated."""
        self._key = bytes(self._keylen)
        self._v = 0
        self._counter = 0
        self._alive = False
