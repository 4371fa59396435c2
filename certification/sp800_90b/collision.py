"""Collision estimate (SP 800-90B 6.3.2), bit strings only.

Walking the bits, each collision is found after 2 bits (``00``/``11``) or 3 (the first two
differ, so the third repeats one of them). The mean wait ``X-bar`` lowered by its 99%
bound gives ``p`` by the tool's guarded bisection on the expected wait of a binary source
(step 7 with ``F(q) = q(2q^2 + 2q + 1)``); no solution means full entropy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.errors import SampleDataError
from certification.sp800_90b.jit import kernel
from certification.sp800_90b.numerics import ZALPHA, bisect_decreasing


def _expected_wait(p: float) -> float:
    """Expected collision wait for a binary source with max probability ``p`` (6.3.2 step 7)."""
    q = 1.0 - p
    f = q * (2.0 * q * q + 2.0 * q + 1.0)
    return (p / (q * q)) * (1.0 + 0.5 * (1.0 / p - 1.0 / q)) * f - (p / q) * 0.5 * (
        1.0 / p - 1.0 / q
    )


@kernel
def _collision_counts(bits: npt.NDArray[np.uint8]) -> tuple[int, int]:
    """Numbers of collisions found after 2 bits and after 3 (step 2 of 6.3.2)."""
    n = bits.size
    twos = 0
    threes = 0
    i = 0
    while i + 1 < n:
        if bits[i] == bits[i + 1]:
            twos += 1
            i += 2
        elif i + 2 < n:
            threes += 1
            i += 3
        else:
            break
    return twos, threes


@dataclass(frozen=True, slots=True)
class CollisionResult:
    """Collision counts and the derived ``p`` and min-entropy (``found`` False: p = 0.5)."""

    v: int
    sum_t: int
    x_bar: float
    sigma_hat: float
    x_bar_prime: float
    found: bool
    p: float
    min_entropy: float


def collision_estimate(bits: npt.NDArray[np.uint8]) -> CollisionResult:
    """The collision estimate over a bit string (values 0/1)."""
    twos, threes = _collision_counts(np.ascontiguousarray(bits))
    v = int(twos + threes)
    if v < 2:
        raise SampleDataError("too few samples for the collision estimate")
    i = 2 * twos + 3 * threes
    s = float(4 * twos + 9 * threes)
    x = i / v
    sigma = math.sqrt((s - (i * x)) / (v - 1))
    x_prime = x - ZALPHA * sigma / math.sqrt(v)
    p = bisect_decreasing(_expected_wait, x_prime, 0.5, 1.0, fail_value=0.5)
    p = p if _expected_wait(0.5) > x_prime else -1.0
    if p > 0.5:
        found, ent = True, -math.log2(p)
    else:
        p, found, ent = 0.5, False, 1.0
    return CollisionResult(
        v=v,
        sum_t=i,
        x_bar=x,
        sigma_hat=sigma,
        x_bar_prime=x_prime,
        found=found,
        p=p,
        min_entropy=ent,
    )
