"""Canonical JSON: the one byte form a log record is hashed and signed in.

Sorted keys, no insignificant white space, UTF-8 (no \\u escapes but for control
characters), integers only within 64 bits (a float is refused: a float's text form
is not canonical across platforms, and no money or outcome in the log is a float).

>>> canonical({"b": 1, "a": [True, None, "é"]})
b'{"a":[true,null,"\\xc3\\xa9"],"b":1}'
>>> canonical({"x": 0.5})
Traceback (most recent call last):
...
TypeError: float at $.x: the log holds integers only
"""

from __future__ import annotations

from typing import Any

import orjson

_SCALARS = (str, int, bool, type(None))


def _check(value: Any, path: str) -> None:
    """Refuse floats and non-string keys anywhere in ``value`` (flat values on the fast path)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if type(k) is not str:
                raise TypeError(f"non-string key at {path}")
            if type(v) in _SCALARS:
                continue
            _check(v, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            if type(v) in _SCALARS:
                continue
            _check(v, f"{path}[{i}]")
    elif isinstance(value, float):
        raise TypeError(f"float at {path}: the log holds integers only")
    elif not isinstance(value, _SCALARS):
        raise TypeError(f"{type(value).__name__} at {path}: not a JSON value")


def canonical(value: Any) -> bytes:
    """Encode ``value`` as canonical JSON bytes; raise TypeError on floats or odd keys."""
    _check(value, "$")
    # orjson's compact, key-sorted UTF-8 output is byte for byte the canonical form
    # (``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)``), about
    # ten times faster; tests/certification/log/test_canonical.py pins the equivalence.
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError as exc:  # e.g. an integer beyond 64 bits
        raise TypeError(f"not loggable: {exc}") from None
