"""A sic bo table's typed rules: what each bet pays, as ``paytables/macau.toml`` sets it.

:mod:`games.sicbo.paytable` reads and validates the TOML into a :class:`SicBoRules`;
:func:`games.sicbo.bets.payout` (the rules as one function) reads only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.core.money import Ratio

FLAT_KEYS = ("small", "big", "odd", "even", "any-triple", "triple", "double", "combo")
TOTALS = tuple(range(4, 18))


@dataclass(frozen=True, slots=True, kw_only=True)
class SicBoRules:
    """The pays of one sic bo table."""

    flat: Mapping[str, Ratio]  # by FLAT_KEYS
    single: Mapping[int, Ratio]  # by the count of dice showing the number (1-3)
    totals: Mapping[int, Ratio]  # by the total (4-17)
