"""The appliance's DRBG: seeded from the entropy supply, reseeded on schedule, thread-safe.

:class:`DrbgGenerator` instantiates an SP 800-90A DRBG (CTR_DRBG AES-256 with df by
default, or HMAC_DRBG SHA-256) from the supply on :meth:`start`: 256 bits of
entropy input plus a 128-bit nonce (each measured in the source's claimed
min-entropy). It reseeds from the supply every ``reseed_requests`` generate
requests or ``reseed_seconds`` seconds, whichever comes first, and whenever the
DRBG reports ReseedRequired. With ``prediction_resistance`` every request carries
fresh entropy (SP 800-90A 9.3.1), so each outcome's generate call reads and
health-tests the source. If the supply cannot deliver, no output is produced: the
error (RngHalted under fail-closed) propagates. :meth:`reseed_if_older` is the
timer's hook (``rng.watchdog``): the source is also read when nobody asks for output.

Every byte is counted: requests, bytes generated, reseeds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from rng.ctr_drbg import CtrDrbg
from rng.drbg import MAX_REQUEST_BYTES, Drbg
from rng.errors import ReseedRequired, RngHalted
from rng.hmac_drbg import HmacDrbg
from rng.supply import EntropySupply

SECURITY_BITS = 256
NONCE_BITS = 128
PERSONALIZATION = b"croupier rng v1"


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratorStatus:
    mechanism: str
    instantiated: bool
    requests: int
    bytes_generated: int
    reseeds: int  # reseeds after instantiation (prediction-resistance ones included)
    instantiations: int
    prediction_resistance: bool


class DrbgGenerator:
    """Bytes from an SP 800-90A DRBG fed by an :class:`EntropySupply`."""

    def __init__(
        self,
        supply: EntropySupply,
        *,
        mechanism: str = "CTR_DRBG",
        reseed_requests: int = 1024,
        reseed_seconds: int = 60,
        prediction_resistance: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if mechanism not in ("CTR_DRBG", "HMAC_DRBG"):
            raise ValueError(f"unknown DRBG mechanism {mechanism!r}")
        self.supply = supply
        self.mechanism = mechanism
        self.reseed_requests = reseed_requests
        self.reseed_seconds = reseed_seconds
        self.prediction_resistance = prediction_resistance
        self._clock = clock
        self._drbg: Drbg | None = None
        self._lock = threading.Lock()
        self._since_reseed = 0
        self._seeded_at = 0.0
        self.requests = 0
        self.bytes_generated = 0
        self.reseeds = 0
        self.instantiations = 0

    def start(self) -> None:
        """(Re)instantiate from fresh entropy: done on every start of the appliance."""
        with self._lock:
            self._instantiate()

    def _instantiate(self) -> None:
        if self._drbg is not None:
            self._drbg.uninstantiate()
            self._drbg = None
        entropy = self.supply.entropy_input(SECURITY_BITS)
        nonce = self.supply.entropy_input(NONCE_BITS)
        if self.mechanism == "CTR_DRBG":
            self._drbg = CtrDrbg(
                entropy, nonce, PERSONALIZATION, reseed_interval=self.reseed_requests
            )
        else:
            self._drbg = HmacDrbg(
                entropy, nonce, PERSONALIZATION, reseed_interval=self.reseed_requests
            )
        self.instantiations += 1
        self._since_reseed = 0
        self._seeded_at = self._clock()

    def _reseed(self, drbg: Drbg) -> None:
        drbg.reseed(self.supply.entropy_input(SECURITY_BITS))
        self.reseeds += 1
        self._since_reseed = 0
        self._seeded_at = self._clock()

    def reseed_if_older(self, seconds: float) -> bool:
        """Reseed from the source now if the last (re)seeding is ``seconds`` old or more.

        The reseed reads and health-tests the source, so a dead source is found (and
        the supply's alarm raised) even while no outcome is drawn. True if it reseeded.
        """
        with self._lock:
            if self.supply.halted is not None:
                raise RngHalted(f"rng halted: {self.supply.halted}")
            if self._drbg is None or self._clock() - self._seeded_at < seconds:
                return False
            self._reseed(self._drbg)
            return True

    def generate(self, n: int) -> bytes:
        """``n`` bytes of DRBG output (several requests of at most 64 KiB when large)."""
        if n < 0:
            raise ValueError(f"byte count must be >= 0, got {n}")
        with self._lock:
            if self.supply.halted is not None:
                raise RngHalted(f"rng halted: {self.supply.halted}")
            if self._drbg is None:
                self._instantiate()
            drbg = self._drbg
            assert drbg is not None
            parts = []
            left = n
            while left > 0:
                size = min(left, MAX_REQUEST_BYTES)
                parts.append(self._request(drbg, size))
                left -= size
            return b"".join(parts)

    def _request(self, drbg: Drbg, size: int) -> bytes:
        if self.prediction_resistance:
            fresh = self.supply.entropy_input(SECURITY_BITS)
            out = drbg.generate(size, prediction_resistance_entropy=fresh)
            self.reseeds += 1
            self._seeded_at = self._clock()
        else:
            due = self._since_reseed >= self.reseed_requests or (
                self._clock() - self._seeded_at >= self.reseed_seconds
            )
            if due:
                self._reseed(drbg)
            try:
                out = drbg.generate(size)
            except ReseedRequired:
                self._reseed(drbg)
                out = drbg.generate(size)
            self._since_reseed += 1
        self.requests += 1
        self.bytes_generated += size
        return out

    def status(self) -> GeneratorStatus:
        return GeneratorStatus(
            mechanism=self._drbg.name if self._drbg is not None else self.mechanism,
            instantiated=self._drbg is not None,
            requests=self.requests,
            bytes_generated=self.bytes_generated,
            reseeds=self.reseeds,
            instantiations=self.instantiations,
            prediction_resistance=self.prediction_resistance,
        )

    def close(self) -> None:
        """Zeroise the DRBG state and close the sources."""
        with self._lock:
            if self._drbg is not None:
                self._drbg.uninstantiate()
                self._drbg = None
            self.supply.close()
