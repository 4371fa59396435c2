"""What every SP 800-90A DRBG here offers, and the limits they share.

The mechanisms (:mod:`rng.hmac_drbg`, :mod:`rng.ctr_drbg`) are deterministic: they
import neither ``os`` nor ``time``. Entropy, nonce and the fresh entropy for a
prediction-resistant request are passed in by the caller (STYLE.md idiom C), so
the same code runs NIST's known-answer vectors and the appliance.

Limits (SP 800-90A Rev. 1, Table 2 for HMAC_DRBG and Table 3 for CTR_DRBG with a
derivation function; both are the same for the values used here):

- at most 2**19 bits (65,536 bytes) per generate request;
- at most 2**35 bits for entropy input, personalization string and additional input;
- at most 2**48 generate requests between reseeds (the reseed interval).
"""

from __future__ import annotations

from typing import Protocol

from rng.errors import DrbgInputError, DrbgUninstantiated

#: Largest generate request, in bytes (2**19 bits).
MAX_REQUEST_BYTES = 1 << 16
#: Largest entropy input / personalization / additional input, in bytes (2**35 bits).
MAX_INPUT_BYTES = 1 << 32
#: Largest reseed interval (generate requests between reseeds) the standard allows.
MAX_RESEED_INTERVAL = 1 << 48


class Drbg(Protocol):
    """An instantiated SP 800-90A DRBG.

    ``generate`` with ``prediction_resistance_entropy`` performs the standard's
    prediction-resistant request (SP 800-90A 9.3.1 step 7): reseed with that fresh
    entropy and the additional input, then generate with no additional input.
    """

    name: str
    security_strength: int  # bits

    @property
    def reseed_counter(self) -> int: ...

    def reseed(self, entropy: bytes, additional: bytes = b"") -> None: ...

    def generate(
        self,
        n_bytes: int,
        additional: bytes = b"",
        *,
        prediction_resistance_entropy: bytes | None = None,
    ) -> bytes: ...

    def uninstantiate(self) -> None: ...


def check_input(what: str, value: bytes, *, min_bytes: int = 0) -> None:
    """Raise DrbgInputError if ``value`` is shorter than ``min_bytes`` or over 2**35 bits."""
    if len(value) < min_bytes:
        raise DrbgInputError(
            f"{what} has {len(value) * 8} bits; at least {min_bytes * 8} are required"
        )
    if len(value) > MAX_INPUT_BYTES:
        raise DrbgInputError(f"{what} is longer than 2**35 bits")


def check_request(n_bytes: int) -> None:
    """Raise DrbgInputError unless 0 <= n_bytes <= 2**16 (2**19 bits)."""
    if not 0 <= n_bytes <= MAX_REQUEST_BYTES:
        raise DrbgInputError(
            f"generate request of {n_bytes} bytes is outside 0..{MAX_REQUEST_BYTES} "
            "(SP 800-90A: at most 2**19 bits per request)"
        )


def check_reseed_interval(interval: int) -> None:
    """Raise DrbgInputError unless 1 <= interval <= 2**48."""
    if not 1 <= interval <= MAX_RESEED_INTERVAL:
        raise DrbgInputError(f"reseed interval {interval} is outside 1..2**48")


def check_alive(name: str, alive: bool) -> None:
    """Raise DrbgUninstantiated if the DRBG's state was zeroised."""
    if not alive:
        raise DrbgUninstantiated(f"{name} was uninstantiated")
