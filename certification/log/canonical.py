"""Canonical JSON: the one byte form a log record is hashed and signed in.

Sorted keys, no insignificant white space, UTF-8, integers only (a float is
refused: a float's text form is not canonical across platforms, and no money
or outcome in the log is ever a float).

>>> canonical({"b": 1, "a": [True, None, "é"]})
b'{"a":[true,null,"\\xc3\\xa9"],"b":1}'
>>> canonical({"x": 0.5})
Traceback (most recent call last):
...
TypeError: float at $.x: the log holds integers only
"""

from __future__ import annotations

import json
from typing import Any

_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def _check(value: Any, path: str) -> None:
    if isinstance(value, float):
        raise TypeError(f"float at {path}: the log holds integers only")
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"non-string key at {path}")
            _check(v, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _check(v, f"{path}[{i}]")


def canonical(value: Any) -> bytes:
    """Encode ``value`` as canonical JSON bytes; raise TypeError on floats or odd keys."""
    _check(value, "$")
    return _ENCODER.encode(value).encode("utf-8")
