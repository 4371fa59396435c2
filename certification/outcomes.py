"""Game-outcome tests (what GLI-11 labs run) on the appliance's own draws, and RTP checks.

Distribution tests draw through the ``rng`` package's :class:`rng.Rng` facade, exactly as
the tables do (``shoe``, ``roll``, ``randbelow``), and compare the counts with their exact
expectations by chi-square (or a normal test for serial correlation):

* ``shuffle-position``: each of 52 cards in each of 52 positions over N single-deck shuffles
  (52 x 52 table, (52 - 1)^2 degrees of freedom: rows and columns are fixed by design);
* ``card-frequency``: the cards of the first five-card hand of each shuffle, 52 cells;
* ``pair-correlation``: the ranks of the first cards of two adjacent hands (a round-robin
  deal), 13 x 13 cells against the exact without-replacement joint law;
* ``dice-faces``, ``dice-sums`` (two dice, 2..12), ``dice-serial`` (lag-1 correlation of
  consecutive totals), ``sicbo-sums`` (three dice, 3..18);
* ``roulette-single`` and ``roulette-double`` (37 and 38 pockets) and their serial correlation;
* ``video-poker-deals``, ``fruit-deals``, ``mystery-reel``: the video poker machines' deals
  and reel (:mod:`certification.video_poker_deals`).

The return-to-player check runs every game family that ``games.catalog.families()`` lists:
each bet's simulated mean return (``simulate``) must lie within z standard errors of the
exact return 1 - edge (``house_edge``), z from the chosen confidence (99.9% by default).
A check passes at significance ``alpha`` (0.001 by default, per check).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from scipy import stats as sstats

from certification.errors import ParameterError, SourceError

ALPHA = 0.001


class Draws(Protocol):
    """The part of :class:`rng.Rng` the outcome tests use."""

    def randbelow(self, n: int) -> int: ...

    def shoe(self, decks: int, jokers: int = 0) -> list[int]: ...

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    """One distribution test: statistic, degrees of freedom and p-value."""

    name: str
    description: str
    samples: int
    statistic: float
    dof: int
    p_value: float
    alpha: float = ALPHA

    @property
    def passed(self) -> bool:
        return self.p_value >= self.alpha

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "description": self.description,
            "samples": self.samples,
            "statistic": self.statistic,
            "dof": self.dof,
            "p_value": self.p_value,
            "passed": self.passed,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RtpCheck:
    """One bet's simulated return against its exact return."""

    variant: str
    bet: str
    rounds: int
    edge: Fraction
    exact: bool
    simulated_mean: float  # mean net result per unit staked
    std_error: float
    z: float

    @property
    def expected_rtp(self) -> float:
        return float(1 - self.edge)

    @property
    def simulated_rtp(self) -> float:
        return 1.0 + self.simulated_mean

    @property
    def deviation(self) -> float:
        """(simulated - exact) return in standard errors."""
        if self.std_error == 0:
            return 0.0 if self.simulated_mean == float(-self.edge) else math.inf
        return (self.simulated_mean - float(-self.edge)) / self.std_error

    @property
    def passed(self) -> bool:
        return abs(self.deviation) <= self.z

    def as_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "bet": self.bet,
            "rounds": self.rounds,
            "house_edge": float(self.edge),
            "exact": self.exact,
            "expected_rtp": self.expected_rtp,
            "simulated_rtp": self.simulated_rtp,
            "std_error": self.std_error,
            "deviation_se": self.deviation,
            "passed": self.passed,
        }


@dataclass(slots=True, kw_only=True)
class GameReport:
    checks: list[Check] = field(default_factory=list)
    rtp: list[RtpCheck] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks) and all(r.passed for r in self.rtp)

    def as_dict(self) -> dict[str, object]:
        return {
            "passed": self.passed,
            "distribution_tests": [c.as_dict() for c in self.checks],
            "rtp": [r.as_dict() for r in self.rtp],
            "skipped": list(self.skipped),
        }

    def text(self) -> str:
        lines = ["GAME-OUTCOME TESTS", "-" * 78]
        lines.append(f"{'test':20s} {'samples':>9s} {'statistic':>12s} {'dof':>6s} {'P-value':>9s}")
        for c in self.checks:
            mark = "" if c.passed else "  * FAIL"
            lines.append(
                f"{c.name:20s} {c.samples:9d} {c.statistic:12.3f} {c.dof:6d} {c.p_value:9.6f}{mark}"
            )
        if self.rtp:
            lines += ["", "RETURN TO PLAYER (simulated vs exact)", "-" * 78]
            lines.append(
                f"{'variant':28s} {'bet':16s} {'exact RTP':>10s} {'simulated':>10s} "
                f"{'dev (SE)':>9s}"
            )
            for r in self.rtp:
                mark = "" if r.passed else "  * FAIL"
                lines.append(
                    f"{r.variant[:28]:28s} {r.bet[:16]:16s} {r.expected_rtp:10.5%} "
                    f"{r.simulated_rtp:10.5%} {r.deviation:9.2f}{mark}"
                )
        for s in self.skipped:
            lines.append(f"skipped: {s}")
        lines += ["-" * 78, "PASSED" if self.passed else "FAILED", ""]
        return "\n".join(lines)


