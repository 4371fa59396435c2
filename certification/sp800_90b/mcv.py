"""Most common value estimate (SP 800-90B 6.3.1; also the IID-track estimate, 6.1)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.numerics import upper_bound


@dataclass(frozen=True, slots=True)
class McvResult:
    """Mode count, its proportion ``p_hat``, the upper bound ``p_u`` and ``-log2(p_u)``."""

    mode: int
    p_hat: float
    p_u: float
    min_entropy: float


def most_common_value(symbols: npt.NDArray[np.uint8], alph_size: int) -> McvResult:
    """The most common value estimate over ``symbols`` (values ``< alph_size``)."""
    n = int(symbols.size)
    mode = int(np.bincount(symbols, minlength=alph_size).max())
    p_hat = mode / n
    p_u = upper_bound(p_hat, n)
    return McvResult(mode=mode, p_hat=p_hat, p_u=p_u, min_entropy=-math.log2(p_u))
