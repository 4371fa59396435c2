"""Where the DRBG's entropy comes from, and what happens when that source fails.

:class:`EntropySupply` holds the configured (primary) health-checked source and,
under the ``fallback`` policy, the OS CSPRNG behind its own health tests. When the
active source raises (health-test failure, unplug, timeout):

- ``fail-closed``: the supply halts. It raises RngHalted now and on every later
  call until :meth:`restart`; an ``Alarm(kind="halt")`` goes to every listener and
  to the ``rng`` logger at ERROR. The table stops with the message.
- ``fallback``: the supply switches to the OS CSPRNG, raises an
  ``Alarm(kind="fallback")`` (logger WARNING) and carries on. If the OS source
  fails too, it halts as above.

Never silent: every switch and every halt is an alarm, a log record and a field of
:meth:`status`.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from rng.errors import EntropyError, RngHalted
from rng.sources import HealthCheckedSource, SourceStatus

log = logging.getLogger("rng")
log.addHandler(logging.NullHandler())  # a library: the application decides where logs go


@dataclass(frozen=True, slots=True, kw_only=True)
class Alarm:
    """An operator-visible event: ``kind`` is "fallback", "halt" or "restart"."""

    seq: int
    kind: str
    source: str
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SupplyStatus:
    policy: str
    active: str
    halted: str | None  # the reason, while halted
    alarms: tuple[Alarm, ...]
    sources: tuple[SourceStatus, ...]


AlarmListener = Callable[[Alarm], None]


class EntropySupply:
    """Entropy input for the DRBG under a fail-closed or fallback policy. Thread-safe."""

    def __init__(
        self,
        primary: HealthCheckedSource,
        *,
        policy: str = "fail-closed",
        fallback: HealthCheckedSource | None = None,
    ) -> None:
        if policy not in ("fail-closed", "fallback"):
            raise ValueError(f"unknown policy {policy!r}")
        if policy == "fallback" and fallback is None:
            raise ValueError("the fallback policy needs a fallback source")
        self.policy = policy
        self.primary = primary
        self.fallback = fallback if policy == "fallback" else None
        self.active = primary
        self.halted: str | None = None
        self.alarms: list[Alarm] = []
        self._listeners: list[AlarmListener] = []
        self._lock = threading.RLock()

    def subscribe(self, listener: AlarmListener) -> None:
        """Call ``listener`` with every alarm (the game log and operator console do)."""
        self._listeners.append(listener)

    def _alarm(self, kind: str, source: str, message: str) -> None:
        alarm = Alarm(seq=len(self.alarms) + 1, kind=kind, source=source, message=message)
        self.alarms.append(alarm)
        (log.error if kind == "halt" else log.warning)("rng alarm %s: %s", kind, message)
        for listener in self._listeners:
            listener(alarm)

    def entropy_input(self, bits: int) -> bytes:
        """Samples carrying at least ``bits`` bits of claimed min-entropy, health-tested."""
        with self._lock:
            if self.halted is not None:
                raise RngHalted(f"rng halted: {self.halted}")
            while True:
                source = self.active
                n = math.ceil(Decimal(bits) / Decimal(source.config.min_entropy))
                try:
                    return source.read(n)
                except EntropyError as exc:
                    self._on_failure(source, exc)

    def _on_failure(self, source: HealthCheckedSource, exc: EntropyError) -> None:
        if self.fallback is not None and source is self.primary:
            self.active = self.fallback
            self._alarm(
                "fallback",
                source.name,
                f"{exc}; switched to {self.fallback.name}",
            )
            return
        self.halted = f"{exc} [policy: {self.policy}]"
        self._alarm("halt", source.name, f"table stopped: {self.halted}")
        raise RngHalted(f"rng halted: {self.halted}") from exc

    def restart(self) -> None:
        """Operator action after fixing the source: clear the halt and re-run start-up tests."""
        with self._lock:
            self.primary.restart()
            if self.fallback is not None:
                self.fallback.restart()
            self.active = self.primary
            was = self.halted
            self.halted = None
            self._alarm("restart", self.primary.name, f"operator restart (was: {was or 'running'})")

    def status(self) -> SupplyStatus:
        with self._lock:
            sources = [self.primary] + ([self.fallback] if self.fallback is not None else [])
            return SupplyStatus(
                policy=self.policy,
                active=self.active.name,
                halted=self.halted,
                alarms=tuple(self.alarms),
                sources=tuple(s.status() for s in sources),
            )

    def close(self) -> None:
        self.primary.close()
        if self.fallback is not None:
            self.fallback.close()
