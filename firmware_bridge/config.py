"""Typed backend configuration built from a device URL's query (one dataclass per backend).

Each backend declares a frozen, kw_only dataclass whose fields are the only query
keys it accepts; :func:`build_config` converts the strings to the field types and
rejects an unknown key, a bad value or an out-of-range choice with a ConfigError
naming the key. This replaces a ``**kwargs`` pass-through (python-can) with a checked
contract a technician can read in docs/devices.md.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from firmware_bridge.errors import ConfigError


class BackendConfig(Protocol):
    """What a backend config dataclass offers: the allowed values of enumerated keys."""

    CHOICES: ClassVar[dict[str, tuple[object, ...]]]


C = TypeVar("C", bound=BackendConfig)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _convert(where: str, key: str, raw: object, kind: object) -> object:
    if not isinstance(raw, str):
        return raw  # programmatic override, already typed; checked below by the dataclass use
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        if raw == "":
            return None
        kind = args[0]
    try:
        if kind is int:
            return int(raw, 0)
        if kind is float:
            value = float(raw)
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError("not finite")
            return value
        if kind is bool:
            if raw.lower() in _TRUE:
                return True
            if raw.lower() in _FALSE:
                return False
            raise ValueError("expected true/false")
    except ValueError as exc:
        raise ConfigError(f"{where}: bad value {raw!r} for {key!r} ({exc})") from None
    return raw


def build_config(
    cls: type[C], where: str, positional: Mapping[str, object], query: Mapping[str, object]
) -> C:
    """Build ``cls`` from URL parts; ``where`` names the URL in every error message."""
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    allowed = [n for n in names if n not in positional]
    values: dict[str, Any] = dict(positional)
    for key, raw in query.items():
        if key not in allowed:
            raise ConfigError(
                f"{where}: unknown query key {key!r} (allowed: {', '.join(allowed) or 'none'})"
            )
        values[key] = _convert(where, key, raw, hints[key])
    for key, choices in cls.CHOICES.items():
        if key in values and values[key] not in choices:
            raise ConfigError(
                f"{where}: {key}={values[key]!r} is not one of {', '.join(map(repr, choices))}"
            )
    try:
        config = cls(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return config


def positive(where: str, key: str, value: float) -> None:
    """Raise ConfigError unless ``value`` > 0 (used in ``__post_init__`` checks)."""
    if value <= 0:
        raise ConfigError(f"{where}: {key} must be positive, got {value!r}")
