"""The ``[rng]`` configuration table: which source, what to do when it fails, how often to reseed.

Loaded from a TOML table (the appliance config's ``[rng]`` section) into a frozen
dataclass; an unknown key, a wrong type or a value out of range is a one-line
RngConfigError naming the key. Example::

    [rng]
    source = "hw"                       # hw | os | sim | auto
    url = "serial:///dev/ttyACM0?model=acme-trng"
    policy = "fail-closed"              # fail-closed | fallback
    drbg = "CTR_DRBG"                   # CTR_DRBG (AES-256, df) | HMAC_DRBG (SHA-256)
    reseed_interval_requests = 1024     # generate requests (<= 64 KiB each) between reseeds
    reseed_interval_seconds = 60
    min_entropy = "7"                   # claimed min-entropy per 8-bit sample (SP 800-90B)
    alpha_log2 = 30                     # health-test false-positive rate 2**-30
    prediction_resistance = false
    test_mode = false                   # true only on a test table: allows the simulator
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rng.drbg import MAX_RESEED_INTERVAL
from rng.errors import RngConfigError
from rng.health import HealthConfig

SOURCES = ("hw", "os", "sim", "auto")
POLICIES = ("fail-closed", "fallback")
DRBGS = ("CTR_DRBG", "HMAC_DRBG")


@dataclass(frozen=True, slots=True, kw_only=True)
class RngConfig:
    """Everything the rng package needs to build a generator (see the module docstring)."""

    source: str = "auto"
    url: str = ""
    policy: str = "fail-closed"
    drbg: str = "CTR_DRBG"
    reseed_interval_requests: int = 1024
    reseed_interval_seconds: int = 60
    min_entropy: str = "7"
    alpha_log2: int = 30
    startup_samples: int = 1024
    prediction_resistance: bool = False
    test_mode: bool = False
    sim_seed: int = 0
    read_timeout_ms: int = 2000

    def __post_init__(self) -> None:
        for key, allowed in (("source", SOURCES), ("policy", POLICIES), ("drbg", DRBGS)):
            value = getattr(self, key)
            if value not in allowed:
                raise RngConfigError(f"rng.{key} = {value!r}: expected one of {', '.join(allowed)}")
        if self.source == "hw" and not self.url:
            raise RngConfigError("rng.source = 'hw' needs rng.url (e.g. 'serial:///dev/ttyACM0')")
        if not 1 <= self.reseed_interval_requests <= MAX_RESEED_INTERVAL:
            raise RngConfigError("rng.reseed_interval_requests must be in 1..2**48")
        if self.reseed_interval_seconds < 1:
            raise RngConfigError("rng.reseed_interval_seconds must be >= 1")
        if self.read_timeout_ms < 1:
            raise RngConfigError("rng.read_timeout_ms must be >= 1")
        self.health()  # validates min_entropy, alpha_log2, startup_samples

    def health(self, min_entropy: str | None = None) -> HealthConfig:
        """The health-test configuration for a source claiming ``min_entropy`` (default: ours)."""
        return HealthConfig(
            min_entropy=min_entropy or self.min_entropy,
            alpha_log2=self.alpha_log2,
            startup_samples=self.startup_samples,
        )

    @classmethod
    def from_mapping(cls, table: Mapping[str, object], where: str = "[rng]") -> RngConfig:
        """Build from a parsed TOML table; strict about keys and types."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, object] = {}
        for key, value in table.items():
            if key not in fields:
                raise RngConfigError(
                    f"{where}: unknown key {key!r} (allowed: {', '.join(sorted(fields))})"
                )
            default = fields[key].default
            expected = type(default)
            if (
                key == "min_entropy"
                and isinstance(value, int | float)
                and not isinstance(value, bool)
            ):
                value = str(value)  # TOML numbers accepted; kept exact as a decimal string
            if type(value) is not expected:
                raise RngConfigError(
                    f"{where}: {key} must be {expected.__name__}, got {type(value).__name__}"
                )
            values[key] = value
        try:
            return cls(**values)  # type: ignore[arg-type]
        except RngConfigError as exc:
            raise RngConfigError(f"{where}: {exc}") from None

    @classmethod
    def from_toml(cls, path: Path, table: str = "rng") -> RngConfig:
        """Load the ``[table]`` of a TOML file (an absent table gives the defaults)."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RngConfigError(f"{path}: cannot read: {exc.strerror}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise RngConfigError(f"{path}: not valid TOML: {exc}") from None
        section = data.get(table, {})
        if not isinstance(section, dict):
            raise RngConfigError(f"{path}: [{table}] must be a table")
        return cls.from_mapping(section, f"{path} [{table}]")
