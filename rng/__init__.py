"""rng: health-tested entropy, SP 800-90A DRBGs, unbiased sampling, shuffles and rolls.

Chain: a raw source (hardware TRNG through firmware_bridge, the OS CSPRNG, or the
seeded simulator) -> SP 800-90B health tests -> entropy supply with the
fail-closed / fallback policy -> SP 800-90A DRBG -> :class:`Rng` (randbelow by
rejection, Fisher-Yates shuffle, shoe, roll, choice, sample). See docs/rng.md.
"""

from rng.config import RngConfig
from rng.ctr_drbg import CtrDrbg
from rng.errors import (
    DrbgError,
    DrbgInputError,
    DrbgUninstantiated,
    EntropyError,
    EntropyHealthError,
    KatFileError,
    ReseedRequired,
    RngConfigError,
    RngError,
    RngHalted,
    SourceUnavailable,
    TestModeRequired,
)
from rng.factory import RngStack, RngStatus, open_rng
from rng.generator import DrbgGenerator
from rng.health import HealthConfig, HealthStatus, HealthTests, apt_cutoff, rct_cutoff
from rng.hmac_drbg import HmacDrbg
from rng.sample import Rng, SeededBytes, Usage
from rng.sources import (
    DeviceOpener,
    DeviceSource,
    HealthCheckedSource,
    OsSource,
    SimSource,
    SourceStatus,
)
from rng.supply import Alarm, EntropySupply, SupplyStatus

__all__ = [
    "Alarm",
    "CtrDrbg",
    "DeviceOpener",
    "DeviceSource",
    "DrbgError",
    "DrbgGenerator",
    "DrbgInputError",
    "DrbgUninstantiated",
    "EntropyError",
    "EntropyHealthError",
    "EntropySupply",
    "HealthCheckedSource",
    "HealthConfig",
    "HealthStatus",
    "HealthTests",
    "HmacDrbg",
    "KatFileError",
    "OsSource",
    "ReseedRequired",
    "Rng",
    "RngConfig",
    "RngConfigError",
    "RngError",
    "RngHalted",
    "RngStack",
    "RngStatus",
    "SeededBytes",
    "SimSource",
    "SourceStatus",
    "SourceUnavailable",
    "SupplyStatus",
    "TestModeRequired",
    "Usage",
    "apt_cutoff",
    "open_rng",
    "rct_cutoff",
]
