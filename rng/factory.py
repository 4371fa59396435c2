"""Build the whole chain from an :class:`RngConfig`: sources -> supply -> DRBG -> Rng.

``open_rng(config, real_money=...)`` is what the table runtime calls. It refuses a
simulated source on a real-money table unless ``test_mode`` is set, instantiates
the DRBG at once (so the start-up health test and the first seeding happen on
every start, before any game draws), starts the source watchdog (the source is
read and health-tested at least every ``reseed_interval_seconds``, play or no
play), and returns an :class:`RngStack` whose ``status()`` feeds the operator
console and ``croupier rng health``.

The hardware TRNG is reached only through the ``opener`` the caller hands in (the
appliance and the CLIs pass ``firmware_bridge.ENTROPY_OPENER``): rng imports no device
code, and which device URLs simulate is the device layer's answer, not a list here.
A ``hw`` source without an opener is an RngConfigError.

``source`` values: ``hw`` (the TRNG at ``url``), ``os`` (the OS CSPRNG), ``sim``
(the seeded simulator, not for play), ``auto`` (``hw`` if a ``url`` is configured,
else ``os``; with a ``url`` it always falls back to the OS CSPRNG, with an alarm).
"""

from __future__ import annotations

from dataclasses import dataclass

from rng.config import RngConfig
from rng.errors import RngConfigError
from rng.generator import DrbgGenerator, GeneratorStatus
from rng.sample import Rng, Usage
from rng.sources import (
    DeviceOpener,
    DeviceSource,
    HealthCheckedSource,
    OsSource,
    RawSource,
    SimSource,
    require_play_allowed,
)
from rng.supply import EntropySupply, SupplyStatus
from rng.watchdog import Watchdog

OS_MIN_ENTROPY = "8"  # a CSPRNG's output is full entropy per byte


@dataclass(frozen=True, slots=True, kw_only=True)
class RngStatus:
    supply: SupplyStatus
    generator: GeneratorStatus
    usage: Usage


def raw_source(config: RngConfig, kind: str, *, opener: DeviceOpener | None = None) -> RawSource:
    """The unconditioned source named ``kind`` ("hw", "os" or "sim") for ``config``.

    ``hw`` opens ``config.url`` through ``opener`` (the device layer, injected).
    """
    if kind == "hw":
        if opener is None:
            raise RngConfigError(
                f"rng source 'hw' ({config.url}) needs a device opener and none was given"
            )
        return DeviceSource(config.url, opener=opener, timeout=config.read_timeout_ms / 1000)
    if kind == "sim":
        return SimSource(seed=config.sim_seed)
    return OsSource()


def checked(config: RngConfig, raw: RawSource) -> HealthCheckedSource:
    """``raw`` behind health tests with the claim that fits it."""
    claim = OS_MIN_ENTROPY if isinstance(raw, OsSource) else config.min_entropy
    return HealthCheckedSource(raw, config.health(claim))


def build_supply(config: RngConfig, *, opener: DeviceOpener | None = None) -> EntropySupply:
    """The primary source (and the OS fallback the policy asks for), each health-checked."""
    kind = config.source
    policy = config.policy
    if kind == "auto":
        kind = "hw" if config.url else "os"
        policy = "fallback" if kind == "hw" else policy
    primary = checked(config, raw_source(config, kind, opener=opener))
    fallback = checked(config, OsSource()) if policy == "fallback" and kind != "os" else None
    return EntropySupply(primary, policy=policy if fallback else "fail-closed", fallback=fallback)


@dataclass(slots=True)
class RngStack:
    """The assembled chain; ``rng`` is what games use."""

    config: RngConfig
    supply: EntropySupply
    generator: DrbgGenerator
    rng: Rng
    watchdog: Watchdog | None = None

    def status(self) -> RngStatus:
        return RngStatus(
            supply=self.supply.status(), generator=self.generator.status(), usage=self.rng.usage()
        )

    def restart(self) -> None:
        """Operator restart after a halt: new start-up tests, then a fresh instantiation."""
        self.supply.restart()
        self.generator.start()

    def close(self) -> None:
        if self.watchdog is not None:
            self.watchdog.stop()
        self.generator.close()


def open_rng(
    config: RngConfig,
    *,
    real_money: bool,
    opener: DeviceOpener | None = None,
    start: bool = True,
    watchdog: bool = True,
) -> RngStack:
    """Assemble and (by default) start the chain; see the module docstring.

    ``opener`` opens a ``hw`` source's device (``firmware_bridge.ENTROPY_OPENER``).

    With ``start`` and ``watchdog`` (the defaults) a :class:`~rng.watchdog.Watchdog`
    reads and tests the source at least every ``reseed_interval_seconds``.
    """
    supply = build_supply(config, opener=opener)
    for source in (supply.primary, supply.fallback):
        if source is not None:
            require_play_allowed(
                source.name, source.for_play, real_money=real_money, test_mode=config.test_mode
            )
    generator = DrbgGenerator(
        supply,
        mechanism=config.drbg,
        reseed_requests=config.reseed_interval_requests,
        reseed_seconds=config.reseed_interval_seconds,
        prediction_resistance=config.prediction_resistance,
    )
    stack = RngStack(config=config, supply=supply, generator=generator, rng=Rng(generator))
    if start:
        generator.start()
        if watchdog:
            stack.watchdog = Watchdog(generator, config.reseed_interval_seconds)
            stack.watchdog.start()
    return stack
