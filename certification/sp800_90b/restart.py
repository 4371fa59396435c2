"""Restart tests (SP 800-90B 3.1.4), as NIST's ``ea_restart`` runs them.

The restart data are 1000 restarts of 1000 samples each (row ``i`` is restart ``i``).
The sanity check (3.1.4.3) compares the largest count of one symbol in any row or column,
``X_max``, with the cutoff a worst-case source of min-entropy ``H_I`` would exceed with
probability ``alpha = 1 - 0.99^(1/2000)`` (found by seeded simulation, as the tool does).
The validation (3.1.4.2) estimates the entropy of the row data and of the column data
with the literal estimators (the most common value only for the IID track); the restart
test passes when ``min(H_r, H_c) >= H_I / 2`` and the result is ``min(H_r, H_c, H_I)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.memory import reuses_freed_memory
from certification.sp800_90b.non_iid import NonIidResult, assess_non_iid
from certification.sp800_90b.samples import Samples, from_array, read_samples

ROWS = 1000
COLS = 1000
SIMULATION_ROUNDS = 1_000_000


@dataclass(frozen=True, slots=True)
class RestartResult:
    """Sanity check and validation outcome."""

    h_i: float
    alpha: float
    x_cutoff: int
    x_max: int
    sanity_passed: bool
    h_r: float | None
    h_c: float | None
    passed: bool
    h_assessed: float | None


def read_restart_matrix(path: str | Path, bits_per_symbol: int | None = None) -> Samples:
    """Read a restart file: exactly 1000 x 1000 samples, row-major."""
    s = read_samples(path, bits_per_symbol)
    if s.len != ROWS * COLS:
        raise SampleDataError(
            f"restart data must hold {ROWS * COLS} samples (1000 restarts x 1000), got {s.len}"
        )
    return s


def simulate_cutoff(
    alpha: float, k: int, h_i: float, *, seed: int = 0, rounds: int = SIMULATION_ROUNDS
) -> int:
    """Cutoff for the largest per-row count of a worst-case source with min-entropy ``h_i``."""
    p = 2.0 ** (-h_i)
    k_max = math.floor(1.0 / p)
    if k_max > k:
        raise SampleDataError(f"H_I = {h_i} is too high for an alphabet of {k} symbols")
    probs = np.full(k, 0.0)
    probs[:k_max] = p
    if k > k_max:
        probs[k_max:] = (1.0 - p * k_max) / (k - k_max)
    probs /= probs.sum()
    rng = np.random.default_rng(seed)
    results = np.empty(rounds, dtype=np.int64)
    chunk = 20_000
    for start in range(0, rounds, chunk):
        size = min(chunk, rounds - start)
        counts = rng.multinomial(COLS, probs, size=size)
        results[start : start + size] = counts.max(axis=1)
    results.sort()
    idx = math.floor((1.0 - alpha) * rounds) - 1
    return int(results[idx])


def _max_count(matrix: npt.NDArray[np.uint8], k: int) -> int:
    best = 0
    for row in matrix:
        best = max(best, int(np.bincount(row, minlength=k).max()))
    return best


@reuses_freed_memory
def restart_tests(
    samples: Samples, word_size: int, h_i: float, *, iid: bool = False, seed: int = 0
) -> RestartResult:
    """Run the sanity check and the validation on a 1000x1000 restart matrix."""
    if not 0.0 <= h_i <= word_size:
        raise SampleDataError(f"H_I must be between 0 and {word_size}, got {h_i}")
    k = samples.alph_size
    rows = samples.symbols.reshape(ROWS, COLS)
    cols = np.ascontiguousarray(rows.T)
    alpha = 1.0 - math.exp(math.log(0.99) / (ROWS + COLS))
    cutoff = simulate_cutoff(alpha, k, h_i, seed=seed)
    x_max = max(_max_count(rows, k), _max_count(cols, k))
    if x_max > cutoff:
        return RestartResult(h_i, alpha, cutoff, x_max, False, None, None, False, None)
    h_r = _literal_entropy(rows.ravel(), word_size, iid)
    h_c = _literal_entropy(cols.ravel(), word_size, iid)
    passed = min(h_r, h_c) >= h_i / 2.0
    return RestartResult(
        h_i,
        alpha,
        cutoff,
        x_max,
        True,
        h_r,
        h_c,
        passed,
        min(h_r, h_c, h_i) if passed else None,
    )


def _literal_entropy(data: npt.NDArray[np.uint8], word_size: int, iid: bool) -> float:
    s = from_array(data, word_size)
    if iid:
        from certification.sp800_90b.mcv import most_common_value

        return min(float(word_size), most_common_value(s.symbols, s.alph_size).min_entropy)
    res: NonIidResult = assess_non_iid(s, literal_only=True)
    assert res.h_original is not None
    return res.h_original


def render_restart(res: RestartResult, *, verbose: int = 1) -> str:
    """Console text in the terms of ``ea_restart``."""
    out = [
        f"H_I: {res.h_i:f}",
        f"ALPHA: {res.alpha:.17g}, X_cutoff: {res.x_cutoff}",
        f"X_max: {res.x_max}",
    ]
    if not res.sanity_passed:
        out += ["", "*** Restart Sanity Check Failed ***"]
        return "\n".join(out) + "\n"
    out += ["", "Restart Sanity Check Passed..."]
    assert res.h_r is not None and res.h_c is not None
    out.append(f"H_r: {res.h_r:f}")
    out.append(f"H_c: {res.h_c:f}")
    if res.passed:
        out.append("Validation Test Passed...")
        out.append("")
        out.append(f"min(H_r, H_c, H_I): {res.h_assessed:f}")
    else:
        out.append("*** Validation Test Failed ***")
    _ = verbose
    return "\n".join(out) + "\n"


def restart_json(res: RestartResult) -> dict[str, Any]:
    """JSON-ready dictionary of the restart tests."""
    return {
        "h_i": res.h_i,
        "alpha": res.alpha,
        "x_cutoff": res.x_cutoff,
        "x_max": res.x_max,
        "sanity_check_passed": res.sanity_passed,
        "h_r": res.h_r,
        "h_c": res.h_c,
        "passed": res.passed,
        "h_assessed": res.h_assessed,
    }
