"""The non-IID track (SP 800-90B 6.3): every estimator on the literal symbols and on the
bitstring, and the assessed min-entropy, as NIST's ``ea_non_iid`` computes them.

For binary data (two symbols) the estimators run once, on the symbols ("Literal"). For
larger alphabets the bitstring estimators ("Bitstring") run as well; the collision, Markov
and compression estimators run on the bitstring only. The assessed value for the initial
entropy estimate is ``min(H_original, word_size * H_bitstring)``; with ``conditioned``
(the tool's ``-c``) only the bitstring is assessed and ``h' = H_bitstring``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from certification.sp800_90b.collision import CollisionResult, collision_estimate
from certification.sp800_90b.compression import CompressionResult, compression_estimate
from certification.sp800_90b.lag import lag_estimate
from certification.sp800_90b.lz78y import lz78y_estimate
from certification.sp800_90b.markov import MarkovResult, markov_estimate
from certification.sp800_90b.mcv import McvResult, most_common_value
from certification.sp800_90b.mcw import mcw_estimate
from certification.sp800_90b.mmc import mmc_estimate
from certification.sp800_90b.prediction import PredictionResult
from certification.sp800_90b.samples import Samples
from certification.sp800_90b.tuples import LrsResult, TupleResult, tuple_estimates

Estimate = (
    McvResult
    | CollisionResult
    | MarkovResult
    | CompressionResult
    | TupleResult
    | LrsResult
    | PredictionResult
)

#: Estimator names in the tool's order (and its output labels).
ESTIMATORS = (
    "Most Common Value",
    "Collision",
    "Markov",
    "Compression",
    "t-Tuple",
    "LRS",
    "MultiMCW Prediction",
    "Lag Prediction",
    "MultiMMC Prediction",
    "LZ78Y Prediction",
)


@dataclass(frozen=True, slots=True)
class EstimateRow:
    """One estimator's outcome on one track ("Literal" or "Bitstring")."""

    estimator: str
    track: str
    result: Estimate | None  # None: the tool reports the estimate could not run
    seconds: float
    cpu_seconds: float = 0.0

    @property
    def min_entropy(self) -> float | None:
        """Per-symbol (Literal) or per-bit (Bitstring) min-entropy, when available."""
        return None if self.result is None else self.result.min_entropy


@dataclass(frozen=True, slots=True)
class NonIidResult:
    """The whole non-IID assessment."""

    samples: int
    alph_size: int
    word_size: int
    bit_count: int
    initial: bool
    rows: tuple[EstimateRow, ...]
    h_original: float | None
    h_bitstring: float | None
    h_assessed: float
    seconds: float = field(default=0.0)

    def row(self, estimator: str, track: str) -> EstimateRow | None:
        """The row for one estimator and track, if it ran."""
        for r in self.rows:
            if r.estimator == estimator and r.track == track:
                return r
        return None


def assess_non_iid(
    samples: Samples,
    *,
    conditioned: bool = False,
    literal_only: bool = False,
    only: frozenset[str] | None = None,
    progress: Callable[[str, str], None] | None = None,
) -> NonIidResult:
    """Run the non-IID track.

    ``literal_only`` skips the bitstring (as the restart validation does); ``only`` limits
    the run to some estimators (for benchmarks).
    """
    t_start = time.perf_counter()
    initial = not conditioned
    binary = samples.alph_size == 2
    do_bits = ((not binary) or conditioned) and not literal_only
    do_lit = initial
    word = samples.word_size
    h_original = float(word)
    h_bitstring = 1.0
    rows: list[EstimateRow] = []

    def want(name: str) -> bool:
        return only is None or name in only

    def record(
        name: str, track: str, fn: Callable[..., Estimate | None], *args: object
    ) -> Estimate | None:
        nonlocal h_original, h_bitstring
        if progress is not None:
            progress(name, track)
        t0, c0 = time.perf_counter(), time.process_time()
        res = fn(*args)
        rows.append(
            EstimateRow(name, track, res, time.perf_counter() - t0, time.process_time() - c0)
        )
        if res is not None:
            if track == "Bitstring":
                h_bitstring = min(h_bitstring, res.min_entropy)
            else:
                h_original = min(h_original, res.min_entropy)
        return res

    bits = samples.bits
    sym = samples.symbols
    k = samples.alph_size
    if want("Most Common Value"):
        if do_bits:
            record("Most Common Value", "Bitstring", most_common_value, bits, 2)
        if do_lit:
            record("Most Common Value", "Literal", most_common_value, sym, k)
    bin_tracks: list[tuple[str, npt.NDArray[np.uint8]]] = []
    if do_bits:
        bin_tracks.append(("Bitstring", bits))
    if do_lit and binary:
        bin_tracks.append(("Literal", sym))
    entropic: tuple[tuple[str, Callable[..., Estimate | None]], ...] = (
        ("Collision", collision_estimate),
        ("Markov", markov_estimate),
        ("Compression", compression_estimate),
    )
    for name, fn in entropic:
        if want(name):
            for track, data in bin_tracks:
                record(name, track, fn, data)
    if want("t-Tuple") or want("LRS"):
        pairs: dict[str, tuple[TupleResult | None, LrsResult | None]] = {}
        tracks = [("Bitstring", bits, 2)] if do_bits else []
        if do_lit:
            tracks.append(("Literal", sym, k))
        for track, data, alph in tracks:
            if progress is not None:
                progress("t-Tuple", track)
            t0, c0 = time.perf_counter(), time.process_time()
            pairs[track] = tuple_estimates(data, alph)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            rows.append(EstimateRow("t-Tuple", track, pairs[track][0], wall, cpu))
            rows.append(EstimateRow("LRS", track, pairs[track][1], 0.0, 0.0))
        for tr, (tt, lrs) in pairs.items():
            for res in (tt, lrs):
                if res is not None:
                    if tr == "Bitstring":
                        h_bitstring = min(h_bitstring, res.min_entropy)
                    else:
                        h_original = min(h_original, res.min_entropy)
    predictors: tuple[tuple[str, Callable[..., Estimate | None]], ...] = (
        ("MultiMCW Prediction", mcw_estimate),
        ("Lag Prediction", lag_estimate),
        ("MultiMMC Prediction", mmc_estimate),
        ("LZ78Y Prediction", lz78y_estimate),
    )
    for name, pfn in predictors:
        if want(name):
            if do_bits:
                record(name, "Bitstring", pfn, bits, 2)
            if do_lit:
                record(name, "Literal", pfn, sym, k)
    h_assessed = float(word)
    if do_bits:
        h_assessed = min(h_assessed, h_bitstring * word)
    if do_lit:
        h_assessed = min(h_assessed, h_original)
    return NonIidResult(
        samples=samples.len,
        alph_size=k,
        word_size=word,
        bit_count=int(bits.size),
        initial=initial,
        rows=tuple(rows),
        h_original=h_original if do_lit else None,
        h_bitstring=h_bitstring if do_bits else None,
        h_assessed=h_assessed,
        seconds=time.perf_counter() - t_start,
    )