def _chi2(name: str, desc: str, observed: NDArray[Any], expected: NDArray[Any], dof: int) -> Check:
    obs = np.asarray(observed, dtype=np.float64).ravel()
    exp = np.asarray(expected, dtype=np.float64).ravel()
    stat = float((((obs - exp) ** 2) / exp).sum())
    return Check(
        name=name,
        description=desc,
        samples=int(np.rint(obs.sum())),
        statistic=stat,
        dof=dof,
        p_value=float(sstats.chi2.sf(stat, dof)),
    )


def _serial(name: str, desc: str, values: NDArray[Any]) -> Check:
    """Lag-1 correlation r; under independence sqrt(n) r is about N(0, 1)."""
    x = np.asarray(values, dtype=np.float64)
    a, b = x[:-1] - x[:-1].mean(), x[1:] - x[1:].mean()
    denom = math.sqrt(float((a * a).sum()) * float((b * b).sum()))
    r = float((a * b).sum()) / denom if denom else 0.0
    z = r * math.sqrt(a.size)
    return Check(
        name=name,
        description=desc,
        samples=int(x.size),
        statistic=r,
        dof=1,
        p_value=float(math.erfc(abs(z) / math.sqrt(2.0))),
    )


# -- cards ---------------------------------------------------------------------------------


def shuffles(rng: Draws, count: int) -> NDArray[np.int64]:
    """``count`` single-deck shuffles as a (count, 52) array of card indices."""
    return np.asarray([rng.shoe(1) for _ in range(count)], dtype=np.int64)


def card_checks(decks: NDArray[np.int64]) -> list[Check]:
    n = decks.shape[0]
    positions = np.broadcast_to(np.arange(52), decks.shape)
    table = np.bincount((decks * 52 + positions).ravel(), minlength=52 * 52)
    out = [
        _chi2(
            "shuffle-position",
            "each card in each position over single-deck shuffles",
            table,
            np.full(52 * 52, n / 52),
            51 * 51,
        )
    ]
    hand = decks[:, :5].ravel()
    out.append(
        _chi2(
            "card-frequency",
            "cards of the first five-card hand of each shuffle",
            np.bincount(hand, minlength=52),
            np.full(52, hand.size / 52),
            51,
        )
    )
    ranks_a, ranks_b = decks[:, 0] // 4, decks[:, 1] // 4
    pairs = np.bincount(ranks_a * 13 + ranks_b, minlength=169)
    joint = np.full((13, 13), 4 / 52 * 4 / 51)
    np.fill_diagonal(joint, 4 / 52 * 3 / 51)
    out.append(
        _chi2(
            "pair-correlation",
            "ranks of the first cards of two adjacent hands (exact joint law)",
            pairs,
            joint.ravel() * n,
            168,
        )
    )
    return out


# -- dice and wheels -----------------------------------------------------------------------


def dice_checks(rng: Draws, rolls: int) -> list[Check]:
    pairs = np.asarray([rng.roll(2) for _ in range(rolls)], dtype=np.int64)
    faces = np.bincount(pairs.ravel() - 1, minlength=6)
    totals = pairs.sum(axis=1)
    sums = np.bincount(totals - 2, minlength=11)
    ways = np.asarray([6 - abs(s - 7) for s in range(2, 13)], dtype=np.float64)
    triples = np.asarray([rng.roll(3) for _ in range(rolls)], dtype=np.int64).sum(axis=1)
    ways3 = np.zeros(16)
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                ways3[a + b + c - 3] += 1
    return [
        _chi2("dice-faces", "faces of two dice", faces, np.full(6, faces.sum() / 6), 5),
        _chi2("dice-sums", "totals of two dice (2..12)", sums, ways / 36 * rolls, 10),
        _serial("dice-serial", "lag-1 correlation of consecutive two-dice totals", totals),
        _chi2(
            "sicbo-sums",
            "totals of three dice (3..18)",
            np.bincount(triples - 3, minlength=16),
            ways3 / 216 * rolls,
            15,
        ),
    ]


