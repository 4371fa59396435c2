"""The Pinnacle Hold'em call table: exact call EVs by rank pattern, adjusted by suit pattern.

:func:`games.holdem.strategy.casino_call` calls outright with a hidden pair, a
four-flush or a made straight or better; for every other flop situation it
looks the decision up here. Such a situation has two hole cards of different
ranks, neither rank on the flop, so it has a *rank pattern* (hole high, hole
low, the three flop ranks sorted: 22,308 of them) and a *suit pattern*, one of:

===========  =====================================================================
``RAINBOW``  no three cards of a suit among the five, and no two on the flop
             that the hole cards do not share (the pattern the table is built on)
``TWO_TONE`` two flop cards of a suit neither hole card has (dealer flush chances)
``MONOTONE`` three flop cards of a suit neither hole card has
``SUITED3``  suited hole cards and one flop card of their suit (backdoor flush)
``HIGH3``    the high hole card and two flop cards of its suit (backdoor flush)
``LOW3``     the low hole card and two flop cards of its suit (backdoor flush)
===========  =====================================================================

``data/casino_call.json`` holds, for each rank pattern (in :func:`table_keys`
order), the exact total net of calling over all 1,070,190 completions
(:func:`games.holdem.exact.call_total`, in antes) of one rainbow representative
(:func:`representative`), and per suit pattern an integer correction: the median,
over the situations of that pattern among 6,000 random flops (seed 1), of the
exact total minus the table's. Within a suit pattern the exact EVs spread little
about the corrected table (standard deviation in antes: rainbow 0.002, two-tone
0.016, three to a flush 0.03-0.05, monotone 0.08), which is why one number per
pattern is enough: only situations that close to the fold line can go wrong. Both are rebuilt by
``python bench/bench_holdem_best.py --build-table``. The file names the rules it
was computed for (:func:`fingerprint`).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from games.holdem.rules import HoldemRules

I64 = npt.NDArray[np.int64]
#: completions of one flop situation (C(47, 2) turn/river pairs x C(45, 2) dealer pairs)
COMPLETIONS = 1081 * 990
_BASE = 15


class SuitPattern(IntEnum):
    """How the suits of a table situation can help the player or the dealer (module docstring)."""

    RAINBOW = 0
    TWO_TONE = 1
    MONOTONE = 2
    SUITED3 = 3
    HIGH3 = 4
    LOW3 = 5


@functools.cache
def table_keys() -> I64:
    """Every rank pattern ``(high, low, f0, f1, f2)``: hole ranks differ, flop sorted."""
    rows = []
    for high in range(3, 15):
        for low in range(2, high):
            rest = [r for r in range(2, 15) if r not in (high, low)]
            for i, f0 in enumerate(rest):
                for j in range(i, len(rest)):
                    for k in range(j, len(rest)):
                        rows.append((high, low, f0, rest[j], rest[k]))
    out: I64 = np.array(rows, dtype=np.int64)
    return out


def _code(keys: I64) -> I64:
    out: I64 = (((keys[:, 0] * _BASE + keys[:, 1]) * _BASE + keys[:, 2]) * _BASE + keys[:, 3]) * (
        _BASE
    ) + keys[:, 4]
    return out


def representative(key: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Card indices of the rainbow situation built for a rank pattern.

    High hole card in suit 0, low in suit 1; flop low to high in suits 0, 3, 2:
    the five cards hold no three of a suit and the flop no two.
    """
    high, low, f0, f1, f2 = key

    def card(rank: int, suit: int) -> int:
        return (rank - 2) * 4 + suit

    return [card(high, 0), card(low, 1)], [card(f0, 0), card(f1, 3), card(f2, 2)]


def split(hole: I64, flop: I64) -> tuple[I64, I64]:
    """Per row: the rank-pattern code and the :class:`SuitPattern` (hole ranks must differ)."""
    order = np.argsort(-(hole // 4), axis=1, kind="stable")
    hs = np.take_along_axis(hole, order, axis=1)
    keys = np.concatenate([hs // 4 + 2, np.sort(flop // 4 + 2, axis=1)], axis=1)
    s_hi, s_lo, fs = hs[:, 0] % 4, hs[:, 1] % 4, flop % 4
    n_hi = (fs == s_hi[:, None]).sum(axis=1)
    n_lo = (fs == s_lo[:, None]).sum(axis=1)
    suited = s_hi == s_lo
    two = (fs[:, 0] == fs[:, 1]) | (fs[:, 1] == fs[:, 2]) | (fs[:, 0] == fs[:, 2])
    three = (fs[:, 0] == fs[:, 1]) & (fs[:, 1] == fs[:, 2])
    pattern = np.full(len(hole), SuitPattern.RAINBOW, dtype=np.int64)
    pattern[two] = SuitPattern.TWO_TONE
    pattern[three] = SuitPattern.MONOTONE
    pattern[~suited & (n_lo == 2)] = SuitPattern.LOW3
    pattern[~suited & (n_hi == 2)] = SuitPattern.HIGH3
    pattern[suited & (n_hi == 1)] = SuitPattern.SUITED3
    return _code(keys), pattern


def fingerprint(rules: HoldemRules) -> dict[str, Any]:
    """What the call EVs depend on, as plain data (the table is valid only for these)."""
    return {
        "ante_pays": {c.name.lower(): str(r) for c, r in sorted(rules.ante_pays.items())},
        "call_multiple": rules.call_multiple,
        "qualifier": rules.qualifier,
    }


@dataclass(frozen=True, slots=True)
class CallTable:
    """The loaded table: totals by rank-pattern code, corrections by suit pattern."""

    rules: dict[str, Any]
    totals: I64  # indexed by rank-pattern code; unused codes hold a sentinel
    corrections: I64  # indexed by SuitPattern

    def estimate(self, hole: I64, flop: I64) -> I64:
        """Estimated total net of calling over all completions, per row (same units as the file)."""
        code, pattern = split(hole, flop)
        out: I64 = self.totals[code] + self.corrections[pattern]
        return out


MISSING = np.iinfo(np.int64).min // 4


def from_data(data: dict[str, Any], where: str) -> CallTable:
    """Check and lay out the file's contents (``spec = 1``)."""
    if data.get("spec") != 1:
        raise ValueError(f"{where}: spec must be 1")
    totals = np.asarray(data["totals"], dtype=np.int64)
    keys = table_keys()
    if totals.shape != (len(keys),):
        raise ValueError(f"{where}: need {len(keys)} totals, got {totals.shape}")
    corr = data["corrections"]
    if set(corr) != {p.name for p in SuitPattern}:
        raise ValueError(f"{where}: corrections must name every suit pattern")
    dense = np.full(_BASE**5, MISSING, dtype=np.int64)
    dense[_code(keys)] = totals
    corrections = np.array([int(corr[p.name]) for p in SuitPattern], dtype=np.int64)
    return CallTable(rules=data["rules"], totals=dense, corrections=corrections)


@functools.cache
def packaged_table() -> CallTable:
    """``games/holdem/data/casino_call.json``, loaded once."""
    text = resources.files("games.holdem.data").joinpath("casino_call.json").read_text("utf-8")
    return from_data(json.loads(text), "games/holdem/data/casino_call.json")
