"""The figures a family publishes about its bets: exact house edges and simulated returns.

Every family's ``house_edge`` returns :class:`HouseEdge` per bet and its ``simulate``
a :class:`SimulationResult`; they live in ``games.core`` so a family needs nothing
above it (``games.catalog`` only lists the families).

>>> from fractions import Fraction
>>> HouseEdge(edge=Fraction(1, 37), exact=True, method="counting the wheel").edge
Fraction(1, 37)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseEdge:
    """The casino's edge per unit of the initial wager (positive favours the house)."""

    edge: Fraction
    exact: bool
    method: str  # "enumeration over the 6-deck shoe", "recursive basic strategy", ...
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class BetSimulation:
    """Simulated return of one bet: mean net per unit staked, with a confidence interval."""

    rounds: int
    mean: float  # statistics, not money: mean net result per unit of initial wager
    std_error: float
    ci_low: float  # 99.9% interval
    ci_high: float


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationResult:
    """A simulation run of one variant: its seed and each bet's simulated return."""

    variant: str
    rounds: int
    seed: int
    bets: Mapping[str, BetSimulation] = field(default_factory=dict)


__all__ = ["BetSimulation", "HouseEdge", "SimulationResult"]
