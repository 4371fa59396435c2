"""Device URLs: ``scheme://target?key=value&...`` split into typed parts.

Why a module of its own: every backend, the CLI and the TOML role table parse the
same strings, and a bad URL must fail the same clear way wherever it came from.

>>> u = parse_url("sim://trng?seed=7&fault=stuck")
>>> (u.scheme, u.target, u.query["seed"])
('sim', 'trng', '7')
>>> parse_url("serial:///dev/ttyACM0?baud=9600").target
'/dev/ttyACM0'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from firmware_bridge.errors import ConfigError


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceUrl:
    """A parsed device URL; ``query`` keeps the raw strings for the backend's config."""

    text: str
    scheme: str
    target: str
    query: dict[str, str]


def parse_url(text: str) -> DeviceUrl:
    """Split ``text``; raise ConfigError for a missing scheme or a repeated query key."""
    if "://" not in text:
        raise ConfigError(f"device URL {text!r} has no scheme (expected e.g. 'sim://trng')")
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    target = parts.netloc + parts.path
    query: dict[str, str] = {}
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError as exc:
        raise ConfigError(f"device URL {text!r}: malformed query ({exc})") from None
    for key, value in pairs:
        if key in query:
            raise ConfigError(f"device URL {text!r}: query key {key!r} given twice")
        query[key] = value
    if parts.fragment:
        raise ConfigError(f"device URL {text!r}: fragments ('#...') are not allowed")
    return DeviceUrl(text=text, scheme=scheme, target=target, query=query)


def public_url(text: str) -> str:
    """``scheme://target`` without the query: what may be shown to anyone.

    A query can hold a simulator's seed or other outcome-predicting settings, so
    unauthenticated pages show only the scheme and the target.

    >>> public_url("sim://shoe?seed=7&decks=8")
    'sim://shoe'
    >>> public_url("serial:///dev/ttyACM0?model=truerng")
    'serial:///dev/ttyACM0'
    """
    if "://" not in text:
        return text
    return text.split("?", 1)[0].split("#", 1)[0]


_URL_QUERY = re.compile(
    r"([A-Za-z][A-Za-z0-9+.-]*://[^\s?#'\"<>]*)[?#][^\s'\"<>]*?(?=[:,;.)]?(?:[\s'\"<>]|$))"
)


def public_text(text: str) -> str:
    """``text`` with the query of every URL in it removed (error messages, reasons).

    >>> public_text("device shoe unavailable: sim://shoe?seed=7: closed")
    'device shoe unavailable: sim://shoe: closed'
    """
    return _URL_QUERY.sub(r"\1", text)
