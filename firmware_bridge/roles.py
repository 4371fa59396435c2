"""The HAL registry: which device URL plays each table role, from a TOML file.

Precedence (python-can's ``load_config``): an explicit URL > the environment
variable ``CROUPIER_<ROLE>_URL`` > the config file > the packaged default
(``firmware_bridge/devices.toml``, simulated devices only). The file format::

    spec = 1
    [devices]
    entropy = "serial:///dev/ttyACM0?model=truerng"
    shoe = "sim://shoe?seed=1"

Every problem in the file (bad TOML, wrong ``spec``, unknown role, a value that
is not a device URL) is a ConfigError naming the file and the key; opening a role
checks that the device really plays it (a dice reader configured as the shoe is a
WrongDevice).

:func:`require_for_play` is the device layer's counterpart of rng's refusal of its
seeded simulator: a simulated URL (``registry.SIMULATOR``) for a role that deals on
a real-money table is a SimulatorRefused naming the role, unless test mode is set.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from firmware_bridge.errors import ConfigError, SimulatorRefused, WrongDevice
from firmware_bridge.hal import CardShoe, Device, DiceReader, EntropyDevice, WheelReader
from firmware_bridge.registry import SCHEMES, is_simulator, open_device
from firmware_bridge.url import parse_url, public_url

SPEC = 1
ROLES: dict[str, type] = {
    "entropy": EntropyDevice,
    "shoe": CardShoe,
    "dice": DiceReader,
    "wheel": WheelReader,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class RoleEntry:
    """One role's device URL and where that URL came from."""

    role: str
    url: str
    source: str  # "env CROUPIER_SHOE_URL", "/etc/croupier/devices.toml", "default", "argument"


def default_config_text() -> str:
    """The packaged default role table."""
    return resources.files("firmware_bridge").joinpath("devices.toml").read_text("utf-8")


def env_var(role: str) -> str:
    """``CROUPIER_<ROLE>_URL``."""
    return f"CROUPIER_{role.upper()}_URL"


def _parse(text: str, where: str) -> dict[str, str]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from None
    if data.get("spec") != SPEC:
        raise ConfigError(f"{where}: expected 'spec = {SPEC}', found {data.get('spec')!r}")
    extra = set(data) - {"spec", "devices"}
    if extra:
        raise ConfigError(f"{where}: unknown top-level key(s) {', '.join(sorted(extra))}")
    devices = data.get("devices", {})
    if not isinstance(devices, dict):
        raise ConfigError(f"{where}: [devices] must be a table of role = URL")
    table: dict[str, str] = {}
    for role, url in devices.items():
        if role not in ROLES:
            raise ConfigError(f"{where}: unknown role {role!r} (roles: {', '.join(ROLES)})")
        table[role] = _check_url(url, f"{where}: devices.{role}")
    return table


def _check_url(url: object, where: str) -> str:
    if not isinstance(url, str):
        raise ConfigError(f"{where}: expected a device URL string, got {url!r}")
    parsed = parse_url(url)
    if parsed.scheme not in SCHEMES:
        known = ", ".join(f"{s}://" for s in SCHEMES)
        raise ConfigError(f"{where}: unknown scheme in {url!r} (known: {known})")
    return url


def load_roles(
    config: Path | None = None, env: Mapping[str, str] | None = None
) -> dict[str, RoleEntry]:
    """Every configured role with its URL and source (environment beats the file)."""
    env = os.environ if env is None else env
    if config is None:
        table, source = _parse(default_config_text(), "default devices.toml"), "default"
    else:
        try:
            text = config.read_text("utf-8")
        except FileNotFoundError:
            raise ConfigError(f"device config {config} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"device config {config} cannot be read ({exc})") from None
        table, source = _parse(text, str(config)), str(config)
    entries = {role: RoleEntry(role=role, url=url, source=source) for role, url in table.items()}
    for role in ROLES:
        override = env.get(env_var(role))
        if override:
            url = _check_url(override, env_var(role))
            entries[role] = RoleEntry(role=role, url=url, source=f"env {env_var(role)}")
    return entries


def open_role(
    role: str,
    *,
    url: str | None = None,
    config: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> Device:
    """Open the device for ``role`` and check it really plays that role."""
    if role not in ROLES:
        raise ConfigError(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
    if url is None:
        entries = load_roles(config, env)
        if role not in entries:
            raise ConfigError(f"no device configured for role {role!r}")
        url = entries[role].url
    device = open_device(url)
    if not isinstance(device, ROLES[role]):
        device.close()
        raise WrongDevice(f"{url} is not a {role} device")
    return device


def require_for_play(role: str, url: str, *, real_money: bool, test_mode: bool) -> None:
    """Refuse a simulated device for ``role`` on a real-money table unless in test mode.

    A simulator's outcomes follow from its URL (a seed, a recording), so whoever
    reads the configuration could predict every card and roll: exactly as rng refuses
    its seeded source, the device layer refuses ``sim://``, ``pty://`` and
    ``replay://`` for money.

    >>> require_for_play("shoe", "sim://shoe?seed=7", real_money=False, test_mode=False)
    >>> require_for_play("shoe", "sim://shoe?seed=7", real_money=True, test_mode=False)
    Traceback (most recent call last):
    ...
    firmware_bridge.errors.SimulatorRefused: device role 'shoe': sim://shoe is a simulator \
and may not deal for money (set [rng] test_mode = true for a lab test)
    """
    if real_money and not test_mode and is_simulator(url):
        raise SimulatorRefused(
            f"device role {role!r}: {public_url(url)} is a simulator and may not deal for money "
            "(set [rng] test_mode = true for a lab test)"
        )
