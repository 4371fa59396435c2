"""Entropy sources behind one interface, and the health-tested wrapper every one goes through.

::

    RawSource (protocol)            raw, unconditioned samples, one per byte
     +-- DeviceSource   "hw"        a hardware TRNG opened by the injected DeviceOpener
     +-- OsSource       "os"        the operating system CSPRNG (getrandom, else urandom)
     +-- SimSource      "sim"       a seeded, predictable simulator: NOT FOR PLAY
    HealthCheckedSource             start-up test, then RCT + APT on every byte it passes on

A source either returns exactly the bytes asked for or raises SourceUnavailable;
the wrapper raises EntropyHealthError when a test fails. Nothing returns short or
empty data. Simulated sources (``SimSource``, and device URLs the opener calls
simulated: the device layer owns that list) report ``for_play = False``;
:func:`require_play_allowed` refuses them on a real-money table unless test mode is set.
rng imports no device code: the factory is handed the opener (``firmware_bridge.ENTROPY_OPENER``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from rng.errors import RngConfigError, SourceUnavailable, TestModeRequired
from rng.health import HealthConfig, HealthStatus, HealthTests

if TYPE_CHECKING:
    from firmware_bridge.hal import EntropyDevice


class SourceKind(StrEnum):
    HARDWARE = "hw"
    OS = "os"
    SIMULATOR = "sim"


class RawSource(Protocol):
    """Raw samples (one per byte) from a noise source or CSPRNG."""

    name: str
    kind: SourceKind
    for_play: bool  # False for anything seeded or simulated

    def read(self, n: int) -> bytes:
        """Exactly ``n`` bytes, or raise SourceUnavailable."""
        ...

    def close(self) -> None: ...


class OsSource:
    """The OS CSPRNG: ``os.getrandom`` (blocking until the kernel pool is seeded), else urandom."""

    kind = SourceKind.OS
    for_play = True

    def __init__(self) -> None:
        self.name = "os:getrandom" if hasattr(os, "getrandom") else "os:urandom"

    def read(self, n: int) -> bytes:
        try:
            if not hasattr(os, "getrandom"):
                return os.urandom(n)
            parts = []
            left = n
            while left:  # getrandom may return fewer bytes than asked for large requests
                chunk = os.getrandom(min(left, 1 << 25))
                parts.append(chunk)
                left -= len(chunk)
            return b"".join(parts)
        except OSError as exc:
            raise SourceUnavailable(f"{self.name}: {exc}") from exc

    def close(self) -> None:
        pass


class SimFault(StrEnum):
    NONE = "none"
    STUCK = "stuck"  # every sample 0x00
    BIASED = "biased"  # about 90 % of samples 0x55 (raw bytes < 230 become 0x55)
    UNPLUG = "unplug"  # SourceUnavailable after ``unplug_after`` bytes


class SimSource:
    """SIMULATOR, NOT FOR PLAY: a seeded, reproducible byte stream with injectable faults.

    The stream is AES-256-CTR keystream under SHA-256(seed), so it is fast, depends
    only on the seed (not on how reads are chunked) and is completely predictable by
    anyone who knows the seed. It exists for tests, demos and lab rehearsals.

    >>> s = SimSource(seed=7)
    >>> s.read(4) + s.read(4) == SimSource(seed=7).read(8)
    True
    >>> s.for_play
    False
    """

    kind = SourceKind.SIMULATOR
    for_play = False

    def __init__(self, seed: int = 0, fault: str = "none", unplug_after: int = 4096) -> None:
        try:
            self.fault = SimFault(fault)
        except ValueError:
            names = ", ".join(f.value for f in SimFault)
            raise RngConfigError(f"unknown simulator fault {fault!r} (one of: {names})") from None
        self.seed = seed
        self.name = "sim (SIMULATOR - NOT FOR PLAY)"  # never the seed: names are shown
        self.unplug_after = unplug_after
        self._key = hashlib.sha256(b"croupier-sim-source" + str(seed).encode()).digest()
        self.offset = 0
        self._closed = False

    def inject(self, fault: str) -> None:
        """Change the fault at run time (tests of a source that degrades while in use)."""
        self.fault = SimFault(fault)

    def read(self, n: int) -> bytes:
        if self._closed:
            raise SourceUnavailable(f"{self.name}: closed")
        if self.fault is SimFault.UNPLUG and self.offset + n > self.unplug_after:
            raise SourceUnavailable(f"{self.name}: device unplugged")
        first, skip = divmod(self.offset, 16)
        nonce = first.to_bytes(16, "big")
        enc = Cipher(algorithms.AES(self._key), modes.CTR(nonce)).encryptor()
        raw = enc.update(bytes(skip + n))[skip:]
        self.offset += n
        if self.fault is SimFault.STUCK:
            return bytes(n)
        if self.fault is SimFault.BIASED:
            return raw.translate(bytes(0x55 if b < 230 else b for b in range(256)))
        return raw

    def close(self) -> None:
        self._closed = True


class DeviceOpener(Protocol):
    """The device layer as rng uses it: injected through the factory, never imported.

    ``opener(url)`` opens the entropy device at ``url``; ``opener.is_simulator(url)``
    says, before anything is opened, whether the URL names a simulated device
    (seeded or recorded output: not for play), and raises for a URL that could
    never be opened. The device layer owns both answers; the appliance and the
    CLIs pass ``firmware_bridge.ENTROPY_OPENER``.
    """

    def __call__(self, url: str, /) -> EntropyDevice: ...

    def is_simulator(self, url: str, /) -> bool: ...


class DeviceSource:
    """A hardware TRNG (or its simulator) reached through the injected :class:`DeviceOpener`.

    The device is opened on first use; device-layer errors (unplug, timeout, bad
    frames, missing port) become SourceUnavailable naming the URL. Whether it is for
    play is the opener's answer for the URL; a URL it refuses is an RngConfigError.
    """

    kind = SourceKind.HARDWARE

    def __init__(
        self,
        url: str,
        *,
        opener: DeviceOpener,
        timeout: float | None = None,
        device: EntropyDevice | None = None,
    ) -> None:
        if "://" not in url:
            raise RngConfigError(f"hardware source URL {url!r} has no scheme (e.g. 'sim://trng')")
        self.url = url
        # The name is shown on the status page: the URL's query (a simulator's seed,
        # device options) stays out of it; the operator API shows the full URL.
        self._public = url.split("?", 1)[0].split("#", 1)[0]
        self.name = f"hw:{self._public}"
        try:
            self.for_play = not opener.is_simulator(url)
        except Exception as exc:  # the device layer's refusal of the URL, whatever its type
            detail = str(exc).replace(url, self._public)
            raise RngConfigError(f"hardware source {self._public}: {detail}") from exc
        if not self.for_play:
            self.name += " (SIMULATED DEVICE - NOT FOR PLAY)"
        self.timeout = timeout
        self._opener = opener
        self._device = device

    def _open(self) -> EntropyDevice:
        if self._device is None:
            try:
                self._device = self._opener(self.url)
            except Exception as exc:  # any device-layer failure to open
                detail = str(exc).replace(self.url, self._public)
                raise SourceUnavailable(f"{self.name}: cannot open: {detail}") from exc
        return self._device

    def read(self, n: int) -> bytes:
        device = self._open()
        try:
            data = device.read(n, timeout=self.timeout)
        except Exception as exc:  # DeviceError, OSError, timeouts: the source is gone
            detail = str(exc).replace(self.url, self._public)
            raise SourceUnavailable(f"{self.name}: {type(exc).__name__}: {detail}") from exc
        if not isinstance(data, bytes) or len(data) != n:
            raise SourceUnavailable(f"{self.name}: short or malformed read ({n} bytes asked)")
        return data

    def close(self) -> None:
        if self._device is not None:
            with contextlib.suppress(Exception):  # a dead device must not mask the fault
                self._device.close()


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceStatus:
    """One source as the operator console shows it."""

    name: str
    kind: str
    for_play: bool
    state: str  # "not started", "ok", "failed", "unavailable"
    bytes_read: int  # raw bytes read, start-up samples included
    bytes_served: int  # raw bytes passed on after testing
    last_error: str | None
    health: HealthStatus


class HealthCheckedSource:
    """A raw source behind the SP 800-90B tests: nothing reaches a caller untested.

    On first use (and after :meth:`restart`) it reads ``startup_samples`` samples,
    runs the start-up test and discards them; then every read is tested before it
    is returned.
    """

    def __init__(self, raw: RawSource, config: HealthConfig) -> None:
        self.raw = raw
        self.config = config
        self.tests = HealthTests(config, raw.name)
        self.bytes_read = 0
        self.bytes_served = 0
        self.last_error: str | None = None
        self._unavailable = False

    @property
    def name(self) -> str:
        return self.raw.name

    @property
    def kind(self) -> SourceKind:
        return self.raw.kind

    @property
    def for_play(self) -> bool:
        return self.raw.for_play

    def _raw_read(self, n: int) -> bytes:
        try:
            data = self.raw.read(n)
        except SourceUnavailable as exc:
            self._unavailable = True
            self.last_error = str(exc)
            raise
        self.bytes_read += n
        return data

    def read(self, n: int) -> bytes:
        """``n`` tested samples; raises EntropyHealthError or SourceUnavailable."""
        try:
            if not self.tests.started and not self.tests.failed:
                self.tests.startup(self._raw_read(self.config.startup_samples))
            data = self._raw_read(n)
            self.tests.feed(data)
        except Exception as exc:
            self.last_error = str(exc)
            raise
        self.bytes_served += n
        return data

    def restart(self) -> None:
        """Operator restart: clear the failure; the next read runs a new start-up test."""
        self.tests.reset()
        self._unavailable = False

    def status(self) -> SourceStatus:
        if self.tests.failed:
            state = "failed"
        elif self._unavailable:
            state = "unavailable"
        elif not self.tests.started:
            state = "not started"
        else:
            state = "ok"
        return SourceStatus(
            name=self.name,
            kind=self.kind.value,
            for_play=self.for_play,
            state=state,
            bytes_read=self.bytes_read,
            bytes_served=self.bytes_served,
            last_error=self.last_error,
            health=self.tests.status(),
        )

    def close(self) -> None:
        self.raw.close()


def require_play_allowed(
    source_name: str, for_play: bool, *, real_money: bool, test_mode: bool
) -> None:
    """Refuse a simulated source on a real-money table unless test mode is explicitly set."""
    if real_money and not for_play and not test_mode:
        raise TestModeRequired(
            f"{source_name} is a simulator and must not serve a real-money table; "
            "set test_mode = true in the [rng] config only on a test table"
        )
