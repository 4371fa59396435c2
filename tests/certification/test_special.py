"""certification.stats.special: the closed-form Q(a, x) against SciPy over the battery's range.

The SP 800-22 battery calls Q(a, x) only with a a multiple of 1/2; the closed form must
agree with ``scipy.special.gammaincc`` (cephes, what sts-2.1.2 uses) far below the six
decimals the tool prints, for every a the tests and the final analysis use and x from
0 to well past the tail.
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from scipy import special

from certification.stats.special import erfc, igamc, normal

#: every a of the battery at the tool's defaults and the parameters a lab may choose:
#: Rank/LongestRun/excursion/template/LC classes (k/2), BlockFrequency's N/2 (up to
#: 10^6 / 2 blocks of M >= 1... sampled), ApEn's 2^(m-1), Serial's 2^(m-2) and 2^(m-3)
A_VALUES = sorted(
    {k / 2 for k in range(1, 41)}
    | {2.0**j for j in range(16)}
    | {2.0**j / 2 for j in range(16)}
    | {3906.0, 7812.5, 15625.0 / 2, 62500.0, 250000.5}
)


def _grid(a: float) -> np.ndarray:
    sd = math.sqrt(a)
    end = a + 40 * sd + 80
    return np.concatenate([np.linspace(1e-9, end, 400), np.logspace(-12, math.log10(end), 60)])


@pytest.mark.parametrize("a", A_VALUES)
def test_igamc_equals_scipy_over_the_range_used(a: float) -> None:
    xs = _grid(a)
    ours = np.array([igamc(a, float(x)) for x in xs])
    theirs = special.gammaincc(a, xs)
    assert np.all(np.abs(ours - theirs) < 1e-12)  # absolute: what six decimals see
    big = theirs > 1e-200
    assert np.all(np.abs(ours[big] - theirs[big]) <= 1e-9 * theirs[big])  # relative, tails


def test_igamc_edges() -> None:
    assert igamc(4.0, 0.0) == 1.0 and igamc(4.0, -3.0) == 1.0  # cephes: 1 for x <= 0
    assert igamc(0.5, 2.0) == pytest.approx(math.erfc(math.sqrt(2.0)), rel=1e-15)
    assert igamc(1.0, 3.0) == pytest.approx(math.exp(-3.0), rel=1e-15)
    assert igamc(16384.0, 1e6) == 0.0  # far in the tail: underflows, as cephes does
    assert igamc(16384.0, 10.0) == 1.0
    # an a that is not a multiple of 1/2 (Serial with m = 1 asks 2^-1 / 2) goes to SciPy
    assert igamc(0.25, 0.7) == pytest.approx(float(special.gammaincc(0.25, 0.7)), rel=1e-14)


def test_erfc_and_normal_equal_scipy() -> None:
    xs = np.linspace(-6.0, 26.0, 3201)  # past 26.5 SciPy flushes denormals to 0
    assert np.allclose([erfc(float(x)) for x in xs], special.erfc(xs), rtol=1e-12, atol=0)
    assert np.allclose(
        [normal(float(x)) for x in xs], 0.5 * special.erfc(-xs / math.sqrt(2)), rtol=1e-12
    )


def test_the_battery_does_not_import_scipy() -> None:
    """The closed form is what keeps ``certify sp800-22``'s start-up short: no SciPy on it."""
    code = (
        "import sys, numpy as np\n"
        "from certification.stats.sp800_22.suite import run_suite\n"
        "bits = np.random.default_rng(1).integers(0, 2, 1_000_000, dtype=np.uint8)\n"
        "run_suite([bits, bits])\n"
        "print('scipy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
