"""Parse NIST ``ea_non_iid -vv`` transcripts into comparable records."""

from __future__ import annotations

import re
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "sp800-90b"

_LINE = re.compile(r"^(Literal|Bitstring) (.+?) Estimate: (.*)$")


def parse(text: str) -> dict[tuple[str, ...], str]:
    """Map ``(track, estimator, quantity)`` (or a final key) to the printed value."""
    out: dict[tuple[str, ...], str] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            track, est, rest = m.groups()
            if " = " in rest:
                key, val = rest.split(" = ", 1)
            else:
                key, val = "status", rest
            out[(track, est, key.strip())] = val.strip()
            continue
        for prefix in ("H_bitstring = ", "H_original: ", "Assessed min entropy: "):
            if line.startswith(prefix):
                out[(prefix.rstrip(" :="),)] = line[len(prefix) :].strip()
        if line.startswith("Loaded "):
            out[("loaded",)] = line
        if line.startswith("Number of Binary Symbols"):
            out[("binary symbols",)] = line
    return out


def same_value(expected: str, actual: str, rel: float = 1e-12) -> bool:
    """Integers and words must be equal; reals equal to ``rel`` (last-ULP libm noise)."""
    if re.fullmatch(r"-?\d+", expected):
        return expected == actual
    try:
        e = float(expected)
        a = float(actual)
    except ValueError:
        return expected == actual
    return abs(e - a) <= rel * max(abs(e), 1e-300)
