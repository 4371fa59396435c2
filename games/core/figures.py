"""The figures a family publishes about its bets: exact house edges and simulated returns.

Every family's ``house_edge`` returns :class:`HouseEdge` per bet and its ``simulate``
a :class:`SimulationResult`; they live in ``games.core`` so a family needs nothing
above it (``games.catalog`` only lists the families).

A figure is exact (a count, ``exact=True``), simulated (the estimate of a
:class:`SimulationRun`: its rounds, seed, 99.9% interval and the command that made
it, shipped with the family when the run is long), or an approximate analysis
(``analysis=True``, checked against a run). ``strategy`` names the player strategy
a figure assumes, for bets with decisions: ``croupier games house-edge`` prints
all of it.

>>> from fractions import Fraction
>>> HouseEdge(edge=Fraction(1, 37), exact=True, method="counting the wheel").edge
Fraction(1, 37)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction


def _decimal(x: float) -> Fraction:
    return Fraction(f"{x:.12g}")


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationRun:
    """The simulation behind a figure: the house edge it estimates, with its 99.9% interval.

    ``built_by`` is the command that reproduces the run (empty when the run is made
    on the fly).

    >>> run = SimulationRun(rounds=10**7, seed=1, edge=Fraction(1, 100),
    ...                     low=Fraction(9, 1000), high=Fraction(11, 1000))
    >>> run.contains(Fraction(1, 95)), run.contains(Fraction(1, 80))
    (True, False)
    """

    rounds: int
    seed: int
    edge: Fraction  # the run's estimate of the house edge
    low: Fraction  # 99.9% interval of the house edge
    high: Fraction
    built_by: str = ""

    def contains(self, edge: Fraction) -> bool:
        """Whether ``edge`` lies in the run's 99.9% interval."""
        return self.low <= edge <= self.high

    @classmethod
    def of(cls, sim: BetSimulation, seed: int, built_by: str = "") -> SimulationRun:
        """The run of a :class:`BetSimulation` (a return) as house-edge figures (the
        floats to 12 significant digits, as decimal fractions)."""
        return cls(
            rounds=sim.rounds,
            seed=seed,
            edge=-_decimal(sim.mean),
            low=-_decimal(sim.ci_high),
            high=-_decimal(sim.ci_low),
            built_by=built_by,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseEdge:
    """The casino's edge per unit of the initial wager (positive favours the house).

    ``exact=False`` figures are simulated (``simulation`` is the run they come from)
    unless ``analysis`` is set: an approximate computation, ``simulation`` then the
    run that checks it. ``strategy`` is the player strategy assumed ("" when the bet
    has no decision to make).
    """

    edge: Fraction
    exact: bool
    method: str  # "enumeration over the 6-deck shoe", "recursive basic strategy", ...
    note: str = ""
    strategy: str = ""
    simulation: SimulationRun | None = None
    analysis: bool = False

    @property
    def kind(self) -> str:
        """``"exact"``, ``"simulated"`` or ``"analysis"``: what the figure is."""
        if self.exact:
            return "exact"
        return "analysis" if self.analysis else "simulated"


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


__all__ = ["BetSimulation", "HouseEdge", "SimulationResult", "SimulationRun"]