def roulette_checks(rng: Draws, spins: int) -> list[Check]:
    out: list[Check] = []
    for pockets, label in ((37, "single"), (38, "double")):
        numbers = np.asarray([rng.randbelow(pockets) for _ in range(spins)], dtype=np.int64)
        out.append(
            _chi2(
                f"roulette-{label}",
                f"numbers of a {pockets}-pocket wheel",
                np.bincount(numbers, minlength=pockets),
                np.full(pockets, spins / pockets),
                pockets - 1,
            )
        )
        out.append(
            _serial(
                f"roulette-{label}-serial",
                f"lag-1 correlation of consecutive {pockets}-pocket numbers",
                numbers,
            )
        )
    return out


# -- return to player ------------------------------------------------------------------------


def z_for(confidence: float) -> float:
    if not 0.5 < confidence < 1.0:
        raise ParameterError(f"confidence must be between 0.5 and 1, got {confidence}")
    return float(sstats.norm.ppf(0.5 + confidence / 2.0))


def rtp_variants(game: str | None) -> list[tuple[Any, Any]]:
    """(family module, variant) pairs to check: of ``game`` (family or variant id) or all."""
    from games.catalog import families

    present = families()
    chosen = [
        (fam, variant)
        for name, fam in present.items()
        for variant in fam.VARIANTS
        if game is None or game in (name, variant.id)
    ]
    if game is not None and not chosen:
        known = ", ".join(sorted(present)) or "none built yet"
        raise ParameterError(f"no game {game!r}; families present: {known}")
    return chosen


def rtp_checks(
    game: str | None,
    rounds: int,
    seed: int,
    confidence: float = 0.999,
    on_variant: Callable[[str], None] | None = None,
) -> tuple[list[RtpCheck], list[str]]:
    """Each bet of each variant (of ``game``, or every family present) against its edge."""
    z = z_for(confidence)
    checks: list[RtpCheck] = []
    skipped: list[str] = []
    for fam, variant in rtp_variants(game):
        edges = fam.house_edge(variant)
        result = fam.simulate(variant, rounds, seed)
        for bet, sim in result.bets.items():
            edge = edges.get(bet)
            if edge is None:
                skipped.append(f"{variant.id}/{bet}: no exact house edge to compare with")
                continue
            checks.append(
                RtpCheck(
                    variant=variant.id,
                    bet=bet,
                    rounds=sim.rounds,
                    edge=edge.edge,
                    exact=edge.exact,
                    simulated_mean=sim.mean,
                    std_error=sim.std_error,
                    z=z,
                )
            )
        if on_variant is not None:
            on_variant(variant.id)
    return checks, skipped


def rtp_convergence(
    game: str, rounds: int, seed: int, points: int = 5
) -> list[tuple[int, dict[str, tuple[float, float]]]]:
    """(rounds, {bet: (simulated RTP, std error)}) at growing round counts, for plots."""
    from games.catalog import family_of, get_variant

    variant = get_variant(game)
    fam = family_of(variant)
    sizes = sorted({max(100, rounds // 4**k) for k in range(points)})
    out = []
    for size in sizes:
        sim = fam.simulate(variant, size, seed)
        out.append((size, {b: (1.0 + s.mean, s.std_error) for b, s in sim.bets.items()}))
    return out


# -- sources and the whole set -----------------------------------------------------------------


def source_rng(source: str, *, seed: int = 1, url: str = "") -> Draws:
    """The appliance's :class:`rng.Rng` on the named source (hw, os or sim)."""
    from firmware_bridge import ENTROPY_OPENER
    from rng import RngConfig, RngError, open_rng

    try:
        config = RngConfig(source=source, url=url, test_mode=source == "sim", sim_seed=seed)
        stack = open_rng(config, real_money=False, opener=ENTROPY_OPENER)
    except RngError as exc:
        raise SourceError(f"cannot open the {source} source: {exc}") from exc
    return stack.rng


def run_game_checks(
    rng: Draws,
    *,
    game: str | None = None,
    rounds: int = 200_000,
    samples: int = 20_000,
    seed: int = 1,
    confidence: float = 0.999,
    progress: bool = True,
) -> GameReport:
    """The distribution tests on ``rng`` and the RTP check of ``game`` (or of every game).

    With ``progress`` a bar on standard error (a terminal only) counts the steps.
    """
    from certification.progress import Progress

    variants = rtp_variants(game)
    report = GameReport()
    bar = Progress(4 + len(variants), "games")
    bar.enabled = bar.enabled and progress
    with bar:
        report.checks += card_checks(shuffles(rng, samples))
        bar.advance()
        report.checks += dice_checks(rng, samples)
        bar.advance()
        report.checks += roulette_checks(rng, samples)
        bar.advance()
        from certification.video_poker_deals import video_poker_checks

        report.checks += video_poker_checks(rng, samples)  # issue 16: the machines' deals
        bar.advance()
        report.rtp, report.skipped = rtp_checks(
            game, rounds, seed, confidence, on_variant=lambda _v: bar.advance()
        )
    return report
