"""Simulated devices as data: ``sim/devices/<kind>.toml``, versioned (pyvisa-sim's idea).

A spec file holds what makes a simulated peripheral *that* device: its identity
(model, firmware, serial prefix) and its fault timing. The loader checks ``spec = 1``,
the kind, every key and every type, and returns a frozen :class:`DeviceSpec`; a bad
file is a ConfigError naming the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from firmware_bridge.errors import ConfigError

SPEC = 1
_KEYS = {"spec", "kind", "model", "firmware", "serial_prefix", "slow_delay", "garbage_bytes"}
_OPTIONAL = {"confidence"}


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceSpec:
    """A simulated peripheral's identity and fault timing."""

    kind: str
    model: str  # may name config fields in braces: "SIM-DICE-{dice}"
    firmware: str
    serial_prefix: str
    slow_delay: float
    garbage_bytes: tuple[int, int]
    confidence: tuple[int, int] = (100, 100)


def _pair(where: str, key: str, value: Any, low: int, high: int) -> tuple[int, int]:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(type(v) is int for v in value)
        and low <= value[0] <= value[1] <= high
    )
    if not ok:
        raise ConfigError(f"{where}: {key} must be [min, max] integers within {low}..{high}")
    return value[0], value[1]


def parse_spec(text: str, where: str, kind: str) -> DeviceSpec:
    """Validate spec ``text`` for ``kind``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from None
    if data.get("spec") != SPEC:
        raise ConfigError(f"{where}: expected 'spec = {SPEC}', found {data.get('spec')!r}")
    unknown = set(data) - _KEYS - _OPTIONAL
    missing = _KEYS - set(data)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    if missing:
        raise ConfigError(f"{where}: missing key(s) {', '.join(sorted(missing))}")
    if data["kind"] != kind:
        raise ConfigError(f"{where}: kind is {data['kind']!r}, expected {kind!r}")
    for key in ("model", "firmware", "serial_prefix"):
        if not isinstance(data[key], str) or not data[key]:
            raise ConfigError(f"{where}: {key} must be a non-empty string")
    slow = data["slow_delay"]
    if type(slow) not in (int, float) or not 0 < slow <= 60:
        raise ConfigError(f"{where}: slow_delay must be a number of seconds in (0, 60]")
    return DeviceSpec(
        kind=kind,
        model=data["model"],
        firmware=data["firmware"],
        serial_prefix=data["serial_prefix"],
        slow_delay=float(slow),
        garbage_bytes=_pair(where, "garbage_bytes", data["garbage_bytes"], 1, 255),
        confidence=_pair(where, "confidence", data.get("confidence", [100, 100]), 0, 100),
    )


def load_spec(kind: str, path: Path | None = None) -> DeviceSpec:
    """The packaged spec of ``kind`` (or the file at ``path``)."""
    if path is not None:
        try:
            return parse_spec(path.read_text("utf-8"), str(path), kind)
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read device spec ({exc})") from None
    text = resources.files("firmware_bridge.sim").joinpath("devices", f"{kind}.toml")
    return parse_spec(text.read_text("utf-8"), f"sim/devices/{kind}.toml", kind)
