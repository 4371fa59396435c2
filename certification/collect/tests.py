"""Chi-square tests at 99% on collected outcomes (``croupier certify outcomes DIR``).

- cards (shoes and video poker deals): position by position, the 52 card faces at that
  position over all shoes of one size (51 degrees of freedom; a deck's jokers, if any,
  are left out of the faces and the expectation); with hundreds of positions some fail
  at 1% by chance, so the family's verdict is that the number failing is within the
  upper 99% bound of Binomial(positions, 0.01), no position fails the Bonferroni bound
  0.01 / positions, and their p-values are uniform (KS, p >= 0.0001, SP 800-22's
  threshold);
- dice: each die's faces, and the totals against their exact law;
- wheel: the numbers of each wheel size.

A test needs at least five expected per cell (the chi-square approximation's rule);
below that it is reported as too few, never as a pass.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from certification.collect.files import (
    check_manifest,
    read_dice,
    read_shoes,
    read_video_poker,
    read_wheel,
)
from certification.errors import InputFormatError

ALPHA = 0.01  # 99% tests
UNIFORMITY_ALPHA = 0.0001
MIN_EXPECTED = 5.0


@dataclass(frozen=True, slots=True)
class OutcomeTest:
    name: str
    description: str
    samples: int
    statistic: float
    dof: int
    p_value: float | None  # None: too few samples to test
    passed: bool

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


def chi_square(name: str, description: str, observed: NDArray[np.float64],
               expected: NDArray[np.float64]) -> OutcomeTest:  # fmt: skip
    obs, exp = observed.astype(np.float64).ravel(), expected.astype(np.float64).ravel()
    dof = obs.size - 1
    if exp.min() < MIN_EXPECTED:
        return OutcomeTest(name, description + " (too few samples)", int(obs.sum()), 0.0, dof,
                           None, False)  # fmt: skip
    stat = float(((obs - exp) ** 2 / exp).sum())
    p = float(stats.chi2.sf(stat, dof))
    return OutcomeTest(name, description, int(obs.sum()), stat, dof, p, p >= ALPHA)


def positions(
    name: str, what: str, cards: NDArray[np.int64], law: NDArray[np.float64]
) -> list[OutcomeTest]:
    """Position by position over rows of ``cards`` (one shoe or deal per row), each
    position against ``law`` (the chance of each card index 0..52 at any position)."""
    n, width = cards.shape
    cells = law > 0
    tests = []
    for p in range(width):
        observed = np.bincount(cards[:, p], minlength=law.size).astype(np.float64)
        tests.append(chi_square(f"{name}-position-{p + 1}", f"{what}: cards at position {p + 1}",
                                observed[cells], law[cells] * n))  # fmt: skip
    pvals = [t.p_value for t in tests if t.p_value is not None]
    if not pvals:
        few = OutcomeTest(f"{name}-positions", f"{what}: too few to test ({n})", n, 0.0, 0,
                          None, False)  # fmt: skip
        return [few, *tests]
    failing = sum(p < ALPHA for p in pvals)
    bound = int(stats.binom.ppf(0.99, len(pvals), ALPHA))
    uniform = float(stats.kstest(pvals, "uniform").pvalue) if len(pvals) > 1 else 1.0
    smallest = min(pvals)
    summary = OutcomeTest(
        f"{name}-positions",
        f"{what}: {failing} of {len(pvals)} positions fail at 1% (99% bound {bound}); "
        f"smallest p {smallest:.3g} (Bonferroni bound {ALPHA / len(pvals):.3g}); "
        f"p-values' uniformity {uniform:.6f}",
        n,
        float(failing),
        len(pvals),
        uniform,
        failing <= bound and smallest >= ALPHA / len(pvals) and uniform >= UNIFORMITY_ALPHA,
    )
    return [summary, *tests]


def shoe_law(decks: int, jokers: int) -> NDArray[np.float64]:
    """Chance of each index 0..51 (and 52, the joker) at one position of a shuffled shoe."""
    law = np.full(53, decks, dtype=np.float64)
    law[52] = jokers
    return law / (52 * decks + jokers)


def _sum_law(dice: int) -> NDArray[np.float64]:
    totals = [sum(r) for r in itertools.product(range(1, 7), repeat=dice)]
    counts = np.bincount(totals, minlength=6 * dice + 1)[dice:].astype(np.float64)
    law: NDArray[np.float64] = counts / counts.sum()
    return law


def dice_tests(rolls: list[list[int]]) -> list[OutcomeTest]:
    out = []
    for k in sorted({len(r) for r in rolls}):
        faces = np.asarray([r for r in rolls if len(r) == k], dtype=np.int64)
        for d in range(k):
            obs = np.bincount(faces[:, d] - 1, minlength=6).astype(np.float64)
            out.append(chi_square(f"dice{k}-die-{d + 1}", f"{k} dice: faces of die {d + 1}", obs,
                                  np.full(6, faces.shape[0] / 6)))  # fmt: skip
        sums = np.bincount(faces.sum(axis=1) - k, minlength=5 * k + 1).astype(np.float64)
        out.append(chi_square(f"dice{k}-sums", f"{k} dice: totals {k}..{6 * k}", sums,
                              _sum_law(k) * faces.shape[0]))  # fmt: skip
    return out


def wheel_tests(spins: list[tuple[int, int]]) -> list[OutcomeTest]:
    out = []
    for pockets in sorted({p for p, _ in spins}):
        numbers = np.asarray([i for p, i in spins if p == pockets], dtype=np.int64)
        obs = np.bincount(numbers, minlength=pockets).astype(np.float64)
        out.append(chi_square(f"wheel-{pockets}", f"numbers of a {pockets}-pocket wheel", obs,
                              np.full(pockets, numbers.size / pockets)))  # fmt: skip
    return out


def test_directory(out: Path) -> dict[str, object]:
    """Check the manifest's hashes, then run every test the directory's files allow."""
    manifest = check_manifest(out)
    files = manifest["files"]
    assert isinstance(files, dict)
    results: list[OutcomeTest] = []
    if "shoes.txt" in files:
        by_size: dict[tuple[int, int], list[list[int]]] = {}
        for decks, cards in read_shoes(out / "shoes.txt"):
            jokers = len(cards) - 52 * decks
            if jokers < 0 or sorted(cards) != sorted([*range(52)] * decks + [52] * jokers):
                raise InputFormatError(f"{out / 'shoes.txt'}: a shoe is not {decks} whole decks")
            by_size.setdefault((decks, jokers), []).append(cards)
        for (decks, jokers), shoes in sorted(by_size.items()):
            arr = np.asarray(shoes, dtype=np.int64)
            label = f"{decks}-deck shoes" + (f" with {jokers} jokers" if jokers else "")
            results += positions(f"shoe{decks}", label, arr, shoe_law(decks, jokers))
    if "video_poker.txt" in files:
        arr = np.asarray(read_video_poker(out / "video_poker.txt"), dtype=np.int64)
        results += positions("video-poker", "video poker deals (5 dealt, 5 drawn)", arr,
                             shoe_law(1, 0))  # fmt: skip
    if "dice.txt" in files:
        results += dice_tests(read_dice(out / "dice.txt"))
    if "wheel.txt" in files:
        results += wheel_tests(read_wheel(out / "wheel.txt"))
    families = [t for t in results if not t.name.split("-position-")[-1].isdigit()]
    return {
        "directory": str(out),
        "files": files,
        "passed": all(t.passed for t in families),
        "tests": [t.as_dict() for t in results],
    }
