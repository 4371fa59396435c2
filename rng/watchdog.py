"""The source watchdog: the entropy source is read and health-tested on a timer.

Without it a source that dies while the tables are quiet (or while prediction
resistance is off and no reseed is due) would go unnoticed until the next reseed,
and the status page would still say "ok". :class:`Watchdog` runs one daemon thread
that, every quarter of ``interval``, asks the generator to reseed if its last
(re)seeding is ``interval`` old or more (``DrbgGenerator.reseed_if_older``), so
the source is read at most 1.25 intervals apart: the reseed reads fresh
samples from the active source through the SP 800-90B tests, so an unplugged,
silent or stuck source raises there, and the supply applies its policy (halt with
an alarm under fail-closed, switch to the OS CSPRNG with an alarm under fallback).
The alarm reaches every subscriber (the appliance logs it and suspends the RNG
tables) within 1.25 intervals of the fault, even with no play at all; while
tables draw, the generator's own schedule reads the source before any request made
an interval or more after the last seeding (and before every request with
prediction resistance).
"""

from __future__ import annotations

import logging
import threading

from rng.errors import RngError
from rng.generator import DrbgGenerator

log = logging.getLogger("rng")


class Watchdog:
    """One daemon thread reseeding ``generator`` at least every ``interval`` seconds."""

    def __init__(self, generator: DrbgGenerator, interval: float) -> None:
        if interval <= 0:
            raise ValueError(f"watchdog interval must be > 0, got {interval}")
        self.generator = generator
        self.interval = interval
        self.checks = 0  # timer checks that reseeded (read and tested the source)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="rng-watchdog", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval / 4):
            try:
                if self.generator.reseed_if_older(self.interval):
                    self.checks += 1
            except RngError as exc:  # the supply has raised its alarm; keep watching
                log.debug("rng watchdog: %s", exc)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None
