"""ent (Debian's package) on a block of bytes: entropy, chi-square, mean, Monte Carlo pi,
serial correlation, from its terse CSV output (``ent -t``).

ent prints the chi-square statistic over the 256 byte values; its p-value (the upper
tail of chi-square with 255 degrees of freedom, what ent words as "would exceed this
value N percent of the times") is computed here with SciPy so the second level can
test the p-values of many blocks for uniformity.
"""

from __future__ import annotations

from dataclasses import dataclass

from scipy.stats import chi2

from certification.errors import SourceError
from certification.external.feed import feed
from certification.external.tools import require


@dataclass(frozen=True, slots=True)
class EntResult:
    """ent's figures for one block."""

    bytes: int
    entropy: float  # bits per byte
    chi_square: float
    chi_square_p: float
    mean: float
    monte_carlo_pi: float
    serial_correlation: float

    def as_dict(self) -> dict[str, float]:
        return {
            "bytes": self.bytes,
            "entropy": self.entropy,
            "chi_square": self.chi_square,
            "chi_square_p": self.chi_square_p,
            "mean": self.mean,
            "monte_carlo_pi": self.monte_carlo_pi,
            "serial_correlation": self.serial_correlation,
        }


def parse(text: str) -> EntResult:
    """``ent -t`` output: a header row, then ``1,bytes,entropy,chi,mean,pi,corr``."""
    rows = [ln.split(",") for ln in text.strip().splitlines()]
    data = [r for r in rows if r and r[0] == "1" and len(r) == 7]
    if not data:
        raise SourceError(f"ent gave no result: {text.strip()[:200]!r}")
    _, n, entropy, chi, mean, pi, corr = data[0]
    try:
        chi_value = float(chi)
        return EntResult(
            bytes=int(n),
            entropy=float(entropy),
            chi_square=chi_value,
            chi_square_p=float(chi2.sf(chi_value, 255)),
            mean=float(mean),
            monte_carlo_pi=float(pi),
            serial_correlation=float(corr),
        )
    except ValueError as exc:
        raise SourceError(f"ent's output is not numbers: {exc}") from None


def run_ent(data: bytes) -> EntResult:
    chunks = iter(data[i : i + 65536] for i in range(0, len(data), 65536))
    fed = feed([require("ent"), "-t"], lambda n: next(chunks, b""), limit=len(data))
    return parse(fed.stdout)
