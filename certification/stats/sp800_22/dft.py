"""Discrete Fourier transform (spectral) test (SP 800-22 2.6), as sts-2.1.2 computes it.

The tool counts the moduli |F_k| for k = 0 .. n/2 - 1 (integer n/2, the DC term
included) below the threshold sqrt(2.995732274 n) = sqrt(log(1/0.05) n), and compares
the count with N_0 = 0.95 n / 2.
"""

from __future__ import annotations

import math

import numpy as np

from certification.stats.sp800_22.result import TestOutcome, single
from certification.stats.sp800_22.sequence import Bits, Sequence, as_sequence
from certification.stats.special import erfc


def dft(bits: Bits | Sequence) -> TestOutcome:
    seq = as_sequence(bits)
    n = seq.n
    x = seq.bits.astype(np.float64) * 2.0 - 1.0
    spectrum = np.fft.rfft(x)[: n // 2]
    threshold = math.sqrt(2.995732274 * n)
    # compare squared moduli: same decision as the tool's sqrt, without n/2 square roots
    power = spectrum.real**2 + spectrum.imag**2
    n_l = float(np.count_nonzero(power < threshold * threshold))
    p_value, n_o, d = dft_p_value(n, n_l)
    return single("FFT", p_value, N1=n_l, N0=n_o, d=d)


def dft_p_value(n: int, n_l: float) -> tuple[float, float, float]:
    """(P, N_0, d) for ``n_l`` moduli below the threshold in a sequence of ``n`` bits."""
    n_o = 0.95 * n / 2.0
    d = (n_l - n_o) / math.sqrt(n / 4.0 * 0.95 * 0.05)
    return erfc(abs(d) / math.sqrt(2.0)), n_o, d
